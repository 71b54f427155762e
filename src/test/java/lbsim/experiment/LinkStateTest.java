package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** links.csv: a link_id per direction that no other row shares, and the state each link ended in. */
class LinkStateTest {
    private static final String BUNDLED = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, parallel_links: 2}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 100000, start_ns: 0}]}
            failures: [{at_us: 5, link: "leaf0-spine1*", kind: down, detect_ms: 0},
                       {at_us: 7, link: "leaf1-spine0*", kind: degrade, capacity_fraction: 0.5}]
            """;

    @Test
    void everyDirectionHasItsOwnIdAndTheFailedLinksSayWhenTheyFailed() {
        RunResult r = Scenarios.run(BUNDLED);
        Set<String> ids = new HashSet<>();
        for (LinkRecord l : r.links()) {
            assertThat(ids.add(l.linkId())).as("link_id %s unique", l.linkId()).isTrue();
            assertThat(l.linkId()).startsWith(l.from() + "->" + l.to());
        }
        assertThat(ids).hasSize(r.links().size());
        List<LinkRecord> down = r.links().stream().filter(l -> l.state().equals("down")).toList();
        assertThat(down).isNotEmpty().allSatisfy(l -> {
            assertThat(l.link()).startsWith("leaf0-spine1");
            assertThat(l.stateSinceNs()).isEqualTo(5000.0);
        });
        assertThat(down).hasSize(2 * (int) r.links().stream().map(LinkRecord::link).filter(n -> n.startsWith("leaf0-spine1")).distinct().count());
        assertThat(r.links().stream().filter(l -> l.state().equals("degraded")))
                .isNotEmpty().allSatisfy(l -> {
                    assertThat(l.link()).startsWith("leaf1-spine0");
                    assertThat(l.stateSinceNs()).isEqualTo(7000.0);
                });
        assertThat(r.links().stream().filter(l -> l.state().equals("up")))
                .isNotEmpty().allSatisfy(l -> assertThat(l.stateSinceNs()).isNaN());
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** results.csv columns from summary.json: short lists of objects are flattened by their first field. */
class SweepFlattenTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void listsOfObjectsAreNamedByTheirFirstFieldAndOtherListsAreLeftOut() {
        JsonNode s = JSON.readTree("""
                {"scheme": "hopper", "seed": 3, "wall_ms": 12,
                 "flows": {"count": 2, "slowdown": {"mean": 1.5, "p99": 2.0},
                           "slowdown_bins": [{"min_bytes": 0, "max_bytes": 10000, "count": 1, "mean": 1.2, "p99": 1.2},
                                             {"min_bytes": 10000, "max_bytes": null, "count": 1, "mean": 1.8, "p99": 1.8}]},
                 "link_classes": [{"class": "leaf->spine 1G", "links": 4, "mean_utilisation": 0.25},
                                  {"class": "leaf->spine 10G", "links": 8, "mean_utilisation": 0.5}],
                 "warnings": ["a", "b"]}
                """);
        Map<String, String> f = Sweep.flatten(s);
        assertThat(f).containsEntry("scheme", "hopper").containsEntry("flows.slowdown.p99", "2.0")
                .containsEntry("flows.slowdown_bins.0.mean", "1.2").containsEntry("flows.slowdown_bins.10000.max_bytes", "")
                .containsEntry("flows.slowdown_bins.10000.count", "1")
                .containsEntry("link_classes.leaf->spine 1G.mean_utilisation", "0.25")
                .containsEntry("link_classes.leaf->spine 10G.links", "8")
                .doesNotContainKeys("seed", "wall_ms", "warnings", "flows.slowdown_bins.0.min_bytes", "link_classes.leaf->spine 1G.class");
        assertThat(f.keySet()).noneMatch(k -> k.startsWith("warnings"));
    }

    @Test
    void longListsStayOut() {
        StringBuilder sb = new StringBuilder("{\"collectives\": [");
        for (int i = 0; i <= Sweep.MAX_LISTED; i++) sb.append(i > 0 ? "," : "").append("{\"group\": ").append(i).append(", \"cct_ns\": 5}");
        Map<String, String> f = Sweep.flatten(JSON.readTree(sb.append("]}").toString()));
        assertThat(f).isEmpty();
    }

    @Test
    void aRealRunsLinkClassUtilisationReachesAColumnEqualToItsSummaryValue() {
        RunResult r = Scenarios.run("""
                name: lc
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 10, link_latency_ns: 1000,
                           link_overrides: [{links: "leaf*-spine1", gbps: 1}]}
                transport: {cc: dcqcn, loss_recovery: irn, pfc: true}
                load_balancer: {scheme: ecmp}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 200000}]}
                """);
        JsonNode summary = JSON.valueToTree(ResultWriter.summary(r));
        Map<String, String> f = Sweep.flatten(summary);
        double oneG = 0, tenG = 0;
        for (var c : r.linkClasses()) {
            if (c.linkClass().equals("leaf->spine 1G")) oneG = c.meanUtilisation();
            if (c.linkClass().equals("leaf->spine 10G")) tenG = c.meanUtilisation();
        }
        assertThat(Double.parseDouble(f.get("link_classes.leaf->spine 1G.mean_utilisation"))).isEqualTo(Math.round(oneG * 1e4) / 1e4);
        assertThat(Double.parseDouble(f.get("link_classes.leaf->spine 10G.mean_utilisation"))).isEqualTo(Math.round(tenG * 1e4) / 1e4);
        assertThat(oneG + tenG).isPositive();
    }
}

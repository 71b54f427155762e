package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.stream.Collectors;
import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/** Link classes: grouping by tiers and rate, and utilisation that adds up to the bytes the links carried. */
class LinkClassesTest {
    private static final String ASYMMETRIC = """
            name: classes
            topology: {kind: leaf-spine, leaves: 2, spines: 3, hosts_per_leaf: 2, link_gbps: 100,
                       link_overrides: [{links: "leaf*-spine2", gbps: 10}]}
            workload: {kind: permutation, size_bytes: 2000000, concurrent: 2}
            """;

    private static Map<String, LinkClassRecord> byName(RunResult r) {
        return r.linkClasses().stream().collect(Collectors.toMap(LinkClassRecord::linkClass, c -> c));
    }

    @Test
    void slowLinksFormTheirOwnClassAndMeansMatchTheLinkBytes() {
        RunResult r = Scenarios.run(ASYMMETRIC, "load_balancer.scheme=spray-host", "nic.profile=multipath");
        Scenarios.assertConserved(r);
        Map<String, LinkClassRecord> c = byName(r);
        assertThat(c).containsKeys("host->leaf 100G", "leaf->host 100G", "leaf->spine 100G", "leaf->spine 10G",
                "spine->leaf 100G", "spine->leaf 10G");
        assertThat(c.get("leaf->spine 10G").links()).isEqualTo(2);
        double seconds = r.simTimeNs() / 1e9;
        long slowBytes = r.links().stream().filter(l -> l.from().startsWith("leaf") && l.to().equals("spine2"))
                .mapToLong(LinkRecord::bytes).sum();
        assertThat(c.get("leaf->spine 10G").meanUtilisation() * 2 * 10e9 * seconds / 8).isCloseTo(slowBytes, within(1.0));
        assertThat(c.get("leaf->spine 100G").maxUtilisation()).isGreaterThanOrEqualTo(c.get("leaf->spine 100G").meanUtilisation());
        assertThat(c.get("leaf->spine 10G").meanBeforeFailure()).isNaN();
    }

    @Test
    void beforeAndAfterTheFirstFailureWeighToTheWholeRun() {
        RunResult r = Scenarios.run(ASYMMETRIC + "failures: [{at_us: 100, link: \"leaf0-spine0\", kind: down, detect_ms: 0}]\n",
                "load_balancer.scheme=ecmp");
        Scenarios.assertConserved(r);
        double end = r.simTimeNs();
        double at = 100_000;
        for (LinkClassRecord c : r.linkClasses()) {
            assertThat(c.meanBeforeFailure() * at + c.meanAfterFailure() * (end - at))
                    .as(c.linkClass()).isCloseTo(c.meanUtilisation() * end, within(1e-6 * end));
        }
    }

    private static String stem(String node) {
        return node.startsWith("h") && node.substring(1).chars().allMatch(Character::isDigit) ? "host" : node.replaceAll("[0-9]+$", "");
    }

    /**
     * Every class is the links whose direction (tier stems) and rate it names, in name order, and
     * its mean, max and spread are those of its links' utilisations in links.csv: the summary
     * recomputed from the per-link rows by a plain group-by.
     */
    @Test
    void classesAreAGroupByOfTheLinkRows() {
        RunResult r = Scenarios.run(ASYMMETRIC + "failures: [{at_us: 50, link: \"leaf1-spine1\", kind: down, detect_ms: 0}]\n",
                "load_balancer.scheme=ecmp");
        Map<String, java.util.List<LinkRecord>> groups = new java.util.TreeMap<>();
        for (LinkRecord l : r.links()) {
            String name = stem(l.from()) + "->" + stem(l.to()) + " " + ResultWriter.num(l.gbps()) + "G";
            groups.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(l);
        }
        assertThat(r.linkClasses().stream().map(LinkClassRecord::linkClass).toList()).containsExactlyElementsOf(groups.keySet());
        for (LinkClassRecord c : r.linkClasses()) {
            java.util.List<LinkRecord> g = groups.get(c.linkClass());
            assertThat(c.links()).isEqualTo(g.size());
            double mean = g.stream().mapToDouble(LinkRecord::utilisation).average().orElseThrow();
            double max = g.stream().mapToDouble(LinkRecord::utilisation).max().orElseThrow();
            double var = g.stream().mapToDouble(l -> (l.utilisation() - mean) * (l.utilisation() - mean)).average().orElseThrow();
            assertThat(c.meanUtilisation()).as(c.linkClass()).isCloseTo(mean, within(1e-12));
            assertThat(c.maxUtilisation()).as(c.linkClass()).isCloseTo(max, within(1e-12));   // links.csv divides in another order
            assertThat(c.stdevUtilisation()).as(c.linkClass()).isCloseTo(Math.sqrt(var), within(1e-6));
        }
    }
}

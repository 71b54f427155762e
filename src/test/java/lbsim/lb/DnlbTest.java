package lbsim.lb;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import lbsim.net.Packet;
import lbsim.plan.DnlbPlan;
import org.junit.jupiter.api.Test;

/** DNLB (CTCCL §3): Eq. 3 ports, leaf PBR by port range, virtual spines, Eq. 4, fault avoidance. */
class DnlbTest {
    /** Host h sends to h + shift (mod hosts): every flow leaves its leaf. */
    private static String shift(int hosts, int shift, long size) {
        StringBuilder sb = new StringBuilder("workload: {kind: flows, flows: [");
        for (int h = 0; h < hosts; h++) {
            if (h > 0) sb.append(", ");
            sb.append("{src: ").append(h).append(", dst: ").append((h + shift) % hosts).append(", size_bytes: ").append(size).append('}');
        }
        return sb.append("]}\n").toString();
    }

    private static List<Long> uplinkBytes(RunResult r, String leaf) {
        List<Long> out = new ArrayList<>();
        for (LinkRecord l : r.links()) if (l.from().equals(leaf) && l.to().startsWith("spine")) out.add(l.bytes());
        return out;
    }

    @Test
    void everyUplinkCarriesExactlyEqualBytesWhenNicsTimesQpsEqualsUplinks() {
        // 4 leaves x 4 spines, 2 NICs per leaf, 2 QPs: nNIC_leaf * nqp = 4 = uplinks (Eq. 4 with equality)
        String fabric = """
                name: dnlb
                topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 2, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 2}
                """;
        String perm = fabric + shift(8, 2, 2 * 100 * 4096);
        String a2a = fabric + "workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 5242880}\n";
        for (String yaml : List.of(perm, a2a)) {
            RunResult r = Scenarios.run(yaml);
            Scenarios.assertConserved(r);
            assertThat(r.warnings()).noneMatch(w -> w.contains("Eq. 4"));
            if (yaml == perm) assertThat(r.maxQpsPerNic()).isEqualTo(2); // all-to-all: 2 per connection
            for (int l = 0; l < 4; l++) {
                List<Long> up = uplinkBytes(r, "leaf" + l);
                assertThat(up).hasSize(4);
                assertThat(up.get(0)).isPositive();
                assertThat(up).as("leaf%d uplinks", l).containsOnly(up.get(0));
            }
        }
        // the same flows on two ECMP-hashed QPs each collide on some uplinks
        double worst = 0;
        for (String seed : List.of("1", "2", "3")) {
            RunResult e = Scenarios.run(perm.replace("{scheme: dnlb, qps: 2}", "{scheme: mprdma, splits: 2}"), "seed=" + seed);
            for (int l = 0; l < 4; l++) {
                List<Long> up = uplinkBytes(e, "leaf" + l);
                long max = up.stream().mapToLong(Long::longValue).max().orElse(0);
                long min = up.stream().mapToLong(Long::longValue).min().orElse(0);
                worst = Math.max(worst, (max - min) / (double) max);
            }
        }
        assertThat(worst).as("ECMP's spread over uplinks").isGreaterThan(0.3);
    }

    @Test
    void policyRoutingSendsEachPortRangeToItsUplinkIncludingVirtualSpines() {
        // 2 spines x 2 parallel links, 2 virtual spines per spine: U = 4 logical uplinks on each leaf.
        // One QP per connection, so host h (index h) uses the first port of range h mod 4 (Eq. 3).
        long size = 30 * 4096;
        String yaml = """
                name: pbr
                topology: {kind: leaf-spine, leaves: 2, spines: 2, parallel_links: 2, hosts_per_leaf: 4, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 1, virtual_spines_per_spine: 2}
                """ + shift(8, 4, size);
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        long wire = size + 30 * 64;
        for (int n = 0; n < 4; n++) {
            assertThat(DnlbPorts.uplinkOf(DnlbPorts.sourcePort(n, 0, 1, 4), 4)).isEqualTo(n);
            String link = "leaf0-spine" + n / 2 + "/" + n % 2;
            long data = r.links().stream().filter(l -> l.link().equals(link) && l.from().equals("leaf0"))
                    .mapToLong(LinkRecord::bytes).sum();
            // host n's data, plus the ACKs leaf0's hosts return for host (n + 4)'s flow, whose port is in range n too
            assertThat(data).as(link).isEqualTo(wire + 30 * 64);
        }
        // without VRF the two links to a spine are one PBR target (U = 2): ranges pick the spine
        RunResult bundled = Scenarios.run(yaml, "load_balancer.virtual_spines_per_spine=1");
        Scenarios.assertConserved(bundled);
        assertThat(Scenarios.bytes(bundled, "leaf0", "spine0")).isEqualTo(Scenarios.bytes(bundled, "leaf0", "spine1"));
    }

    @Test
    void spinesSplitIntoVirtualSpinesKeepEachLogicalUplinkOnItsOwnDownlink() {
        // CTCCL §4.1: 2 physical spines x 4 links = 8 virtual spines; 8 hosts per leaf x 1 QP = 8 uplinks (Eq. 4)
        long size = 40 * 4096;
        String yaml = """
                name: vrf
                topology: {kind: leaf-spine, leaves: 2, spines: 2, parallel_links: 4, hosts_per_leaf: 8, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 1, virtual_spines_per_spine: 4}
                """ + shift(16, 8, size);
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        // every downlink member from a spine to a leaf carries the same bytes as the matching uplink member into it
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < 4; k++) {
                String link = "leaf0-spine" + s + "/" + k;
                long up = r.links().stream().filter(l -> l.link().equals(link) && l.from().equals("leaf0")).mapToLong(LinkRecord::bytes).sum();
                String back = "leaf1-spine" + s + "/" + k;
                String spine = "spine" + s;
                long down = r.links().stream().filter(l -> l.link().equals(back) && l.from().equals(spine)).mapToLong(LinkRecord::bytes).sum();
                assertThat(down).as(back).isEqualTo(up);
            }
        }
    }

    @Test
    void trafficWithoutTheDscpAndDeadTargetsUseEcmp() {
        // leaf with 4 uplinks (local ports 4..7); hosts on ports 0..3
        Dnlb.Uplinks up = new Dnlb.Uplinks(new int[][] {{4}, {5}, {6}, {7}});
        Dnlb.Leaf leaf = new Dnlb.Leaf(up, 26, 99);
        Ecmp.Hash ecmp = new Ecmp.Hash(99);
        int[] all = {4, 5, 6, 7};
        int[] noSix = {4, 5, 7};
        SplittableRandom r = new SplittableRandom(5);
        Packet p = new Packet();
        int policyRouted = 0;
        for (int i = 0; i < 2000; i++) {
            p.src = r.nextInt(64);
            p.dst = 64 + r.nextInt(64);
            p.sport = DnlbPorts.PORT_MIN + r.nextInt(DnlbPorts.PORT_SPAN);
            int range = DnlbPorts.uplinkOf(p.sport, 4);
            p.dscp = r.nextInt(64);
            if (p.dscp != 26) {
                assertThat(leaf.choose(null, p, all)).isEqualTo(ecmp.choose(null, p, all));
            } else {
                policyRouted++;
                assertThat(leaf.choose(null, p, all)).isEqualTo(4 + range);
                int c = leaf.choose(null, p, noSix);
                assertThat(c).isEqualTo(range == 2 ? ecmp.choose(null, p, noSix) : 4 + range);
            }
            p.dscp = 26;
            assertThat(leaf.choose(null, p, all)).isEqualTo(4 + range);
        }
        assertThat(policyRouted).isPositive();
    }

    @Test
    void eq4WarningWhenTooFewQpsForTheUplinks() {
        String yaml = """
                name: eq4
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 1, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 2}
                """ + shift(2, 1, 200000);
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.warnings()).singleElement().satisfies(w -> assertThat(w).contains("Eq. 4", "2 leaf(s)", "1 * 2 = 2 < 8"));
        // only 2 of the 8 uplinks carry data (2 more carry the ACKs leaf0 returns for leaf1's QPs)
        assertThat(uplinkBytes(r, "leaf0").stream().filter(b -> b > 100000)).hasSize(2);
        assertThat(uplinkBytes(r, "leaf0").stream().filter(b -> b == 0)).hasSize(4);
        assertThat(Scenarios.run(yaml, "load_balancer.qps=8").warnings()).noneMatch(w -> w.contains("Eq. 4"));
    }

    /** 4 senders x 3 QPs over 8 uplinks satisfy Eq. 4 but give 4 uplinks two QPs and 4 one: the run says so. */
    @Test
    void unevenQpsPerUplinkAreWarnedAtRunTime() {
        String yaml = """
                name: uneven
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 4, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 3}
                """ + shift(8, 4, 200000);
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.warnings()).singleElement().asString().contains("2 leaf(s) load their uplinks unevenly", "uneven (1 to 2)");
        assertThat(Scenarios.run(yaml, "load_balancer.qps=4").warnings()).isEmpty();
    }

    /**
     * The audit's finding 2: nNIC_leaf (CTCCL Sec. 3.3) counts the NICs of the job's hosts; with one sender on a leaf of
     * four hosts, 2 QPs reach 2 of the 8 uplinks, as {@code plan dnlb --uplinks 8 --nics-per-leaf 1 --qps 2} warns.
     */
    @Test
    void eq4CountsTheHostsOfTheLeafThatSend() {
        String yaml = """
                name: eq4-senders
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 4, link_gbps: 100}
                load_balancer: {scheme: dnlb, qps: 2}
                workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 200000}, {src: 4, dst: 0, size_bytes: 200000}]}
                """;
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.warnings()).singleElement().satisfies(w -> assertThat(w).contains("Eq. 4", "2 leaf(s)", "1 * 2 = 2 < 8"));
        assertThat(uplinkBytes(r, "leaf0").stream().filter(b -> b == 0)).hasSize(6); // data and ACKs on spine0-1 only
        // all four hosts of each leaf send: 4 * 2 = 8 QPs per leaf, Eq. 4 holds
        RunResult all = Scenarios.run(yaml.replaceAll("workload: .*\n", "") + shift(8, 4, 200000));
        assertThat(all.warnings()).noneMatch(w -> w.contains("Eq. 4"));
    }

    @Test
    void virtualSpinesMustDivideTheParallelLinks() {
        String yaml = """
                name: v
                topology: {kind: leaf-spine, leaves: 2, spines: 2, parallel_links: 3, hosts_per_leaf: 2}
                load_balancer: {scheme: dnlb, virtual_spines_per_spine: 2}
                workload: {kind: permutation, size_bytes: 100000}
                """;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenarios.run(yaml))
                .isInstanceOf(lbsim.BadInputException.class)
                .hasMessageContaining("test.yaml: load_balancer.virtual_spines_per_spine: 2 must divide").hasMessageContaining("3 parallel links");
        // the same through --set
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenarios.run(yaml.replace("virtual_spines_per_spine: 2", "qps: 8"),
                        "load_balancer={scheme: dnlb, virtual_spines_per_spine: 5}"))
                .isInstanceOf(lbsim.BadInputException.class)
                .hasMessageContaining("test.yaml: load_balancer.virtual_spines_per_spine: 5 must divide");
        Scenarios.assertConserved(Scenarios.run(yaml, "load_balancer.virtual_spines_per_spine=3"));
    }

    @Test
    void flakyLinksWithoutPfcStillCompleteDeterministically() {
        // drops make QPs time out, so data moves between QPs; the run must stay conserved and repeatable
        String yaml = """
                name: flaky
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4}
                transport: {pfc: false, timeout_us: 200}
                load_balancer: {scheme: dnlb, qps: 4}
                workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
                failures: [{at_us: 0, link: "leaf*-spine0", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]
                """;
        RunResult a = Scenarios.run(yaml);
        RunResult b = Scenarios.run(yaml);
        Scenarios.assertConserved(a);
        assertThat(a.timeouts()).isPositive();
        assertThat(a.flows()).isEqualTo(b.flows());
        assertThat(a.links()).isEqualTo(b.links());
    }

    private static final String FAILURE = """
            name: dnlb-failure
            max_time_ms: 30
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: dctcp, timeout_us: 1000}
            load_balancer: {scheme: dnlb, qps: 4}
            failures: [{at_us: 20, link: leaf0-spine1, kind: down, detect_ms: 1000}]
            """;

    @Test
    void afterAnUplinkFailureDataMovesToHealthyQpsAndAllFlowsComplete() {
        // the switches never detect the failure within the run: only the hosts' fault avoidance helps
        RunResult small = Scenarios.run(FAILURE + shift(8, 4, 2_000_000));
        RunResult large = Scenarios.run(FAILURE + shift(8, 4, 4_000_000));
        for (RunResult r : List.of(small, large)) {
            Scenarios.assertConserved(r);
            assertThat(r.timeouts()).as("the hosts noticed the failed QPs").isPositive();
            // a flow that completed sent every lost packet again: re-posted data counts as retransmitted
            long lost = 0;
            for (var f : r.flows()) {
                assertThat(f.retransmittedPackets()).as("flow %d", f.id()).isGreaterThanOrEqualTo(f.lostPackets());
                lost += f.lostPackets();
            }
            assertThat(lost).isPositive();
            assertThat(r.packetsRetransmitted()).isGreaterThanOrEqualTo(lost);
        }
        long deadSmall = Scenarios.bytes(small, "leaf0", "spine1") + Scenarios.bytes(small, "spine1", "leaf0");
        long deadLarge = Scenarios.bytes(large, "leaf0", "spine1") + Scenarios.bytes(large, "spine1", "leaf0");
        // what crossed the dead link was sent before the QPs' timeouts: it does not grow with the data left
        assertThat(deadLarge).isEqualTo(deadSmall);
        assertThat(deadSmall).isLessThan(Scenarios.bytes(small, "leaf0", "spine0") / 2);
        // the healthy uplinks share the moved data evenly
        long s0 = Scenarios.bytes(large, "leaf0", "spine0");
        for (int s : new int[] {2, 3}) {
            assertThat((double) Scenarios.bytes(large, "leaf0", "spine" + s)).isCloseTo(s0, org.assertj.core.data.Percentage.withPercentage(1));
        }
        // without the move (plain ECMP-hashed QPs) flows through the dead link never finish
        RunResult ecmp = Scenarios.run(FAILURE.replace("{scheme: dnlb, qps: 4}", "{scheme: mprdma, splits: 4}")
                + shift(8, 4, 2_000_000));
        assertThat(ecmp.completed()).isFalse();
    }

    @Test
    void afterSwitchDetectionPolicyRoutingFallsBackToEcmp() {
        RunResult r = Scenarios.run(FAILURE.replace("detect_ms: 1000", "detect_ms: 0.01") + shift(8, 4, 2_000_000));
        Scenarios.assertConserved(r);
        long dead = Scenarios.bytes(r, "leaf0", "spine1") + Scenarios.bytes(r, "spine1", "leaf0");
        assertThat(dead).isLessThan(Scenarios.bytes(r, "leaf0", "spine0") / 4);
    }
}

package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** ecmp-ar, letflow and flowlet-switch: each against a property it cannot fake. */
class SwitchFlowletSchemesTest {
    /** 2 leaves x 4 spines, 4 hosts per leaf; every host sends to the other leaf (a permutation). */
    private static final String FABRIC = """
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 300000}, {src: 1, dst: 5, size_bytes: 300000},
                       {src: 2, dst: 6, size_bytes: 300000}, {src: 3, dst: 7, size_bytes: 300000},
                       {src: 4, dst: 0, size_bytes: 300000}, {src: 5, dst: 1, size_bytes: 300000},
                       {src: 6, dst: 2, size_bytes: 300000}, {src: 7, dst: 3, size_bytes: 300000}]}
            """;

    /** 2 leaves x 2 spines, four flows leaf0 -> leaf1 starting a fraction of a packet time apart. */
    private static final String STAGGERED = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 300000}, {src: 1, dst: 5, size_bytes: 300000, start_ns: 130},
                       {src: 2, dst: 6, size_bytes: 300000, start_ns: 270}, {src: 3, dst: 7, size_bytes: 300000, start_ns: 410}]}
            """;

    /** One big flow leaf0 -> leaf1. */
    private static final String LONE = """
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 1, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 1000000}]}
            """;

    private static long[] uplinkBytes(RunResult r) {
        long[] b = new long[4];
        for (int s = 0; s < 4; s++) b[s] = Scenarios.bytes(r, "leaf0", "spine" + s);
        return b;
    }

    @Test
    void newSchemesCompleteAndConserveWithAndWithoutPfc() {
        for (String s : List.of("ecmp-ar", "letflow", "flowlet-switch", "conga")) {
            for (String pfc : List.of("true", "false")) {
                Scenarios.assertConserved(Scenarios.run(FABRIC, "load_balancer.scheme=" + s, "transport.pfc=" + pfc));
            }
        }
    }

    // ---- ecmp-ar

    @Test
    void ecmpArPicksTheHashUnlessItIsAboveThresholdThenALeastLoadedPort() {
        SplittableRandom random = new SplittableRandom(7);
        qt().forAll(lists().of(integers().between(0, 20)).ofSizeBetween(2, 16), integers().between(0, 15),
                integers().between(0, 20)).checkAssert((loadList, h, threshold) -> {
                    long[] loads = loadList.stream().mapToLong(Integer::longValue).toArray();
                    int hashed = h % loads.length;
                    int i = EcmpAr.pick(loads[hashed], loads, loads.length, hashed, threshold, random);
                    long min = java.util.Arrays.stream(loads).min().getAsLong();
                    if (loads[hashed] <= threshold) assertThat(i).isEqualTo(hashed);
                    else assertThat(loads[i]).isEqualTo(min);
                });
    }

    @Test
    void ecmpArWithAnUnreachableThresholdIsEcmp() {
        RunResult ecmp = Scenarios.run(FABRIC, "load_balancer.scheme=ecmp");
        RunResult ar = Scenarios.run(FABRIC, "load_balancer.scheme=ecmp-ar", "load_balancer.threshold_bytes=2000000000");
        assertThat(ar.lastFinishNs()).isEqualTo(ecmp.lastFinishNs());
        assertThat(uplinkBytes(ar)).containsExactly(uplinkBytes(ecmp));
    }

    @Test
    void ecmpArNeverPinsAFlowToAQueueAboveThresholdWhenALowerLoadBandExists() {
        long threshold = 8192;
        Map<Long, Integer> pinned = new HashMap<>();
        int[] contested = new int[1];
        for (long seed = 1; seed <= 3; seed++) {
            RunResult r = Observed.run(FABRIC, d -> {
                long key = d.sw().id * 1_000_003L + FlowTable.key(d.p());
                Integer before = pinned.put(key, d.chosen());
                if (before != null) {
                    assertThat(d.chosen()).as("a flow keeps its port").isEqualTo(before);
                    return;
                }
                int i = indexOf(d.candidates(), d.chosen());
                long min = java.util.Arrays.stream(d.arLoads()).min().getAsLong();
                assertThat(d.loads()[i] <= threshold || d.arLoads()[i] == min).as("pinned to %s of %s (bands %s)", d.loads()[i],
                        java.util.Arrays.toString(d.loads()), java.util.Arrays.toString(d.arLoads())).isTrue();
                if (java.util.Arrays.stream(d.loads()).max().getAsLong() > threshold) contested[0]++;
            }, "load_balancer.scheme=ecmp-ar", "seed=" + seed, "transport.pfc=false");
            Scenarios.assertConserved(r);
            pinned.clear();
        }
        assertThat(contested[0]).as("first packets that met a queue above the threshold").isPositive();
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        throw new AssertionError(v + " not a candidate");
    }

    // ---- letflow

    @Test
    void letflowWithAnUnboundedGapKeepsEachFlowOnOnePath() {
        for (long seed = 1; seed <= 4; seed++) {
            RunResult r = Scenarios.run(LONE, "load_balancer.scheme=letflow", "load_balancer.gap_us=1e9", "seed=" + seed);
            Scenarios.assertConserved(r);
            assertThat(java.util.Arrays.stream(uplinkBytes(r)).filter(b -> b > 0).count()).as("seed %d", seed).isEqualTo(1);
        }
    }

    @Test
    void letflowWithGapZeroSpraysPacketsOverEveryPath() {
        RunResult r = Scenarios.run(LONE, "load_balancer.scheme=letflow", "load_balancer.gap_us=0");
        Scenarios.assertConserved(r);
        long[] b = uplinkBytes(r);
        long total = java.util.Arrays.stream(b).sum();
        // ~250 packets at random over 4 uplinks: each share is 1/4 +- a few standard deviations (~0.027)
        for (long x : b) assertThat((double) x / total).isBetween(0.12, 0.38);
    }

    // ---- flowlet-switch

    @Test
    void flowletSwitchMovesAFlowOnlyAfterAGap() {
        // 4 flows paced at 90% of line rate (4 KB packets ~0.37 us apart) onto 2 uplinks: the uplinks
        // are overloaded, so queues differ; with x = 0.3 us every packet follows a gap, with 1 us none does
        assertThat(flowletMoves(0.3)).as("flowlets moved").isPositive();
        assertThat(flowletMoves(1.0)).as("no gap, no move").isZero();
    }

    private static int flowletMoves(double gapUs) {
        long gapPs = Math.round(gapUs * 1e6);
        Map<Long, long[]> last = new HashMap<>(); // key -> {port, time}
        int[] moves = new int[1];
        RunResult r = Observed.run(STAGGERED, d -> {
            long key = d.sw().id * 1_000_003L + FlowTable.key(d.p());
            long[] prev = last.get(key);
            if (prev != null && prev[0] != d.chosen()) {
                moves[0]++;
                assertThat(d.nowPs() - prev[1]).as("moved after a gap").isGreaterThan(gapPs);
                int i = indexOf(d.candidates(), d.chosen());
                assertThat(d.arLoads()[i]).isEqualTo(java.util.Arrays.stream(d.arLoads()).min().getAsLong());
            }
            last.put(key, new long[] {d.chosen(), d.nowPs()});
        }, "load_balancer.scheme=flowlet-switch", "load_balancer.gap_us=" + gapUs, "transport.cc=fixed-rate",
                "transport.rate_coefficient=0.9");
        Scenarios.assertConserved(r);
        return moves[0];
    }

    @Test
    void flowletSwitchWithAnUnboundedGapPinsEachFlow() {
        RunResult r = Scenarios.run(LONE, "load_balancer.scheme=flowlet-switch", "load_balancer.gap_us=1e9");
        Scenarios.assertConserved(r);
        assertThat(java.util.Arrays.stream(uplinkBytes(r)).filter(b -> b > 0).count()).isEqualTo(1);
    }
}

package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class FlowMetricsTest {
    private static FlowRecord flow(int id, int src, long size, int qps, double start, double finish) {
        return new FlowRecord(id, src, 0, size, 0, qps, start, finish, finish < 0 ? -1 : finish - start, 0, 0, 0, "");
    }

    /** A random flow: source 0..3, 1..4 QPs, start 0..999 ns, duration 1..500 ns, 1..10^6 bytes. */
    private static Gen<List<FlowRecord>> flows() {
        Gen<FlowRecord> one = integers().between(0, 3).zip(integers().between(1, 4), integers().between(0, 999),
                integers().between(1, 500), integers().between(1, 1_000_000),
                (src, qps, start, dur, size) -> flow(0, src, size, qps, start, start + dur));
        return lists().of(one).ofSizeBetween(1, 30);
    }

    @Test
    void throughputSeriesConservesEveryDeliveredBit() {
        // property: the area under the series (Gbit/s x ns) is the bits of the completed flows
        qt().withFixedSeed(42L).withExamples(300).forAll(flows(), integers().between(1, 200)).checkAssert((fl, bins) -> {
            Series s = FlowMetrics.throughput("x", fl, bins);
            double end = fl.stream().mapToDouble(FlowRecord::finishNs).max().orElseThrow();
            double area = 0;
            for (double y : s.y()) area += y * end / bins;
            double bits = fl.stream().mapToDouble(f -> f.sizeBytes() * 8.0).sum();
            assertThat(area).isCloseTo(bits, within(bits * 1e-9));
            assertThat(s.x()[bins - 1]).isCloseTo((bins - 0.5) * end / bins / 1e3, within(1e-9));
        });
    }

    @Test
    void oneFlowAtLineRateGivesLineRateWhileItRuns() {
        // 1 250 000 bytes in 10 us = 1000 Gbit/s; it fills the whole [0, 10 us] window
        Series s = FlowMetrics.throughput("x", List.of(flow(0, 0, 1_250_000, 1, 0, 10_000)), 10);
        for (double y : s.y()) assertThat(y).isCloseTo(1000, within(1e-9));
    }

    @Test
    void maxQpsPerNicEqualsBruteForceOverlapCount() {
        qt().withFixedSeed(7L).withExamples(300).forAll(flows()).checkAssert(fl -> {
            Map<Integer, Integer> got = FlowMetrics.maxQpsPerNic(fl);
            for (int h = 0; h < 4; h++) {
                int best = 0;
                // the count is largest just after some flow starts: check every start instant, half-open lifetimes
                for (FlowRecord a : fl) {
                    if (a.src() != h) continue;
                    int open = 0;
                    for (FlowRecord b : fl) {
                        if (b.src() == h && b.startNs() <= a.startNs() && a.startNs() < b.finishNs()) open += b.qps();
                    }
                    best = Math.max(best, open);
                }
                assertThat(got.getOrDefault(h, 0)).as("host %d", h).isEqualTo(best);
            }
        });
    }

    @Test
    void backToBackFlowsDoNotOverlap() {
        var m = FlowMetrics.maxQpsPerNic(List.of(flow(0, 5, 10, 2, 0, 100), flow(1, 5, 10, 3, 100, 200), flow(2, 6, 10, 1, 0, -1)));
        assertThat(m).containsExactlyInAnyOrderEntriesOf(Map.of(5, 3, 6, 1));
        BarGroup h = FlowMetrics.qpHistogram("s", Map.of(0, 2, 1, 2, 2, 32));
        assertThat(h.bars()).containsExactly(new Bar("2", 2, 0), new Bar("32", 1, 0));
    }

    @Test
    void flowsNoSlowerThanTheirNicHaveSlowdownOne() {
        // at 100 Gbit/s a 1 MB flow takes 80 us, a 5 KB flow 0.4 us
        List<FlowRecord> fl = List.of(flow(0, 0, 1_000_000, 1, 0, 80_000), flow(1, 0, 5_000, 1, 0, 400), flow(2, 0, 5_000, 1, 0, 1200),
                flow(3, 0, 5_000, 1, 0, -1));
        BarGroup g = FlowMetrics.slowdownBySize("s", fl, 100, 0);
        assertThat(g.bars()).hasSize(2);
        assertThat(g.bars().get(0).category()).isEqualTo("1KB-10KB");
        assertThat(g.bars().get(0).mean()).isCloseTo(2.0, within(1e-9)); // (1 + 3) / 2; the unfinished flow is left out
        assertThat(g.bars().get(1).category()).isEqualTo("1MB-10MB");
        assertThat(g.bars().get(1).mean()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void cdfEndsAtOneAndKeepsTheLargestFct() {
        List<FlowRecord> fl = new ArrayList<>();
        for (int i = 0; i < 1000; i++) fl.add(flow(i, 0, 1, 1, 0, 1000 + i));
        Series s = FlowMetrics.fctCdf("s", fl, 50);
        assertThat(s.size()).isEqualTo(50);
        assertThat(s.y()[49]).isEqualTo(1.0);
        assertThat(s.x()[49]).isEqualTo(1.999); // 1999 ns
        assertThat(s.x()[0]).isEqualTo(1.0);
        for (int i = 1; i < 50; i++) assertThat(s.y()[i]).isGreaterThan(s.y()[i - 1]);
    }

    @Test
    void qpsFromFlowsNeverExceedTheSimulatorsOwnCount() {
        // QPs live from flow start until their last ACK, a little past the flow's finish
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
                load_balancer: {scheme: mprdma}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 200000}
                """);
        int fromFlows = FlowMetrics.maxQpsPerNic(r.flows()).values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertThat(fromFlows).isBetween(2, r.maxQpsPerNic());
    }
}

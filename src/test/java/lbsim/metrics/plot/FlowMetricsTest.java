package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import lbsim.metrics.ThroughputSeries;
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
    void throughputSeriesBecomesAChartSeriesAtIntervalMidpoints() {
        Series s = FlowMetrics.throughput("x", new ThroughputSeries(5000, new double[] {100, 400, 0}));
        assertThat(s.x()).containsExactly(2.5, 7.5, 12.5);
        assertThat(s.y()).containsExactly(100, 400, 0);
    }

    @Test
    void aLongThroughputSeriesIsAveragedDownForTheChart() {
        double[] g = new double[250_001];
        for (int i = 0; i < g.length; i++) g[i] = i % 2 == 0 ? 100 : 300;
        Series s = FlowMetrics.throughput("x", new ThroughputSeries(10_000, g));
        assertThat(s.size()).isLessThanOrEqualTo(FlowMetrics.MAX_THROUGHPUT_POINTS);
        double area = 0;
        int group = (g.length + FlowMetrics.MAX_THROUGHPUT_POINTS - 1) / FlowMetrics.MAX_THROUGHPUT_POINTS;
        for (int i = 0; i < s.size(); i++) area += s.y()[i] * Math.min(group, g.length - i * group);
        assertThat(area / g.length).isCloseTo(200, within(0.01));
    }

    @Test
    void qpHistogramCountsNicsThatOpenedQps() {
        BarGroup h = FlowMetrics.qpHistogram("s", new int[] {2, 2, 0, 32});
        assertThat(h.bars()).containsExactly(new Bar("2", 2, 0), new Bar("32", 1, 0));
    }

    @Test
    void slowdownBinsAverageTheFlowsOwnSlowdownsAndSkipFlowsWithout() {
        List<FlowRecord> fl = List.of(slowed(0, 1_000_000, 1.0), slowed(1, 5_000, 1.0), slowed(2, 5_000, 3.0),
                slowed(3, 5_000, Double.NaN));
        BarGroup g = FlowMetrics.slowdownBySize("s", fl);
        assertThat(g.bars()).hasSize(2);
        assertThat(g.bars().get(0).category()).startsWith("1KB-10KB (n=");
        assertThat(g.bars().get(0).mean()).isCloseTo(2.0, within(1e-9));
        assertThat(g.bars().get(1).category()).startsWith("1MB-10MB (n=");
        assertThat(g.bars().get(1).mean()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void slowdownBinsCountTheirFlowsAndTheLowerWhiskerStopsAtTheSmallestSlowdown() {
        // one flow far above the rest: mean - sd would be below 1 (and below 0), which no flow has
        List<FlowRecord> fl = new ArrayList<>();
        for (int i = 0; i < 9; i++) fl.add(slowed(i, 5000, 1.0));
        fl.add(slowed(9, 5000, 30.0));
        Bar b = FlowMetrics.slowdownBySize("s", fl).bars().get(0);
        assertThat(b.category()).isEqualTo("1KB-10KB (n=10)");
        assertThat(b.mean()).isCloseTo(3.9, within(1e-9));
        assertThat(b.mean() - b.sd()).isCloseTo(1.0, within(1e-9));
    }

    private static FlowRecord slowed(int id, long size, double slowdown) {
        return new FlowRecord(id, 0, 1, size, 0, 1, 0, 1000, 1000, 0, 0, 0, "", slowdown);
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
    void aRealRunReportsEveryNicsQpsAndAnIdleFlowHasSlowdownOne() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
                load_balancer: {scheme: mprdma}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 200000}
                """);
        assertThat(r.maxQpsByNic()).hasSize(8);
        assertThat(java.util.Arrays.stream(r.maxQpsByNic()).max().orElseThrow()).isEqualTo(r.maxQpsPerNic());
        int nics = FlowMetrics.qpHistogram("s", r.maxQpsByNic()).bars().stream().mapToInt(b -> (int) b.mean()).sum();
        assertThat(nics).isEqualTo(8);
        RunResult lone = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1}
                transport: {init_cwnd_bytes: 100000000}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 1000000}]}
                """);
        assertThat(lone.flows().get(0).slowdown()).isCloseTo(1.0, within(1e-3));
    }
}

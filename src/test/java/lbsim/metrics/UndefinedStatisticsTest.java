package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/**
 * A run in which no flow finishes has no FCT, slowdown or completion statistics: summary.json
 * gives them as null (like cct_ns and normalised), never as 0, which would read as "instant".
 */
class UndefinedStatisticsTest {
    /** Every uplink of the source's leaf is down from t = 0: nothing leaves the rack. */
    static final String STRANDED = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            max_time_ms: 5
            workload: {kind: flows, flows: [{src: 0, dst: 3, size_bytes: 20000}]}
            failures: [{at_us: 0, link: "leaf0-spine*", kind: down, detect_ms: 0}]
            """;

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void noFinishedFlowGivesNullFctStatisticsAndCompletion() {
        RunResult r = Scenarios.run(STRANDED);
        assertThat(r.completed()).isFalse();
        assertThat(r.fct().isEmpty()).isTrue();
        Map<String, Object> s = ResultWriter.summary(r);
        assertThat(s.get("cct_ns")).isNull();
        assertThat(s.get("normalised")).isNull();
        Map<String, Object> flows = map(s.get("flows"));
        assertThat(flows.get("count")).isEqualTo(1);
        Map<String, Object> fct = map(flows.get("fct_ns"));
        assertThat(fct).containsOnlyKeys("mean", "p50", "p99", "max");
        assertThat(fct.values()).containsOnlyNulls();
        // what the run did observe stays defined
        assertThat((long) flows.get("max_lost_packets")).isPositive();
        assertThat(ResultWriter.summaryJson(r)).doesNotContain("NaN");
    }

    @Test
    void anOpenLoopRunWithNoFinishedFlowHasNullSlowdownsAndNoBins() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1}
                max_time_ms: 0.05
                workload: {kind: open-loop, distribution: hadoop, load: 0.5, duration_us: 200}
                failures: [{at_us: 0, link: "leaf*-spine*", kind: down, detect_ms: 0}]
                """);
        assertThat(r.flows()).isNotEmpty();
        assertThat(r.finishedFlows()).isZero();
        Map<String, Object> flows = map(ResultWriter.summary(r).get("flows"));
        Map<String, Object> slowdown = map(flows.get("slowdown"));
        assertThat(slowdown).containsOnlyKeys("mean", "p99");
        assertThat(slowdown.values()).containsOnlyNulls();
        assertThat((List<?>) flows.get("slowdown_bins")).isEmpty();
        assertThat(map(flows.get("fct_ns")).values()).containsOnlyNulls();
    }

    @Test
    void anUnfinishedCollectiveHasNullCctsBandwidthsAndFcts() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1}
                max_time_ms: 1
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 40000}
                failures: [{at_us: 0, link: "leaf*-spine*", kind: down, detect_ms: 0}]
                """);
        Map<String, Object> s = ResultWriter.summary(r);
        assertThat(s.get("cct_ns")).isNull();
        assertThat(s.get("normalised")).isNull();
        for (Object c : (List<?>) s.get("collectives")) {
            assertThat(map(c).get("cct_ns")).isNull();
            assertThat(map(c).get("algbw_gbps")).isNull();
            assertThat(map(c).get("busbw_gbps")).isNull();
        }
        Map<String, Object> mean = map(s.get("collectives_mean"));
        assertThat(mean.get("cct_ns")).isNull();
        assertThat(mean.get("algbw_gbps")).isNull();
        assertThat(map(map(s.get("flows")).get("fct_ns")).values()).containsOnlyNulls();
        assertThat(ResultWriter.summaryJson(r)).doesNotContain("NaN");
    }

    @Test
    void aPartlyFinishedRunReportsTheFinishedFlowsStatistics() {
        RunResult r = Scenarios.run(STRANDED.replace("size_bytes: 20000}]", "size_bytes: 20000}, {src: 0, dst: 1, size_bytes: 20000}]"));
        assertThat(r.completed()).isFalse();
        assertThat(r.finishedFlows()).isEqualTo(1);
        Map<String, Object> fct = map(map(ResultWriter.summary(r).get("flows")).get("fct_ns"));
        assertThat((long) fct.get("p50")).isEqualTo(Math.round(r.flows().get(1).fctNs()));
        assertThat(fct.get("mean")).isNotNull();
        assertThat(ResultWriter.summary(r).get("normalised")).isNull(); // no completion while a flow is missing
    }

    @Test
    void emptySamplesHaveUndefinedStatistics() {
        Stats s = Stats.of(new long[0]);
        assertThat(s.isEmpty()).isTrue();
        assertThat(s.mean()).isNaN();
        assertThat(Stats.of(new long[] {5}).isEmpty()).isFalse();
        Slowdown sd = Slowdown.of(new long[] {100, 200}, new double[] {Double.NaN, Double.NaN});
        assertThat(sd.count()).isZero();
        assertThat(sd.mean()).isNaN();
        assertThat(sd.p99()).isNaN();
        assertThat(sd.bins()).isEmpty();
    }
}

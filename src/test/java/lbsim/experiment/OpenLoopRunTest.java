package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.metrics.Slowdown;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Open-loop traffic end to end: slowdowns in summary.json and flows.csv. */
class OpenLoopRunTest {
    static final String SCENARIO = """
            name: ol
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: open-loop, distribution: alicloud, load: 0.3, duration_us: 100}
            """;

    @Test
    void slowdownsAreReportedAndNoFlowBeatsItsIdleTime(@TempDir Path dir) throws Exception {
        RunResult r = Scenarios.run(SCENARIO);
        Scenarios.assertConserved(r);
        assertThat(r.cctNs()).isNull();
        assertThat(r.flows().size()).isBetween(40, 120); // 8 hosts x ~9 expected arrivals
        Slowdown sd = r.slowdown();
        assertThat(sd).isNotNull();
        assertThat(sd.count()).isEqualTo(r.flows().size());
        for (FlowRecord f : r.flows()) assertThat(f.slowdown()).as("flow %d", f.id()).isGreaterThanOrEqualTo(1.0 - 1e-6);
        assertThat(sd.mean()).isGreaterThanOrEqualTo(1.0);
        assertThat(sd.p99()).isGreaterThanOrEqualTo(sd.mean());
        // the bins partition the flows and their means are the flows' means
        int total = 0;
        for (Slowdown.Bin b : sd.bins()) {
            total += b.count();
            double sum = 0;
            int n = 0;
            for (FlowRecord f : r.flows()) {
                if (f.sizeBytes() >= b.minBytes() && (b.maxBytes() < 0 || f.sizeBytes() < b.maxBytes())) {
                    sum += f.slowdown();
                    n++;
                }
            }
            assertThat(b.count()).isEqualTo(n);
            assertThat(b.mean()).isCloseTo(sum / n, within(1e-9));
        }
        assertThat(total).isEqualTo(sd.count());

        @SuppressWarnings("unchecked")
        Map<String, Object> flows = (Map<String, Object>) ResultWriter.summary(r).get("flows");
        assertThat(flows).containsKeys("slowdown", "slowdown_bins");
        assertThat((Map<String, Object>) flows.get("slowdown")).containsOnlyKeys("mean", "p99");
        ResultWriter.write(r, dir);
        List<String> lines = Files.readAllLines(dir.resolve("flows.csv"));
        assertThat(lines.get(0)).endsWith(",slowdown");
        assertThat(lines).hasSize(1 + r.flows().size());
        assertThat(Double.parseDouble(lines.get(1).substring(lines.get(1).lastIndexOf(',') + 1)))
                .isCloseTo(r.flows().get(0).slowdown(), within(1e-4));
    }

    /** With schemes that split, pace or spray, too: each flow's reference is how that scheme sends it alone. */
    @ParameterizedTest
    @ValueSource(strings = {"dnlb", "subflows", "mprdma", "ethereal", "paralet", "spray-host", "reps"})
    void noFlowBeatsItsIdleTimeUnderAnyScheme(String scheme) {
        // a sprayed flow to the in-order RoCE receiver can wait on a timer: 1 ms, not the 4.3 s local ACK timeout
        RunResult r = Scenarios.run(SCENARIO, "load_balancer.scheme=" + scheme, "transport.timeout_us=1000");
        Scenarios.assertConserved(r);
        for (FlowRecord f : r.flows()) assertThat(f.slowdown()).as("%s flow %d", scheme, f.id()).isGreaterThanOrEqualTo(1.0 - 1e-9);
        assertThat(r.slowdown().mean()).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void atVeryLowLoadFlowsRunAtTheirIdleTime() {
        RunResult r = Scenarios.run(SCENARIO, "workload.load=0.002", "workload.duration_us=3000");
        Scenarios.assertConserved(r);
        assertThat(r.flows().size()).isBetween(2, 40);
        assertThat(r.slowdown().mean()).isBetween(1.0, 1.01);
    }

    @Test
    void sameSeedSameFlowsOtherSeedOtherFlows() {
        String a = ResultWriter.summary(Scenarios.run(SCENARIO)).toString().replaceAll("wall_ms=\\d+", "");
        String b = ResultWriter.summary(Scenarios.run(SCENARIO)).toString().replaceAll("wall_ms=\\d+", "");
        assertThat(a).isEqualTo(b);
        RunResult c = Scenarios.run(SCENARIO, "seed=2");
        RunResult d = Scenarios.run(SCENARIO);
        assertThat(c.flows().get(0).sizeBytes() != d.flows().get(0).sizeBytes()
                || c.flows().get(0).startNs() != d.flows().get(0).startNs()).isTrue();
    }

    @Test
    void interRackPairsCrossTheSpine() {
        RunResult r = Scenarios.run(SCENARIO, "workload.pairs=inter-rack");
        Scenarios.assertConserved(r);
        for (FlowRecord f : r.flows()) assertThat(f.src() / 4).isNotEqualTo(f.dst() / 4);
    }

    @Test
    void otherWorkloadsHaveNoSlowdownSummaryButPerFlowSlowdowns() {
        RunResult r = Scenarios.run(SCENARIO.replace("{kind: open-loop, distribution: alicloud, load: 0.3, duration_us: 100}",
                "{kind: permutation, size_bytes: 10000}"));
        assertThat(r.slowdown()).isNull();
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.slowdown()).isGreaterThanOrEqualTo(1.0 - 1e-9));
        assertThat(((Map<?, ?>) ResultWriter.summary(r).get("flows")).containsKey("slowdown")).isFalse();
    }
}

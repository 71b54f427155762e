package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** DCQCN reacts to CNPs: it keeps the bottleneck queue far below a non-reacting sender's and shares fairly. */
class DcqcnTest {
    private static final String INCAST = """
            name: dq
            topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 5, link_gbps: 100}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 20000000}, {src: 2, dst: 0, size_bytes: 20000000},
                       {src: 3, dst: 0, size_bytes: 20000000}, {src: 4, dst: 0, size_bytes: 20000000}]}
            """;

    private static RunResult run(String cc) {
        return run(cc, 1);
    }

    private static RunResult run(String cc, long seed) {
        return Runner.run(ScenarioLoader.parse("t", INCAST, null, List.of("transport.cc=" + cc, "seed=" + seed), null),
                Runner.Progress.NONE);
    }

    /** Shortest over longest FCT. */
    private static double fairness(RunResult r) {
        double min = r.flows().stream().mapToDouble(FlowRecord::fctNs).min().orElseThrow();
        double max = r.flows().stream().mapToDouble(FlowRecord::fctNs).max().orElseThrow();
        return min / max;
    }

    private static long bottleneckQueue(RunResult r) {
        return r.links().stream().filter(l -> l.from().equals("leaf0") && l.to().equals("h0"))
                .mapToLong(LinkRecord::maxQueueBytes).max().orElseThrow();
    }

    @Test
    void cnpsCutTheRateSoTheQueueStaysFarBelowFixedRateAndFlowsShareFairly() {
        RunResult dcqcn = run("dcqcn");
        RunResult fixed = run("fixed-rate");
        assertThat(dcqcn.completed()).isTrue();
        assertThat(dcqcn.ecnMarked()).isPositive();
        assertThat(bottleneckQueue(dcqcn)).isLessThan(bottleneckQueue(fixed) / 4);
        // DCQCN's 300 us increase timer converges slowly, so one seed's fairness varies (0.81-0.97 over seeds
        // 1-6): judge the mean of three
        double f2 = fairness(run("dcqcn", 2));
        double f3 = fairness(run("dcqcn", 3));
        assertThat((fairness(dcqcn) + f2 + f3) / 3).isGreaterThan(0.88);
        double max = dcqcn.flows().stream().mapToDouble(FlowRecord::fctNs).max().orElseThrow();
        // it must not collapse: the four flows finish within 1.5x of sharing the link perfectly
        assertThat(max).isLessThan(1.5 * 4 * 20_000_000 * 8 / 100e9 * 1e9);
    }
}

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
        return Runner.run(ScenarioLoader.parse("t", INCAST, null, List.of("transport.cc=" + cc), null), Runner.Progress.NONE);
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
        double min = dcqcn.flows().stream().mapToDouble(FlowRecord::fctNs).min().orElseThrow();
        double max = dcqcn.flows().stream().mapToDouble(FlowRecord::fctNs).max().orElseThrow();
        assertThat(min / max).isGreaterThan(0.9);
        // it must not collapse: the four flows finish within 1.5x of sharing the link perfectly
        assertThat(max).isLessThan(1.5 * 4 * 20_000_000 * 8 / 100e9 * 1e9);
    }
}

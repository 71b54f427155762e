package lbsim.workload;

import lbsim.BadInputException;

import lbsim.transport.FlowSpec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import lbsim.workload.collective.Collectives;
import org.junit.jupiter.api.Test;

/** Collectives driven end to end through the simulator. */
class CollectiveRunTest {
    private static final String FABRIC = """
            name: coll
            topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
            """;

    private static RunResult run(String... overrides) {
        Scenario sc = ScenarioLoader.parse("test", FABRIC, null, List.of(overrides), null);
        return Runner.run(sc, Runner.Progress.NONE);
    }

    @Test
    void ringAllReduceOnANonBlockingFabricIsWithinFivePercentOfTheBandwidthBound() {
        long size = 64L << 20;
        RunResult r = run("workload.size_bytes=" + size);
        int n = 16;
        double bandwidthBoundNs = 2.0 * (n - 1) / n * size * 8 / 100e9 * 1e9;
        assertThat(r.cctNs()).isNotNull();
        assertThat((double) r.cctNs()).isBetween(bandwidthBoundNs, 1.05 * bandwidthBoundNs);
    }

    @Test
    void allToAllWithSprayingIsWithinFivePercentOfItsBound() {
        long size = 16L << 20;
        RunResult r = run("workload.op=all-to-all", "workload.algorithm=direct", "workload.size_bytes=" + size,
                "load_balancer.scheme=spray-switch");
        int n = 16;
        double boundNs = (double) (n - 1) / n * size * 8 / 100e9 * 1e9;
        assertThat((double) r.cctNs()).isBetween(boundNs, 1.05 * boundNs);
    }

    @Test
    void everyOpAndAlgorithmRunsFromAScenarioAndNoFlowStartsBeforeItsInputsArrive() {
        for (String op : Collectives.OPS) {
            for (String alg : Collectives.algorithmsFor(op)) {
                String[] ov = {"workload.op=" + op, "workload.algorithm=" + alg, "workload.size_bytes=262144"};
                RunResult r = run(ov);
                assertThat(r.completed()).as(op + "/" + alg).isTrue();
                assertThat(r.cctNs()).as(op + "/" + alg).isPositive();
                Scenario sc = ScenarioLoader.parse("test", FABRIC, null, List.of(ov), null);
                FlowGraph g = sc.workload().build(16, new SplittableRandom(0));
                assertThat(g.size()).isEqualTo(r.flows().size());
                double lastFinish = 0;
                for (FlowSpec f : g.flows()) {
                    FlowRecord rec = r.flows().get(f.id());
                    for (int d : f.after()) {
                        assertThat(rec.startNs()).as(op + "/" + alg + " flow " + f.id())
                                .isGreaterThanOrEqualTo(r.flows().get(d).finishNs());
                    }
                    lastFinish = Math.max(lastFinish, rec.finishNs());
                }
                // completion is the last receive plus the tail (hierarchical: the intra-server all-gather),
                // measured from the issue at 0, which can be before the first flow starts
                double tailNs = g.timing(0).tailPs() / 1000.0;
                assertThat((double) r.cctNs()).as(op + "/" + alg).isCloseTo(lastFinish + tailNs, org.assertj.core.data.Offset.offset(1.0));
            }
        }
    }

    @Test
    void aTrainingIterationRunsAndReportsItsLargestCollective() {
        RunResult r = run("workload={kind: training, model: ethereal-gpt2, algorithm: ring}");
        assertThat(r.completed()).isTrue();
        assertThat(r.cctNs()).isPositive();
        // collectives are chained with compute gaps, so the iteration outlasts its largest collective
        assertThat(r.lastFinishNs()).isGreaterThan(r.cctNs());
    }

    @Test
    void theLlamaPresetRefusesAFabricWithTooFewGpus() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run("workload={kind: training, model: ctccl-llama2-7b}"))
                .isInstanceOf(lbsim.BadInputException.class).hasMessageContaining("workload");
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ideal_cct_ns is a lower bound: no run, however latency-bound, finishes below it. */
class IdealBoundTest {
    @Test
    void aLatencyBoundRingInsideRacksStaysAboveItsIdeal() {
        // 16 hosts on 2 leaves: 14 of the 16 ring hops stay inside a rack
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
                """);
        Scenarios.assertConserved(r);
        assertThat(r.cctNs()).isGreaterThanOrEqualTo(r.idealCctNs());
        assertThat(r.normalised()).isLessThan(1.5); // and still a useful bound, not a trivial one
    }

    @Test
    void rackLocalFlowsAreBoundedByTheirOwnShortPath() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 4096}]}
                """);
        assertThat(r.lastFinishNs()).isGreaterThanOrEqualTo(r.idealCctNs());
    }

    /** The audit's case: cct_ns (the largest collective) over a whole-iteration bound gave 0.095. */
    @Test
    void theTrainingExampleIsAtLeastItsIdeal() {
        RunResult r = Runner.run(ScenarioLoader.load(Path.of("examples/training-gpt2-leafspine.yaml"), List.of(), null),
                Runner.Progress.NONE);
        Scenarios.assertConserved(r);
        assertThat(r.normalised()).isGreaterThanOrEqualTo(1.0);
        assertThat(r.idealCctNs()).isLessThanOrEqualTo(r.cctNs());
    }

    /** Training iterations of 8 GPUs: each largest-collective completion stays above its bound, whatever the scheme. */
    @ParameterizedTest
    @CsvSource({"ring, ecmp", "recursive-doubling, spray-host", "ring, ethereal"})
    void trainingIsAtLeastItsIdeal(String algorithm, String scheme) {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 400, link_latency_ns: 500}
                transport: {cc: dctcp, pfc: true}
                workload: {kind: training, model: ethereal-gpt2, ranks: 8}
                """, "workload.algorithm=" + algorithm, "load_balancer.scheme=" + scheme);
        Scenarios.assertConserved(r);
        assertThat(r.normalised()).as("%s / %s", algorithm, scheme).isGreaterThanOrEqualTo(1.0);
    }
}

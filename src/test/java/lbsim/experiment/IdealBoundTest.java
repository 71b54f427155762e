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

    /** Open-loop: the bound counts the arrival window (it used to be the busiest host's bytes alone, below the last arrival). */
    @Test
    void openLoopIdealCoversTheLastArrival() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
                workload: {kind: open-loop, distribution: hadoop, load: 0.3, duration_us: 500}
                """);
        Scenarios.assertConserved(r);
        double lastStart = r.flows().stream().mapToDouble(f -> f.startNs()).max().orElseThrow();
        assertThat((double) r.idealCctNs()).isGreaterThan(lastStart);
        assertThat(r.normalised()).isGreaterThanOrEqualTo(1.0);
    }

    /** A flow that starts late: its start plus its own wire time and latency, not its bytes alone. */
    @Test
    void aLateFlowIsBoundedFromItsStart() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 100000}, {src: 0, dst: 3, size_bytes: 4096, start_ns: 50000}]}
                """);
        Scenarios.assertConserved(r);
        // 4096 B + one 64 B header at 100 Gbit/s = 332.8 ns, plus 4 x 1 us across the spine
        assertThat(r.idealCctNs()).isEqualTo(50000 + 333 + 4000);
        assertThat(r.lastFinishNs()).isGreaterThanOrEqualTo(r.idealCctNs());
    }
}

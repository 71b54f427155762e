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
                transport: {cc: dctcp, pfc: true, timeout_us: 1000}
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

    /** The audit's case: host 0 at 10G gave every NIC 10G (ideal 3.2 ms against a CCT of 0.81 ms); now each NIC its own rate. */
    @Test
    void eachNicCountsAtItsOwnRate() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000,
                           link_overrides: [{links: "h0-leaf0", gbps: 10}]}
                workload: {kind: collective, op: broadcast, algorithm: direct, size_bytes: 1000000, root: 3, ranks: 5}
                """);
        Scenarios.assertConserved(r);
        assertThat(r.normalised()).isGreaterThanOrEqualTo(1.0);
        // still tight: host 0 receives 1 MB at 10 Gbit/s
        assertThat(r.idealCctNs()).isGreaterThanOrEqualTo(800_000);
    }

    /** A fast host 0 gave every job its 400G; a job without host 0 is bounded at its own NICs' 100G. */
    @Test
    void aJobIsBoundedByItsOwnNicsNotHostZeros() {
        String yaml = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1000000, ranks: 4, jobs: 2}
                """;
        RunResult fastZero = Scenarios.run(yaml, "topology.link_overrides=[{links: h0-leaf0, gbps: 400}]");
        RunResult uniform = Scenarios.run(yaml);
        assertThat(fastZero.collectives().get(1).idealNs()).isEqualTo(uniform.collectives().get(1).idealNs());
        for (var c : fastZero.collectives()) assertThat(c.cctNs()).isGreaterThanOrEqualTo(c.idealNs());
    }

    /** Butterfly all-reduce with fewer bytes than blocks: empty steps emit no flow, so the bound counts only the steps that carry bytes. */
    @ParameterizedTest
    @CsvSource({"recursive-doubling, 3, 1, 1", "recursive-doubling, 5, 1, 1", "recursive-doubling, 6, 1, 1", "halving-doubling, 7, 1, 1",
            "recursive-doubling, 5, 3, 8"})
    void tinyFoldedButterfliesStayAboveTheirBound(String alg, int ranks, long size, int channels) {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: collective, op: all-reduce}
                """, "workload.algorithm=" + alg, "workload.ranks=" + ranks, "workload.size_bytes=" + size, "workload.channels=" + channels);
        Scenarios.assertConserved(r);
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

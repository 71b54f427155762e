package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.metrics.RunResult;
import lbsim.workload.chakra.TraceWriter;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Chakra traces run end to end: against the same collective given as a scenario, and against the ring's analytic time. */
class ChakraRunTest {
    static final Path REFERENCE = Path.of("../shared/reference/chakra-traces");
    static final double GBPS = 100;
    static final long LAT_NS = 1000;
    static final int MTU = 4096;
    static final int HDR = 64;

    /** A non-blocking fabric: 2 leaves of 8 hosts, 8 spines, 100G links. */
    static String scenario(String workload) {
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 8, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096}
                transport: {cc: dctcp, header_bytes: 64}
                load_balancer: {scheme: ecmp}
                workload: %s
                max_time_ms: 50
                """.formatted(workload);
    }

    static RunResult runTrace(Path prefix, String extra) {
        return Scenarios.run(scenario("{kind: chakra, trace: '" + prefix + "'" + extra + "}"));
    }

    @ParameterizedTest(name = "{0} x{1} {2} B {3}")
    @CsvSource({
            "ALL_REDUCE, 8, 1048576, all-reduce, ring",
            "ALL_REDUCE, 16, 1000000, all-reduce, double-binary-tree",
            "ALL_GATHER, 16, 1048576, all-gather, ring",
            "REDUCE_SCATTER, 4, 1048576, reduce-scatter, halving-doubling",
            "ALL_TO_ALL, 8, 1048576, all-to-all, direct",
            "BROADCAST, 6, 300000, broadcast, ring",
    })
    void aSingleCollectiveTraceCompletesAsTheSameCollectiveScenario(CollectiveKind kind, int ranks, long bytes, String op, String alg,
                                                                     @TempDir Path dir) {
        Path prefix = TraceWriter.singleCollective(ranks, kind, bytes).write(dir, "one");
        RunResult trace = runTrace(prefix, ", algorithm: " + alg);
        RunResult direct = Scenarios.run(scenario("{kind: collective, op: " + op + ", algorithm: " + alg + ", size_bytes: " + bytes
                + ", ranks: " + ranks + "}"));
        Scenarios.assertConserved(trace);
        assertThat(trace.cctNs()).isPositive().isEqualTo(direct.cctNs());
        assertThat(trace.collectives()).hasSize(1);
        assertThat(trace.collectives().get(0).cctNs()).isEqualTo(direct.collectives().get(0).cctNs());
        assertThat(trace.packetsDelivered()).isEqualTo(direct.packetsDelivered());
    }

    /** ASTRA-sim's single-collective examples (../shared, skipped without it): the same completion as the scenario. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "all_reduce_8npus_1MB, all-reduce, 8",
            "all_to_all_8npus_1MB, all-to-all, 8",
            "all_gather_16npus_1MB, all-gather, 16",
            "reduce_scatter_4npus_1MB, reduce-scatter, 4",
    })
    void astraSimSingleCollectiveTracesCompleteAsTheCollectiveScenario(String folder, String op, int ranks) {
        Path dir = REFERENCE.resolve(folder);
        Assumptions.assumeTrue(Files.isDirectory(dir), "../shared/reference/chakra-traces is absent");
        RunResult trace = Scenarios.run(scenario("{kind: chakra, trace: '" + dir + "'}"));
        RunResult direct = Scenarios.run(scenario("{kind: collective, op: " + op + ", algorithm: "
                + (op.equals("all-to-all") ? "direct" : "ring") + ", size_bytes: 1048576, ranks: " + ranks + "}"));
        Scenarios.assertConserved(trace);
        assertThat(trace.collectives()).singleElement().satisfies(c -> assertThat(c.ranks()).isEqualTo(ranks));
        assertThat(trace.cctNs()).isPositive().isEqualTo(direct.cctNs());
    }

    /**
     * A ring all-reduce of S bytes over n ranks lowered to sends and receives, ranks on one leaf
     * (every transfer host -> leaf -> host, 2 hops, each NIC sending one flow and receiving one):
     * 2(n-1) steps run one after the other, each a lone flow of c = S/n bytes, and the first n-1
     * receives are each followed by a reduction of R us. A lone flow of c bytes in P = ceil(c/MTU)
     * full packets takes P ser(MTU + header) + ser(MTU + header) (store-and-forward at the leaf)
     * + 2 latencies (LoneFlowTest), so
     * <pre>T = 2(n-1) [ (P + 1) (MTU + H) 8 / B + 2 L ] + (n-1) R</pre>
     * Every host also acknowledges the flow it receives on the NIC its own flow leaves by: each of
     * the P ACKs (64 B) can hold back one data packet by its serialisation, so the simulated time
     * is T at least and T + 2(n-1) P ser(ACK) at most.
     */
    static double ringNs(int n, long bytes, long reduceUs) {
        long c = bytes / n;
        long packets = (c + MTU - 1) / MTU;
        assertThat(c % MTU).as("whole packets keep the formula short").isZero();
        double step = (packets + 1) * (MTU + HDR) * 8 / GBPS + 2 * LAT_NS;
        return 2 * (n - 1) * step + (n - 1) * reduceUs * 1000.0;
    }

    static void assertRingTime(long cctNs, int n, long bytes, long reduceUs) {
        double t = ringNs(n, bytes, reduceUs);
        long packets = bytes / n / MTU;
        double ackNs = 64 * 8 / GBPS;
        assertThat((double) cctNs).isBetween(t - 1, t + 2 * (n - 1) * packets * ackNs + 1);
    }

    @Test
    void aLoweredRingAllReduceTakesTheRingsAnalyticTime(@TempDir Path dir) {
        Path prefix = TraceWriter.loweredRing(8, 1 << 20, 7).write(dir, "ring");
        RunResult r = runTrace(prefix, "");
        Scenarios.assertConserved(r);
        assertThat(r.flows()).hasSize(8 * 14);
        assertRingTime(r.cctNs(), 8, 1 << 20, 7);
    }

    /** ASTRA-sim's ring all-reduce lowered to send/receive nodes (8 ranks, 1 MiB, 7 us reductions): the ring's analytic time. */
    @Test
    void astraSimLoweredRingTakesTheRingsAnalyticTime() {
        Path dir = REFERENCE.resolve("custom_collectives_custom_ring_allreduce_8npus_1MB");
        Assumptions.assumeTrue(Files.isDirectory(dir), "../shared/reference/chakra-traces is absent");
        RunResult r = Scenarios.run(scenario("{kind: chakra, trace: '" + dir.resolve("custom_allreduce") + "'}"));
        Scenarios.assertConserved(r);
        assertThat(r.flows()).hasSize(8 * 14);
        assertRingTime(r.cctNs(), 8, 1 << 20, 7);
    }

    @Test
    void theRingExampleTakesTheRingsAnalyticTime() {
        RunResult r = Runner.run(ScenarioLoader.load(Path.of("examples/chakra/ring-allreduce.yaml"), java.util.List.of(), null),
                Runner.Progress.NONE);
        Scenarios.assertConserved(r);
        assertRingTime(r.cctNs(), 8, 1 << 20, 7);
    }

    /**
     * The data-parallel step example: bucket 2 is issued after forward + backward of the last layers
     * (350 us); bucket 1 after the first layers' backward (500 us) and, by its control dependency,
     * after bucket 2 has finished; the optimizer waits for both.
     */
    @Test
    void theDataParallelExampleHonoursItsDependencies() {
        RunResult r = Runner.run(ScenarioLoader.load(Path.of("examples/chakra/dp-step.yaml"), java.util.List.of(), null),
                Runner.Progress.NONE);
        Scenarios.assertConserved(r);
        assertThat(r.collectives()).extracting(c -> c.sizeBytes()).containsExactly(32L << 20, 16L << 20);
        double firstStart2 = r.flows().stream().filter(f -> f.group() == 0).mapToDouble(f -> f.startNs()).min().orElseThrow();
        double lastEnd2 = r.flows().stream().filter(f -> f.group() == 0).mapToDouble(f -> f.finishNs()).max().orElseThrow();
        double firstStart1 = r.flows().stream().filter(f -> f.group() == 1).mapToDouble(f -> f.startNs()).min().orElseThrow();
        assertThat(firstStart2).isEqualTo(350_000.0);
        assertThat(lastEnd2).isGreaterThan(500_000.0);
        assertThat(firstStart1).isGreaterThanOrEqualTo(lastEnd2);
        assertThat(r.collectives().get(0).cctNs()).isEqualTo(Math.round(lastEnd2 - 350_000.0));
    }
}

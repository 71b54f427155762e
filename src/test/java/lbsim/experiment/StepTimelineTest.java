package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.metrics.CollectiveResult;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.metrics.StepTimeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** metrics.steps: each collective's timeline per step and rank (steps.csv), checked against the algorithm and the flows. */
class StepTimelineTest {
    private static final String FABRIC = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: dctcp, pfc: true}
            """;
    private static final long SIZE = 1 << 20;

    private static RunResult run(String op, String algorithm, String extra, String... overrides) {
        return Scenarios.run(FABRIC + "workload: {kind: collective, op: " + op + ", algorithm: " + algorithm + ", size_bytes: " + SIZE
                + extra + "}\nmetrics: {steps: true}\n", overrides);
    }

    /** Unpipelined ring all-reduce on 8 hosts: 14 steps x 8 ranks, S bytes a step, a step forwards what the previous one brought. */
    @Test
    void aRingAllReducesStepsFollowTheRing() {
        RunResult r = run("all-reduce", "ring", ", chunk_bytes: " + SIZE);
        Scenarios.assertConserved(r);
        int n = 8, steps = 2 * (n - 1);
        List<StepTimeline.Row> rows = r.steps().rows();
        assertThat(rows).hasSize(steps * n);
        Map<Integer, StepTimeline.Row> at = new HashMap<>();
        long[] perStep = new long[steps];
        for (StepTimeline.Row row : rows) {
            at.put(row.step() * n + row.rank(), row);
            perStep[row.step()] += row.bytes();
            assertThat(row.stepName()).isEqualTo("s" + row.step());
            assertThat(row.host()).isEqualTo(row.rank());   // contiguous placement: rank r on host r
        }
        // every ring step moves the whole buffer once round the ring: the n blocks partition S
        for (long b : perStep) assertThat(b).isEqualTo(SIZE);
        for (int t = 0; t + 1 < steps; t++) {
            for (int rank = 0; rank < n; rank++) {
                StepTimeline.Row next = at.get((t + 1) * n + rank), arrived = at.get(t * n + Math.floorMod(rank - 1, n));
                assertThat(next.startNs()).as("rank %d step %d starts after step %d's block from rank %d arrived", rank, t + 1, t,
                        Math.floorMod(rank - 1, n)).isGreaterThanOrEqualTo(arrived.endNs());
            }
        }
        endsAtTheCct(r);
    }

    /** Halving-doubling exchanges as MPI_Sendrecv: a rank's step starts once its previous send and receive are both delivered. */
    @Test
    void aHalvingDoublingStepStartsAfterTheRanksPreviousStep() {
        RunResult r = run("all-reduce", "halving-doubling", ", chunk_bytes: " + SIZE);
        Scenarios.assertConserved(r);
        int n = 8, steps = 6;   // log2(8) reduce-scatter steps, then as many all-gather steps
        assertThat(r.steps().rows()).hasSize(steps * n);
        Map<Integer, StepTimeline.Row> at = new HashMap<>();
        for (StepTimeline.Row row : r.steps().rows()) at.put(row.step() * n + row.rank(), row);
        for (int t = 0; t + 1 < steps; t++) {
            for (int rank = 0; rank < n; rank++) {
                assertThat(at.get((t + 1) * n + rank).startNs()).as("rank %d step %d", rank, t + 1)
                        .isGreaterThanOrEqualTo(at.get(t * n + rank).endNs());
            }
        }
        // reduce-scatter halves what each rank sends, all-gather doubles it back: per rank (S/2 + S/4 + S/8) x 2
        for (StepTimeline.Row row : r.steps().rows()) assertThat(row.bytes()).isEqualTo(SIZE >> (row.step() < 3 ? row.step() + 1 : steps - row.step()));
        endsAtTheCct(r);
    }

    /**
     * Any algorithm, pipelined and on several channels, hierarchical ranks included: the rows hold every
     * byte and flow of the collective, no more rows than flows, and the last end is the CCT.
     */
    @ParameterizedTest
    @CsvSource({"all-reduce, ring, 2", "all-reduce, double-binary-tree, 2", "all-to-all, direct, 1", "reduce-scatter, recursive-doubling, 1",
            "all-gather, hierarchical, 1", "broadcast, ring, 2"})
    void theRowsHoldEveryByteOfTheCollective(String op, String algorithm, int channels) {
        // hierarchical: servers of 8 ranks, so 16 hosts for two servers
        RunResult r = algorithm.equals("hierarchical")
                ? run(op, algorithm, ", channels: " + channels + ", chunk_bytes: 65536", "topology.hosts_per_leaf=8")
                : run(op, algorithm, ", channels: " + channels + ", chunk_bytes: 65536");
        Scenarios.assertConserved(r);
        long flowBytes = 0, rowBytes = 0, rowFlows = 0;
        for (FlowRecord f : r.flows()) flowBytes += f.group() == 0 ? f.sizeBytes() : 0;
        for (StepTimeline.Row row : r.steps().rows()) {
            rowBytes += row.bytes();
            rowFlows += row.flows();
            assertThat(row.endNs()).isGreaterThan(row.startNs());
            assertThat(row.rank()).isBetween(0, r.collectives().get(0).ranks() - 1);
            assertThat(row.host()).as("contiguous placement: rank r on host r").isEqualTo(row.rank());
        }
        assertThat(rowBytes).isEqualTo(flowBytes).isPositive();
        assertThat(rowFlows).isEqualTo(r.flows().size());
        assertThat(r.steps().rows().size()).isLessThanOrEqualTo(r.flows().size());
        if (algorithm.equals("hierarchical")) {
            // its intra-server all-gather follows the last fabric step, inside the CCT
            double last = r.steps().rows().stream().mapToDouble(StepTimeline.Row::endNs).max().orElseThrow();
            assertThat(last).isLessThan(r.cctNs());
        } else {
            endsAtTheCct(r);
        }
    }

    /** Two jobs at once: each job's rows hold its own flows' bytes, its ranks numbered within the job, and end at its CCT. */
    @Test
    void eachJobHasItsOwnRows() {
        RunResult r = run("all-reduce", "ring", ", jobs: 2");
        Scenarios.assertConserved(r);
        assertThat(r.collectives()).hasSize(2);
        for (CollectiveResult c : r.collectives()) {
            List<StepTimeline.Row> rows = r.steps().rows().stream().filter(x -> x.group() == c.group()).toList();
            long flowBytes = r.flows().stream().filter(f -> f.group() == c.group()).mapToLong(FlowRecord::sizeBytes).sum();
            assertThat(rows.stream().mapToLong(StepTimeline.Row::bytes).sum()).isEqualTo(flowBytes).isEqualTo(2L * (c.ranks() - 1) * SIZE);
            assertThat(rows).allSatisfy(x -> assertThat(x.rank()).isBetween(0, c.ranks() - 1));
            assertThat(rows).allSatisfy(x -> assertThat(x.collective()).startsWith("job " + c.group() + ": "));
            assertThat(Math.round(rows.stream().mapToDouble(StepTimeline.Row::endNs).max().orElseThrow())).isEqualTo(c.cctNs());
        }
    }

    /** A collective issued at 0 ends at its last delivery (no tail for these ops), as summary.json's cct_ns says. */
    private static void endsAtTheCct(RunResult r) {
        CollectiveResult c = r.collectives().get(0);
        double first = r.steps().rows().stream().mapToDouble(StepTimeline.Row::startNs).min().orElseThrow();
        double last = r.steps().rows().stream().mapToDouble(StepTimeline.Row::endNs).max().orElseThrow();
        assertThat(first).isGreaterThanOrEqualTo(0);
        assertThat(Math.round(last)).as("last step end vs cct_ns").isEqualTo(c.cctNs());
        assertThat(r.cctNs()).isEqualTo(c.cctNs());
    }

    /** Off by default: no steps.csv, and the resolved scenario does not mention the key (stored runs keep their hash). */
    @Test
    void offByDefaultAndAbsentFromTheResolvedScenario(@TempDir Path tmp) throws Exception {
        String sc = FABRIC + "workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 65536}\n";
        Scenario plain = Scenarios.parse(sc);
        assertThat(plain.metrics().steps()).isFalse();
        assertThat(ScenarioLoader.toYaml(plain.resolved())).doesNotContain("steps");
        RunResult off = Runner.run(plain, Runner.Progress.NONE);
        assertThat(off.steps()).isNull();
        ResultWriter.write(off, tmp.resolve("off"));
        assertThat(tmp.resolve("off/steps.csv")).doesNotExist();
        RunResult on = Scenarios.run(sc + "metrics: {steps: true}\n");
        ResultWriter.write(on, tmp.resolve("on"));
        assertThat(Files.readAllLines(tmp.resolve("on/steps.csv"))).hasSize(1 + on.steps().rows().size())
                .first().isEqualTo("group,collective,step,step_name,rank,host,start_ns,end_ns,bytes,flows");
        assertThat(on.cctNs()).as("the timeline only observes").isEqualTo(off.cctNs());
    }
}

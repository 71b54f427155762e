package lbsim.workload.chakra;

import static lbsim.workload.chakra.TraceWriter.collective;
import static lbsim.workload.chakra.TraceWriter.comp;
import static lbsim.workload.chakra.TraceWriter.recv;
import static lbsim.workload.chakra.TraceWriter.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lbsim.transport.FlowSpec;
import lbsim.workload.FlowGraph;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import lbsim.workload.collective.Placement;
import lbsim.workload.training.CollectiveOptions;
import org.junit.jupiter.api.Test;

/**
 * Random traces that cannot deadlock (every node waits only for nodes of events earlier in one
 * global order: its rank's previous node, sometimes an older one, and the data of its receive):
 * the lowering accepts them all, moves exactly the bytes of their transfers between the right
 * hosts, and runs every collective over all ranks.
 */
class RandomTraceTest {

    @Test
    void acyclicTracesLowerAndConserveTheirTransfers() {
        qt().withFixedSeed(5L).withExamples(60).forAll(longs().all(), integers().between(2, 6), integers().between(1, 40))
                .checkAssert((seed, ranks, events) -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    TraceWriter t = new TraceWriter(ranks);
                    List<List<Long>> ids = new ArrayList<>();
                    for (int r = 0; r < ranks; r++) ids.add(new ArrayList<>());
                    long[][] bytes = new long[ranks][ranks];
                    int collectives = 0;
                    for (int e = 0; e < events; e++) {
                        int kind = rnd.nextInt(10);
                        if (kind < 3) {
                            int r = rnd.nextInt(ranks);
                            ids.get(r).add(t.add(r, comp("c" + e, rnd.nextInt(20), deps(ids.get(r), rnd))));
                        } else if (kind < 9) {
                            int a = rnd.nextInt(ranks);
                            int b = (a + 1 + rnd.nextInt(ranks - 1)) % ranks;
                            long size = 1 + rnd.nextInt(50_000);
                            long tag = rnd.nextInt(2);
                            ids.get(a).add(t.add(a, send("s" + e, b, size, tag, deps(ids.get(a), rnd))));
                            ids.get(b).add(t.add(b, recv("r" + e, a, size, tag, deps(ids.get(b), rnd))));
                            bytes[a][b] += size;
                        } else {
                            long size = 1000 + rnd.nextInt(100_000);
                            for (int r = 0; r < ranks; r++) ids.get(r).add(t.add(r, collective("ar" + e, CollectiveKind.ALL_REDUCE, size, deps(ids.get(r), rnd))));
                            collectives++;
                        }
                    }
                    FlowGraph g = new FlowGraph();
                    ChakraWorkload.Result res;
                    try {
                        List<RankTrace> traces = new ArrayList<>();
                        for (int r = 0; r < ranks; r++) traces.add(TraceFiles.decode(Path.of("t." + r + ".et"), r, t.bytes(r)));
                        res = ChakraWorkload.append(g, traces, Placement.contiguous(ranks), "ring", CollectiveOptions.defaults());
                    } catch (TraceFormatException ex) {
                        throw new AssertionError(ex.getMessage(), ex);
                    }
                    assertThat(res.collectives()).hasSize(collectives).allSatisfy(c -> assertThat(c.ranks()).isEqualTo(ranks));
                    long[][] moved = new long[ranks][ranks];
                    for (FlowSpec f : g.flows()) if (g.groups().get(f.group()).equals("chakra send/recv")) moved[f.src()][f.dst()] += f.sizeBytes();
                    assertThat(moved).isDeepEqualTo(bytes);
                });
    }

    /** The rank's latest node (the usual chain), and now and then an older one too. */
    private static long[] deps(List<Long> rank, SplittableRandom rnd) {
        if (rank.isEmpty()) return new long[0];
        long last = rank.get(rank.size() - 1);
        if (rank.size() > 1 && rnd.nextBoolean()) return new long[] {last, rank.get(rnd.nextInt(rank.size() - 1))};
        return rnd.nextInt(5) == 0 ? new long[0] : new long[] {last};
    }
}

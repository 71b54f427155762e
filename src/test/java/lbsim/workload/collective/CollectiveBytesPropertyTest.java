package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import lbsim.workload.FlowGraph;
import org.junit.jupiter.api.Test;

/** Bytes sent and received per rank equal each algorithm's formula, for random n, S, channels, chunks and QPs. */
class CollectiveBytesPropertyTest {

    private static void check(String op, String alg, int n, long size, int channels, long chunk, int qps, boolean split, int root) {
        int[] hosts = Placement.contiguous(n, 3);
        FlowGraph g = new FlowGraph();
        CollectiveSpec spec = CollectiveSpec.builder(op, alg, size, hosts).channels(channels).chunkBytes(chunk)
                .qpsPerConnection(qps).splitDataOnQps(split).root(root).build();
        CollectiveHandle h = Collectives.emit(g, spec);
        GraphChecks.assertWellFormed(g, h);
        long[] sent = g.bytesSentPerHost(n + 3);
        long[] received = g.bytesReceivedPerHost(n + 3);
        ExpectedBytes e = ExpectedBytes.of(op, alg, n, size, channels, root);
        for (int r = 0; r < n; r++) {
            assertThat(sent[hosts[r]]).as("%s %s n=%d S=%d rank %d sent", op, alg, n, size, r).isEqualTo(e.sent[r]);
            assertThat(received[hosts[r]]).as("%s %s n=%d S=%d rank %d received", op, alg, n, size, r).isEqualTo(e.received[r]);
        }
    }

    private static long chunkFor(long size, int n, int divisor) {
        return divisor == 0 ? 0 : Math.max(1, size / ((long) n * divisor) + 1);
    }

    @Test
    void ringMatchesFormulasForEveryOp() {
        qt().withExamples(60).forAll(integers().between(2, 24), longs().between(1, 3_000_000), integers().between(1, 3), integers().between(0, 4))
                .checkAssert((n, size, ch, div) -> {
                    for (String op : new String[] {"all-reduce", "reduce-scatter", "all-gather", "broadcast", "reduce"}) {
                        check(op, "ring", n, size, ch, chunkFor(size, n, div), 0, true, n / 2);
                    }
                });
    }

    @Test
    void ringAllReduceSendsTwoNMinusOneOverNOfS() {
        qt().withExamples(80).forAll(integers().between(2, 40), longs().between(1, 50_000_000))
                .checkAssert((n, size) -> {
                    FlowGraph g = new FlowGraph();
                    Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", size, Placement.contiguous(n)).build());
                    long total = 0;
                    for (long s : g.bytesSentPerHost(n)) {
                        assertThat((double) s).isCloseTo(2.0 * (n - 1) / n * size, org.assertj.core.data.Offset.offset(2.0));
                        total += s;
                    }
                    assertThat(total).isEqualTo(2L * (n - 1) * size);
                });
    }

    @Test
    void doubleBinaryTreeMatchesFormula() {
        qt().withExamples(60).forAll(integers().between(2, 40), longs().between(1, 5_000_000), integers().between(1, 3), integers().between(0, 4))
                .checkAssert((n, size, ch, div) -> check("all-reduce", "double-binary-tree", n, size, ch, chunkFor(size, 2, div), 0, true, 0));
    }

    @Test
    void butterfliesMatchFormulasIncludingFoldedAllReduce() {
        qt().withExamples(60).forAll(integers().between(2, 40), longs().between(1, 3_000_000), integers().between(1, 2), integers().between(0, 3))
                .checkAssert((n, size, ch, div) -> {
                    for (String alg : new String[] {"halving-doubling", "recursive-doubling"}) {
                        check("all-reduce", alg, n, size, ch, chunkFor(size, 2, div), 0, true, 0);
                        int p = Integer.highestOneBit(n);
                        check("reduce-scatter", alg, p < 2 ? 2 : p, size, ch, chunkFor(size, 2, div), 0, true, 0);
                        check("all-gather", alg, p < 2 ? 2 : p, size, ch, chunkFor(size, 2, div), 0, true, 0);
                    }
                });
    }

    @Test
    void directMatchesFormulasForEveryOp() {
        qt().withExamples(40).forAll(integers().between(2, 20), longs().between(1, 2_000_000), integers().between(1, 2), integers().between(0, 3))
                .checkAssert((n, size, ch, div) -> {
                    for (String op : Collectives.OPS) {
                        if (Collectives.supports(op, "direct")) check(op, "direct", n, size, ch, chunkFor(size, n, div), 0, true, n - 1);
                    }
                });
    }

    @Test
    void allToAllSendsNMinusOneOverNOfS() {
        qt().withExamples(60).forAll(integers().between(2, 30), longs().between(1, 50_000_000))
                .checkAssert((n, size) -> {
                    FlowGraph g = new FlowGraph();
                    Collectives.emit(g, CollectiveSpec.builder("all-to-all", "direct", size, Placement.contiguous(n)).build());
                    for (long s : g.bytesSentPerHost(n)) {
                        assertThat((double) s).isCloseTo((double) (n - 1) / n * size, org.assertj.core.data.Offset.offset(1.0));
                    }
                });
    }

    @Test
    void qpRoundRobinAndSplitKeepTotals() {
        qt().withExamples(40).forAll(integers().between(2, 12), longs().between(1, 3_000_000), integers().between(1, 8), integers().between(1, 5))
                .checkAssert((n, size, qps, div) -> {
                    for (String alg : new String[] {"ring", "direct"}) {
                        check("all-reduce", alg, n, size, 1, chunkFor(size, n, div), qps, false, 0);
                        check("all-reduce", alg, n, size, 2, chunkFor(size, n, div), qps, true, 0);
                    }
                    check("all-to-all", "direct", n, size, 1, chunkFor(size, n, div), qps, false, 0);
                });
    }

    @Test
    void hierarchicalMovesInnerBytesOfEachLocalShare() {
        qt().withExamples(40).forAll(integers().between(1, 4), integers().between(2, 6), longs().between(1, 4_000_000))
                .checkAssert((perServer, servers, size) -> {
                    int n = perServer * servers;
                    int[] hosts = Placement.contiguous(n);
                    for (String op : new String[] {"all-reduce", "reduce-scatter", "all-gather"}) {
                        FlowGraph g = new FlowGraph();
                        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder(op, "hierarchical", size, hosts)
                                .ranksPerServer(perServer).build());
                        GraphChecks.assertWellFormed(g, h);
                        long[] sent = g.bytesSentPerHost(n);
                        for (int l = 0; l < perServer; l++) {
                            ExpectedBytes e = ExpectedBytes.of(op, "ring", servers, ByteSplit.part(size, perServer, l), 1, 0);
                            for (int s = 0; s < servers; s++) assertThat(sent[s * perServer + l]).isEqualTo(e.sent[s]);
                        }
                        for (var f : GraphChecks.flowsOf(g, h)) {
                            assertThat(f.src() % perServer).as("inter-server phase joins equal local ranks").isEqualTo(f.dst() % perServer);
                        }
                    }
                });
    }
}

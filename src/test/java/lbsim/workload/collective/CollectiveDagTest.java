package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import org.junit.jupiter.api.Test;

/** Dependency structure: pipelined ring steps, last flows, chaining, reduction gaps, every op x algorithm. */
class CollectiveDagTest {

    @Test
    void everySupportedPairYieldsAWellFormedDag() {
        for (String op : Collectives.OPS) {
            for (String alg : Collectives.algorithmsFor(op)) {
                for (int n : new int[] {2, 3, 8, 12}) {
                    boolean hier = alg.equals("hierarchical");
                    boolean pow2Only = (alg.endsWith("doubling")) && !op.equals("all-reduce");
                    if (pow2Only && Integer.bitCount(n) != 1) continue;
                    int ranks = hier ? n * 2 : n;
                    FlowGraph g = new FlowGraph();
                    CollectiveSpec spec = CollectiveSpec.builder(op, alg, 3_000_017L, Placement.contiguous(ranks))
                            .ranksPerServer(hier ? n : 8).chunkBytes(200_000).reduceGBps(100).channels(2).build();
                    CollectiveHandle h = Collectives.emit(g, spec);
                    assertThat(h.flowCount()).as("%s %s n=%d", op, alg, n).isPositive();
                    GraphChecks.assertWellFormed(g, h);
                }
            }
        }
    }

    @Test
    void ringStepDependsOnlyOnPreviousStepArrivalOfSamePiece() {
        qt().withExamples(30).forAll(integers().between(2, 16), longs().between(1, 4_000_000), integers().between(1, 4))
                .checkAssert((n, size, pieces) -> {
                    FlowGraph g = new FlowGraph();
                    long chunk = Math.max(1, size / n / pieces + 1);
                    CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", size, Placement.contiguous(n))
                            .chunkBytes(chunk).channels(2).build());
                    Map<String, FlowSpec> byKey = new HashMap<>();
                    for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
                        byKey.put(key(f.src(), GraphChecks.step(f), GraphChecks.channel(f), GraphChecks.slice(f)), f);
                    }
                    for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
                        int t = Integer.parseInt(GraphChecks.step(f).substring(1));
                        assertThat(f.dst()).isEqualTo((f.src() + 1) % n);
                        if (t == 0) {
                            assertThat(f.after()).isEmpty();
                            continue;
                        }
                        FlowSpec prev = byKey.get(key((f.src() + n - 1) % n, "s" + (t - 1), GraphChecks.channel(f), GraphChecks.slice(f)));
                        if (prev == null) continue; // zero-byte piece: passes its own dependencies through
                        assertThat(f.after()).containsExactly(prev.id());
                        assertThat(prev.dst()).isEqualTo(f.src());
                    }
                    int lastStep = 2 * (n - 1) - 1;
                    Set<Integer> expectedLast = new HashSet<>();
                    for (FlowSpec f : GraphChecks.flowsOf(g, h)) if (GraphChecks.step(f).equals("s" + lastStep)) expectedLast.add(f.id());
                    assertThat(toSet(h.lastFlows())).isEqualTo(expectedLast);
                });
    }

    @Test
    void recursiveDoublingStepIMovesTwoToTheMinusIOfTheMessage() {
        qt().withExamples(40).forAll(integers().between(1, 7), longs().between(1, 100_000_000))
                .checkAssert((m, size) -> {
                    int p = 1 << m;
                    FlowGraph g = new FlowGraph();
                    CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "recursive-doubling", size, Placement.contiguous(p)).build());
                    for (int i = 1; i <= m; i++) {
                        List<FlowSpec> rs = GraphChecks.withStep(g, h, "s" + (i - 1));
                        List<FlowSpec> ag = GraphChecks.withStep(g, h, "s" + (2 * m - i));
                        double expected = size / Math.pow(2, i);
                        double tolerance = (double) p / (1 << i) + 1e-9;
                        for (FlowSpec f : rs) {
                            assertThat((double) f.sizeBytes()).isCloseTo(expected, org.assertj.core.data.Offset.offset(tolerance));
                            assertThat(f.dst()).as("nearest partner first").isEqualTo(f.src() ^ (1 << (i - 1)));
                        }
                        for (FlowSpec f : ag) {
                            assertThat((double) f.sizeBytes()).isCloseTo(expected, org.assertj.core.data.Offset.offset(tolerance));
                            assertThat(f.dst()).isEqualTo(f.src() ^ (1 << (i - 1)));
                        }
                        if (expected >= 1) assertThat(rs).hasSize(p);
                    }
                });
    }

    @Test
    void halvingDoublingTalksToTheFarthestPartnerFirst() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "halving-doubling", 1 << 20, Placement.contiguous(16)).build());
        int[] distances = {8, 4, 2, 1, 1, 2, 4, 8};
        for (int s = 0; s < distances.length; s++) {
            List<FlowSpec> step = GraphChecks.withStep(g, h, "s" + s);
            assertThat(step).hasSize(16);
            for (FlowSpec f : step) assertThat(f.src() ^ f.dst()).isEqualTo(distances[s]);
            long expected = s < 4 ? (1 << 20) >> (s + 1) : (1 << 20) >> (8 - s);
            for (FlowSpec f : step) assertThat(f.sizeBytes()).isEqualTo(expected);
        }
    }

    @Test
    void butterflyStepWaitsForItsPreviousSendAndReceive() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("reduce-scatter", "recursive-doubling", 1 << 16, Placement.contiguous(8)).build());
        for (FlowSpec f : GraphChecks.withStep(g, h, "s1")) {
            Set<String> deps = new HashSet<>();
            for (int d : f.after()) deps.add(g.flows().get(d).src() + ">" + g.flows().get(d).dst());
            assertThat(deps).containsExactlyInAnyOrder(f.src() + ">" + (f.src() ^ 1), (f.src() ^ 1) + ">" + f.src());
        }
    }

    @Test
    void nonPowerOfTwoReduceScatterIsRejectedNamingTheConstraint() {
        FlowGraph g = new FlowGraph();
        for (String alg : new String[] {"halving-doubling", "recursive-doubling"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                    Collectives.emit(g, CollectiveSpec.builder("reduce-scatter", alg, 1000, Placement.contiguous(6)).build()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power-of-two");
        }
        assertThat(g.size()).isZero();
        assertThat(g.groups()).isEmpty();
    }

    @Test
    void foldedAllReduceSendsWholeBufferBeforeAndAfter() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "halving-doubling", 1000, Placement.contiguous(6)).build());
        List<FlowSpec> pre = GraphChecks.withStep(g, h, "pre");
        List<FlowSpec> post = GraphChecks.withStep(g, h, "post");
        assertThat(pre).extracting(FlowSpec::src).containsExactly(0, 2);
        assertThat(pre).extracting(FlowSpec::dst).containsExactly(1, 3);
        assertThat(post).extracting(FlowSpec::src).containsExactly(1, 3);
        assertThat(pre).allSatisfy(f -> assertThat(f.sizeBytes()).isEqualTo(1000));
        assertThat(post).allSatisfy(f -> assertThat(f.sizeBytes()).isEqualTo(1000));
        for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
            if (!GraphChecks.step(f).equals("pre") && !GraphChecks.step(f).equals("post")) {
                assertThat(f.src()).isNotIn(0, 2);
                assertThat(f.dst()).isNotIn(0, 2);
            }
        }
    }

    /**
     * Pipelined fold: piece k of `pre` brings the survivor exactly the bytes its piece-k exchange then
     * works on (its first step sends some of them and receives the others), and `post` returns the
     * same bytes. Cutting the whole buffer into K pieces instead of each block (S = 6, 3 ranks,
     * pieces of 3 B: pre 3 + 3 B, exchange pieces 4 + 2 B) let piece 0 forward bytes piece 1 of
     * `pre` had not yet delivered.
     */
    @Test
    void foldedPiecesCarryTheBytesOfTheExchangePieces() {
        qt().withExamples(60).forAll(integers().between(3, 15), longs().between(1, 200_000), integers().between(1, 12))
                .assuming((n, size, pieces) -> Integer.bitCount(n) != 1)
                .checkAssert((n, size, pieces) -> {
                    long chunk = Math.max(1, size / 2 / pieces);
                    for (String alg : new String[] {"halving-doubling", "recursive-doubling"}) {
                        FlowGraph g = new FlowGraph();
                        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", alg, size, Placement.contiguous(n))
                                .chunkBytes(chunk).channels(2).build());
                        int p = Integer.highestOneBit(n);
                        String first = "s0";
                        Map<String, Long> bytes = new HashMap<>(); // "<step> <src> <dst> c<ch> k<slice>" -> bytes
                        for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
                            bytes.merge(GraphChecks.step(f) + " " + f.src() + " " + f.dst() + " c" + GraphChecks.channel(f)
                                    + " k" + GraphChecks.slice(f), f.sizeBytes(), Long::sum);
                        }
                        int d = alg.equals("halving-doubling") ? p / 2 : 1;
                        for (int v = 0; v < n - p; v++) {
                            int r = 2 * v + 1;
                            int partner = (v ^ d) < n - p ? 2 * (v ^ d) + 1 : (v ^ d) + n - p;
                            Set<String> keys = new HashSet<>();
                            for (String from : new String[] {"pre " + (r - 1) + " " + r, "post " + r + " " + (r - 1),
                                    first + " " + r + " " + partner, first + " " + partner + " " + r}) {
                                keys.addAll(pieceKeys(bytes, from));
                            }
                            for (String piece : keys) {
                                long exchanged = bytes.getOrDefault(first + " " + r + " " + partner + piece, 0L)
                                        + bytes.getOrDefault(first + " " + partner + " " + r + piece, 0L);
                                assertThat(bytes.getOrDefault("pre " + (r - 1) + " " + r + piece, 0L))
                                        .as("%s n=%d S=%d chunk=%d pre%s", alg, n, size, chunk, piece).isEqualTo(exchanged);
                                assertThat(bytes.getOrDefault("post " + r + " " + (r - 1) + piece, 0L)).as("post%s", piece).isEqualTo(exchanged);
                            }
                        }
                    }
                });
    }

    /** The " c<ch> k<slice>" suffixes of the keys starting with {@code prefix}. */
    private static List<String> pieceKeys(Map<String, Long> bytes, String prefix) {
        return bytes.keySet().stream().filter(k -> k.startsWith(prefix + " c")).map(k -> k.substring(prefix.length())).sorted().toList();
    }

    @Test
    void reductionComputeTimeIsTheGapOfReduceSteps() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", 4_000_000, Placement.contiguous(4))
                .chunkBytes(10_000_000).reduceGBps(100).build());
        long blockPs = 1_000_000L * 1000 / 100;
        for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
            int t = Integer.parseInt(GraphChecks.step(f).substring(1));
            assertThat(f.gapPs()).as("step %d", t).isEqualTo(t >= 1 && t <= 3 ? blockPs : 0);
        }
    }

    @Test
    void directAllReduceAndTreeRootReduceBeforeSending() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle direct = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "direct", 4_000_000, Placement.contiguous(4))
                .reduceGBps(100).build());
        long threeBlocksPs = 3 * 1_000_000L * 1000 / 100;
        assertThat(GraphChecks.withStep(g, direct, "s0")).allSatisfy(f -> assertThat(GraphChecks.delay(f)).isZero());
        assertThat(GraphChecks.withStep(g, direct, "s1")).hasSize(12).allSatisfy(f -> {
            assertThat(f.gapPs()).isEqualTo(threeBlocksPs);
            assertThat(f.after()).hasSize(3);
            for (int d : f.after()) assertThat(g.flows().get(d).dst()).isEqualTo(f.src());
        });
        CollectiveHandle tree = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "double-binary-tree", 2_000_000, Placement.contiguous(2))
                .reduceGBps(100).chunkBytes(10_000_000).build());
        long rootReducePs = 1_000_000L * 1000 / 100;
        assertThat(GraphChecks.flowsOf(g, tree)).filteredOn(f -> GraphChecks.step(f).endsWith("down"))
                .hasSize(2).allSatisfy(f -> assertThat(f.gapPs()).isEqualTo(rootReducePs));
    }

    @Test
    void dependencyFreeFlowsCarryTheStartDelayInStartPs() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-gather", "ring", 1 << 20, Placement.contiguous(4))
                .startPs(1_000).after(Completion.NOW.plus(7_000)).build());
        assertThat(GraphChecks.withStep(g, h, "s0")).allSatisfy(f -> {
            assertThat(f.startPs()).isEqualTo(8_000);
            assertThat(f.gapPs()).isZero();
        });
        assertThat(GraphChecks.withStep(g, h, "s1")).allSatisfy(f -> assertThat(f.startPs()).isEqualTo(1_000));
    }

    @Test
    void chainedCollectiveWaitsForTheWholePreviousOne() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle first = Collectives.emit(g, CollectiveSpec.builder("reduce-scatter", "ring", 1 << 20, Placement.contiguous(8)).build());
        CollectiveHandle second = Collectives.emit(g, CollectiveSpec.builder("all-gather", "ring", 1 << 20, Placement.contiguous(8))
                .after(first.done().plus(5_000)).build());
        assertThat(second.group()).isEqualTo(first.group() + 1);
        for (FlowSpec f : GraphChecks.withStep(g, second, "s0")) {
            assertThat(f.after()).containsExactlyInAnyOrder(first.lastFlows());
            assertThat(f.gapPs()).isEqualTo(5_000);
        }
    }

    @Test
    void ranksSharingAHostExchangeOverTheIntraServerLinkNotTheFabric() {
        FlowGraph g = new FlowGraph();
        int[] hosts = {0, 0, 1, 1};
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", 4_000_000, hosts)
                .chunkBytes(10_000_000).intraServerGBps(100).build());
        GraphChecks.assertWellFormed(g, h);
        long intraPs = 1_000_000L * 1000 / 100;
        for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
            int t = Integer.parseInt(GraphChecks.step(f).substring(1));
            assertThat(GraphChecks.delay(f)).as("each fabric hop follows one intra-server hop").isEqualTo(t == 0 ? 0 : intraPs);
        }
        assertThat(h.flowCount()).isEqualTo(2 * 3 * 2);
    }

    @Test
    void hierarchicalModelsIntraServerPhasesAsTime() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "hierarchical", 8_000_000, Placement.contiguous(8))
                .ranksPerServer(4).intraServerGBps(200).chunkBytes(100_000_000).build());
        long intraPs = Math.round(8_000_000 * 0.75 * 1000 / 200);
        for (FlowSpec f : GraphChecks.withStep(g, h, "s0")) {
            assertThat(f.after()).isEmpty();
            assertThat(f.startPs()).as("waits for the intra-server reduce-scatter").isEqualTo(intraPs);
            assertThat(f.gapPs()).isZero();
        }
        assertThat(h.tailPs()).isEqualTo(intraPs);
        assertThat(h.flowCount()).isEqualTo(4 * 2 * 2);
    }

    @Test
    void splitDataOnQpsSetsFlowQpsWhileRoundRobinDealsMessages() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle split = Collectives.emit(g, CollectiveSpec.builder("send-recv", "direct", 1_000_000, new int[] {0, 1})
                .qpsPerConnection(4).build());
        assertThat(GraphChecks.flowsOf(g, split)).allSatisfy(f -> assertThat(f.qps()).isEqualTo(4)).hasSize(2);

        CollectiveHandle rr = Collectives.emit(g, CollectiveSpec.builder("send-recv", "direct", 10 * 1000 + 1, new int[] {0, 1})
                .qpsPerConnection(4).splitDataOnQps(false).chunkBytes(1000).build());
        List<FlowSpec> zeroToOne = GraphChecks.flowsOf(g, rr).stream().filter(f -> f.src() == 0).toList();
        assertThat(zeroToOne).extracting(FlowSpec::sizeBytes).containsExactly(3000L, 3000L, 2001L, 2000L);
        assertThat(zeroToOne).allSatisfy(f -> assertThat(f.qps()).isEqualTo(1));
        assertThat(zeroToOne).extracting(FlowSpec::label).allSatisfy(l -> assertThat(l).matches(".* qp[0-3]"));

        CollectiveHandle none = Collectives.emit(g, CollectiveSpec.builder("send-recv", "direct", 5000, new int[] {0, 1}).build());
        assertThat(GraphChecks.flowsOf(g, none)).allSatisfy(f -> assertThat(f.qps()).isZero());
    }

    @Test
    void roundRobinContinuesAcrossTransfersOfOneConnection() {
        FlowGraph g = new FlowGraph();
        FlowEmitter out = new FlowEmitter(g, g.addGroup("x"), 0, 3, false, 100, 450);
        out.send(0, 1, 100, 0, 0, "a", Completion.NOW);
        out.send(0, 1, 100, 0, 0, "b", Completion.NOW);
        out.send(0, 1, 100, 0, 0, "c", Completion.NOW);
        out.send(0, 1, 100, 0, 0, "d", Completion.NOW);
        assertThat(g.flows()).extracting(FlowSpec::label).containsExactly("a qp0", "b qp1", "c qp2", "d qp0");
        assertThat(g.flows()).as("separate transfers, not pieces of one").allSatisfy(f -> assertThat(f.afterSent()).isEmpty());
    }

    /**
     * A transfer's pieces go out in order (FlowEmitter.sendPiece): every flow follows, once it is
     * sent, the previous flow of its lane (same ranks, here one per host, channel, step and, in
     * round robin, QP), and only it; zero-byte pieces emit nothing to follow.
     */
    @Test
    void everyPieceFollowsThePreviousPieceOfItsTransferOnceSent() {
        for (boolean roundRobin : new boolean[] {false, true}) {
            for (String op : Collectives.OPS) {
                for (String alg : Collectives.algorithmsFor(op)) {
                    boolean hier = alg.equals("hierarchical");
                    for (long size : new long[] {3_000_017L, 13}) {
                        int n = 4;
                        int[] hosts = Placement.contiguous(hier ? 2 * n : n);
                        CollectiveSpec spec = CollectiveSpec.builder(op, alg, size, hosts).ranksPerServer(n)
                                .chunkBytes(size > 100 ? 200_000 : 2).channels(2).qpsPerConnection(roundRobin ? 3 : 0)
                                .splitDataOnQps(!roundRobin).build();
                        FlowGraph g = new FlowGraph();
                        CollectiveHandle h = Collectives.emit(g, spec);
                        Map<String, FlowSpec> lastOnLane = new HashMap<>();
                        for (FlowSpec f : GraphChecks.flowsOf(g, h)) {
                            String lane = f.src() + ">" + f.dst() + " " + f.label().replaceFirst(" k\\d+", "");
                            FlowSpec previous = lastOnLane.put(lane, f);
                            String what = op + "/" + alg + " rr=" + roundRobin + " S=" + size + ": " + f.label();
                            if (previous == null) {
                                assertThat(f.afterSent()).as(what).isEmpty();
                            } else {
                                assertThat(f.afterSent()).as(what).containsExactly(previous.id());
                                assertThat(GraphChecks.slice(previous)).as(what).isLessThan(GraphChecks.slice(f));
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void ranksSharingANicKeepTheirOwnTransfers() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "direct", 8000, new int[] {0, 1, 2, 2})
                .chunkBytes(1000).build());
        List<FlowSpec> toHost2 = GraphChecks.flowsOf(g, h).stream().filter(f -> f.src() == 0 && f.dst() == 2 && f.label().contains(" s0 ")).toList();
        assertThat(toHost2).extracting(FlowSpec::label).containsExactly("all-reduce/direct c0 s0 k0", "all-reduce/direct c0 s0 k0",
                "all-reduce/direct c0 s0 k1", "all-reduce/direct c0 s0 k1");
        assertThat(toHost2.get(0).afterSent()).isEmpty();
        assertThat(toHost2.get(1).afterSent()).as("rank 0 -> 3 is not queued behind rank 0 -> 2").isEmpty();
        assertThat(toHost2.get(2).afterSent()).containsExactly(toHost2.get(0).id());
        assertThat(toHost2.get(3).afterSent()).containsExactly(toHost2.get(1).id());
    }

    @Test
    void roundRobinPiecesQueueBehindTheTransfersPreviousPieceOnTheirQp() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("broadcast", "ring", 4000, new int[] {0, 1})
                .chunkBytes(1000).qpsPerConnection(2).splitDataOnQps(false).build());
        List<FlowSpec> f = GraphChecks.flowsOf(g, h);
        assertThat(f).extracting(FlowSpec::label).containsExactly("broadcast/ring c0 s0 k0 qp0", "broadcast/ring c0 s0 k1 qp1",
                "broadcast/ring c0 s0 k2 qp0", "broadcast/ring c0 s0 k3 qp1");
        assertThat(f.get(0).afterSent()).isEmpty();
        assertThat(f.get(1).afterSent()).isEmpty();
        assertThat(f.get(2).afterSent()).containsExactly(f.get(0).id());
        assertThat(f.get(3).afterSent()).containsExactly(f.get(1).id());
    }

    private static String key(int src, String step, int ch, int k) {
        return src + "/" + step + "/" + ch + "/" + k;
    }

    private static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new HashSet<>();
        for (int x : a) s.add(x);
        return s;
    }
}

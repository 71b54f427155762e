package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import lbsim.workload.FlowGraph;
import org.junit.jupiter.api.Test;

/** NCCL-tests bandwidth formulas and the ideal completion-time bounds. */
class MetricsTest {
    private static final double GBPS = 400;
    private static final long LAT = 1_000;

    @Test
    void busBandwidthFactorsFollowNcclTests() {
        assertThat(BusBandwidth.factor("all-reduce", 8)).isEqualTo(1.75);
        assertThat(BusBandwidth.factor("reduce-scatter", 8)).isEqualTo(0.875);
        assertThat(BusBandwidth.factor("all-gather", 4)).isEqualTo(0.75);
        assertThat(BusBandwidth.factor("all-to-all", 2)).isEqualTo(0.5);
        assertThat(BusBandwidth.factor("broadcast", 8)).isEqualTo(1.0);
        assertThat(BusBandwidth.factor("reduce", 8)).isEqualTo(1.0);
        assertThat(BusBandwidth.factor("send-recv", 8)).isEqualTo(1.0);
        assertThat(BusBandwidth.algBwGBps(1_000_000_000L, 1_000_000_000_000L)).isEqualTo(1.0);
    }

    @Test
    void ringAllReduceAtTheBandwidthBoundHasBusBandwidthEqualToTheLink() {
        qt().forAll(integers().between(2, 256), longs().between(1 << 20, 1L << 34)).checkAssert((n, size) -> {
            double ps = 2.0 * (n - 1) / n * size * 8000 / GBPS;
            assertThat(BusBandwidth.busBwGBps("all-reduce", n, size, Math.round(ps))).isCloseTo(GBPS / 8, within(0.01));
        });
    }

    @Test
    void unpipelinedRingBoundIsTheStepChainAndMatchesTheDag() {
        qt().forAll(integers().between(2, 32), integers().between(1, 100_000)).checkAssert((n, perRank) -> {
            long size = (long) n * perRank;
            CollectiveSpec spec = CollectiveSpec.builder("all-reduce", "ring", size, Placement.contiguous(n)).chunkBytes(size).build();
            double step = perRank * 8000.0 / GBPS + LAT;
            long expected = Math.round(2 * (n - 1) * step);
            assertThat(IdealTime.lowerBoundPs(spec, GBPS, LAT)).isEqualTo(expected);
            FlowGraph g = new FlowGraph();
            int group = Collectives.append(g, spec);
            assertThat(DagLowerBound.ps(g, group, GBPS, LAT)).isEqualTo(expected);
        });
    }

    @Test
    void pipelinedRingBoundApproachesTheBandwidthTerm() {
        int n = 16;
        long size = 256L << 20;
        CollectiveSpec spec = CollectiveSpec.builder("all-reduce", "ring", size, Placement.contiguous(n)).build();
        double bandwidth = 2.0 * (n - 1) / n * size * 8000 / GBPS + LAT;
        assertThat((double) IdealTime.lowerBoundPs(spec, GBPS, LAT)).isCloseTo(bandwidth, within(1.0));
    }

    /**
     * Ring broadcast / reduce pieces go out in order, so the last piece leaves the first NIC after
     * all S bytes and is forwarded n - 2 more times: t(S) + (n - 2) t(S/K) + (n - 1) L, well above
     * the older max(t(S) + L, (n - 1)(t(S/K) + L)); the DAG bound, following the same ordering, agrees.
     */
    @Test
    void ringChainBoundCountsPiecesSentInOrder() {
        int n = 8;
        long size = 8L << 20;   // 16 pieces of the 512 KiB default
        for (String op : new String[] {"broadcast", "reduce"}) {
            CollectiveSpec spec = CollectiveSpec.builder(op, "ring", size, Placement.contiguous(n)).build();
            double chain = size * 8000.0 / GBPS + (n - 2) * (size / 16) * 8000.0 / GBPS + (n - 1) * LAT;
            double unordered = Math.max(size * 8000.0 / GBPS + LAT, (n - 1) * ((size / 16) * 8000.0 / GBPS + LAT));
            assertThat((double) IdealTime.lowerBoundPs(spec, GBPS, LAT)).as(op).isCloseTo(chain, within(1.0)).isGreaterThan(unordered * 1.3);
            FlowGraph g = new FlowGraph();
            int group = Collectives.append(g, spec);
            assertThat((double) DagLowerBound.ps(g, group, GBPS, LAT)).as(op).isCloseTo(chain, within(1.0));
        }
    }

    @Test
    void closedFormBoundsNeverExceedTheDagBoundForChainAlgorithms() {
        qt().withExamples(40).forAll(integers().between(2, 24), longs().between(1000, 20_000_000), integers().between(0, 3)).checkAssert((n, size, div) -> {
            long chunk = div == 0 ? 0 : size / (2L * n * div) + 1;
            for (String op : Collectives.OPS) {
                for (String alg : Collectives.algorithmsFor(op)) {
                    if (alg.equals("hierarchical") || alg.equals("direct")) continue;
                    if (alg.endsWith("doubling") && !op.equals("all-reduce") && Integer.bitCount(n) != 1) continue;
                    CollectiveSpec spec = CollectiveSpec.builder(op, alg, size, Placement.contiguous(n)).chunkBytes(chunk).build();
                    FlowGraph g = new FlowGraph();
                    int group = Collectives.append(g, spec);
                    assertThat(IdealTime.lowerBoundPs(spec, GBPS, LAT)).as("%s %s", op, alg)
                            .isLessThanOrEqualTo(DagLowerBound.ps(g, group, GBPS, LAT) + 1);
                }
            }
        });
    }

    @Test
    void closedFormsForDirectAndButterfly() {
        int n = 8;
        long size = 8_000_000;
        double t = 8000.0 / GBPS;
        long directAr = IdealTime.lowerBoundPs(CollectiveSpec.builder("all-reduce", "direct", size, Placement.contiguous(n)).build(), GBPS, LAT);
        assertThat(directAr).isEqualTo(Math.round(2 * (7.0 / 8 * size * t + LAT)));
        long a2a = IdealTime.lowerBoundPs(CollectiveSpec.builder("all-to-all", "direct", size, Placement.contiguous(n)).build(), GBPS, LAT);
        assertThat(a2a).isEqualTo(Math.round(7.0 / 8 * size * t + LAT));
        long rd = IdealTime.lowerBoundPs(CollectiveSpec.builder("all-reduce", "recursive-doubling", size, Placement.contiguous(n)).build(), GBPS, LAT);
        assertThat(rd).isEqualTo(Math.round(2 * (7.0 / 8 * size * t) + 6 * LAT));
        long hier = IdealTime.lowerBoundPs(CollectiveSpec.builder("all-reduce", "hierarchical", size, Placement.contiguous(16))
                .ranksPerServer(8).intraServerGBps(100).chunkBytes(size).build(), GBPS, LAT);
        double intra = 7.0 / 8 * size * 1000 / 100;
        assertThat(hier).isEqualTo(Math.round(intra + 2 * (size / 8.0 / 2 * t + LAT) + intra));
    }
}

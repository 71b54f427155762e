package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ethereal §3.2 Theorem 1 as properties of {@link EtherealAssignment#assign}. */
class EtherealAssignmentTest {

    private static long[] equal(int n, long f) {
        long[] a = new long[n];
        Arrays.fill(a, f);
        return a;
    }

    @Test
    void exactBalanceWhenPathsDivideTheFlowSize() {
        // Theorem 1: every path carries n*f/s; only r = n mod s flows split, into s/g each
        qt().withFixedSeed(20250801L).withExamples(500)
                .forAll(integers().between(1, 200), integers().between(1, 64), longs().between(1, 1_000_000))
                .checkAssert((n, s, m) -> {
                    long f = m * s;
                    List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(equal(n, f), s);
                    long[] load = EtherealAssignment.pathLoads(a, s);
                    assertThat(load).containsOnly((long) n * f / s);
                    int r = n % s;
                    int g = r == 0 ? s : EtherealAssignment.gcd(r, s);
                    int extra = EtherealAssignment.extraFlows(a);
                    assertThat(extra).isLessThanOrEqualTo(r * (s - g) / g).isEqualTo(r * (s - g) / g);
                    // only the r remaining flows are split, each into s/g pieces on distinct-count paths
                    long split = a.stream().filter(l -> l.size() > 1).count();
                    assertThat(split).isLessThanOrEqualTo(r);
                    for (List<EtherealAssignment.Piece> l : a) {
                        assertThat(l.size()).isIn(1, s / g);
                        assertThat(l.stream().mapToLong(EtherealAssignment.Piece::bytes).sum()).isEqualTo(f);
                    }
                });
    }

    @Test
    void nearExactBalanceForAnyFlowSize() {
        // leftover bytes: a split flow's pieces differ by at most 1 byte, placed least-loaded first,
        // so per-path loads differ by at most 1 byte and add up to n*f
        qt().withFixedSeed(20250802L).withExamples(500)
                .forAll(integers().between(1, 200), integers().between(1, 64), longs().between(1, 10_000_000))
                .checkAssert((n, s, f) -> {
                    List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(equal(n, f), s);
                    long[] load = EtherealAssignment.pathLoads(a, s);
                    long max = Arrays.stream(load).max().orElseThrow();
                    long min = Arrays.stream(load).min().orElseThrow();
                    assertThat(max - min).as("n=%d s=%d f=%d loads=%s", n, s, f, Arrays.toString(load)).isLessThanOrEqualTo(1);
                    assertThat(Arrays.stream(load).sum()).isEqualTo((long) n * f);
                    int r = n % s;
                    int g = r == 0 ? s : EtherealAssignment.gcd(r, s);
                    assertThat(EtherealAssignment.extraFlows(a)).isLessThanOrEqualTo(r * (s - g) / g);
                    for (List<EtherealAssignment.Piece> l : a) {
                        assertThat(l).allSatisfy(p -> assertThat(p.bytes()).isPositive());
                        assertThat(l).allSatisfy(p -> assertThat(p.path()).isBetween(0, s - 1));
                    }
                });
    }

    @Test
    void paperExampleFiveFlowsOverFourPaths() {
        // §2.2 example: 5 flows, 4 paths -> 1 whole flow per path, the 5th split into 4 quarters
        List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(equal(5, 4_000), 4);
        assertThat(EtherealAssignment.pathLoads(a, 4)).containsOnly(5_000L);
        assertThat(a.stream().mapToInt(List::size).sorted().toArray()).containsExactly(1, 1, 1, 1, 4);
        // 6 flows over 4 paths: r = 2, g = 2 -> two flows split in halves
        a = EtherealAssignment.assign(equal(6, 4_000), 4);
        assertThat(EtherealAssignment.pathLoads(a, 4)).containsOnly(6_000L);
        assertThat(a.stream().mapToInt(List::size).sorted().toArray()).containsExactly(1, 1, 1, 1, 2, 2);
        assertThat(EtherealAssignment.extraFlows(a)).isEqualTo(2);
    }

    @Test
    void tinyAndEmptyFlowsKeepOnePiece() {
        List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(new long[] {0, 2}, 4);
        assertThat(a.get(0)).hasSize(1);
        assertThat(a.get(0).get(0).bytes()).isZero();
        assertThat(a.get(1)).hasSize(2).allSatisfy(p -> assertThat(p.bytes()).isEqualTo(1));
    }
}

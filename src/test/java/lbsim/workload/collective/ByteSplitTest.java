package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

class ByteSplitTest {

    @Test
    void partsSumExactlyAndDifferByAtMostOne() {
        qt().forAll(longs().between(0, Long.MAX_VALUE / 4), integers().between(1, 5000)).checkAssert((total, n) -> {
            long[] parts = ByteSplit.parts(total, n);
            long sum = 0;
            for (long p : parts) {
                sum += p;
                assertThat(p).isBetween(total / n, total / n + 1);
            }
            assertThat(sum).isEqualTo(total);
        });
    }

    @Test
    void piecesCoverTheBytes() {
        qt().forAll(longs().between(0, 1L << 40), longs().between(1, 1L << 30)).checkAssert((bytes, limit) -> {
            int k = ByteSplit.piecesOf(bytes, limit);
            assertThat((long) k * limit).isGreaterThanOrEqualTo(bytes);
            if (bytes > 0) assertThat((long) (k - 1) * limit).isLessThan(bytes);
        });
    }

    @Test
    void blockSetCountingMatchesBruteForce() {
        qt().forAll(integers().between(0, 9), integers().between(0, 1023), integers().between(0, 1023)).checkAssert((m, mask, pat) -> {
            int p = 1 << m;
            int maskP = mask & (p - 1);
            int pattern = pat & maskP;
            for (int limit = 0; limit <= p; limit++) {
                int brute = 0;
                for (int j = 0; j < limit; j++) if ((j & maskP) == pattern) brute++;
                assertThat(ButterflyAlgorithm.BlockSets.countBelow(limit, maskP, pattern)).isEqualTo(brute);
            }
        });
    }
}

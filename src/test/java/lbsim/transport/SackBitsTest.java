package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

/** The 64-packet SACK bitmap a coalescing receiver puts on its ACKs (QueuePair.bitsFrom), against bit-by-bit reading. */
class SackBitsTest {
    @Test
    void theBitmapFromAnyBaseHoldsExactlyThePacketsSetFromThere() {
        qt().forAll(integers().between(1, 5), longs().all(), integers().between(0, 400)).checkAssert((words, seed, base) -> {
            long[] bitmap = new long[words];
            java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
            for (int i = 0; i < words; i++) bitmap[i] = r.nextLong();
            long bits = QueuePair.bitsFrom(bitmap, base);
            for (int i = 0; i < 64; i++) {
                long q = base + i;
                boolean set = q < 64L * words && (bitmap[(int) (q >>> 6)] & (1L << (q & 63))) != 0;
                assertThat((bits >>> i & 1) == 1).as("packet %d", q).isEqualTo(set);
            }
        });
    }
}

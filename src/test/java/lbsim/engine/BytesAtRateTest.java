package lbsim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Simulation.bytesAtRate equals the exact product over 8e12, capped, whether or not ps x rate fits a long. */
class BytesAtRateTest {
    private static long exact(long ps, long rate) {
        return BigInteger.valueOf(ps).multiply(BigInteger.valueOf(rate)).divide(BigInteger.valueOf(8 * Simulation.PS_PER_S))
                .min(BigInteger.valueOf(Long.MAX_VALUE / 4)).longValue();
    }

    @Test
    void equalsTheExactProductOnBothSidesOfLongOverflow() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            // magnitudes spread over the whole range, so about half the products overflow a long
            long ps = rnd.nextLong(Long.MAX_VALUE) >>> rnd.nextInt(63);
            long rate = rnd.nextLong(Long.MAX_VALUE) >>> rnd.nextInt(63);
            assertThat(Simulation.bytesAtRate(ps, rate)).as("%d ps at %d bit/s", ps, rate).isEqualTo(exact(ps, rate));
        }
        // 25 us at 400 Gb/s, which wrapped around before: 1.25 MB
        assertThat(Simulation.bytesAtRate(25_000_000L, 400_000_000_000L)).isEqualTo(1_250_000L);
        assertThat(Simulation.bytesAtRate(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / 4);
        assertThat(Simulation.bytesAtRate(0, Long.MAX_VALUE)).isZero();
    }
}

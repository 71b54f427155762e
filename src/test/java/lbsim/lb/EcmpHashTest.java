package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import lbsim.net.Packet;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;

class EcmpHashTest {
    /** Loose: a correct hash fails a fixed-seed test with probability 1e-6 per check. */
    static final double P_FAIL = 1e-6;

    /**
     * For a fixed switch and endpoint pair, the 16 384 RoCE source ports are the whole
     * population an ECMP host draws from, so each is counted once (sampling more draws than
     * the population with replacement would test the population's own finite imbalance).
     */
    @Test
    void bucketsAreUniformOverTheSourcePortRange() {
        SplittableRandom rnd = new SplittableRandom(2024);
        for (int n = 2; n <= 16; n++) {
            double limit = ChiSquaredDistribution.of(n - 1).inverseSurvivalProbability(P_FAIL);
            for (int ctx = 0; ctx < 4; ctx++) {
                long seed = rnd.nextLong();
                int src = rnd.nextInt(1024), dst = rnd.nextInt(1024);
                long[] count = new long[n];
                for (int sport = Ecmp.SPORT_MIN; sport < Ecmp.SPORT_MIN + Ecmp.SPORT_RANGE; sport++) {
                    int b = EcmpHash.bucket(EcmpHash.hash(seed, src, dst, sport, Packet.ROCE_DPORT, Packet.PROTO_UDP), n);
                    assertThat(b).isBetween(0, n - 1);
                    count[b]++;
                }
                assertThat(chi2(count)).as("n=%d seed=%d src=%d dst=%d", n, seed, src, dst).isLessThan(limit);
            }
        }
    }

    /** Many flows with random endpoints and random source ports (no tuple repeats in practice). */
    @Test
    void bucketsAreUniformOverRandomFlows() {
        SplittableRandom rnd = new SplittableRandom(4048);
        int samples = 40_000;
        for (int n = 2; n <= 16; n++) {
            double limit = ChiSquaredDistribution.of(n - 1).inverseSurvivalProbability(P_FAIL);
            long seed = rnd.nextLong();
            long[] count = new long[n];
            for (int i = 0; i < samples; i++) {
                int sport = Ecmp.SPORT_MIN + rnd.nextInt(Ecmp.SPORT_RANGE);
                count[EcmpHash.bucket(EcmpHash.hash(seed, rnd.nextInt(4096), rnd.nextInt(4096), sport, Packet.ROCE_DPORT,
                        Packet.PROTO_UDP), n)]++;
            }
            assertThat(chi2(count)).as("n=%d", n).isLessThan(limit);
        }
    }

    static double chi2(long[] count) {
        long total = 0;
        for (long c : count) total += c;
        double e = total / (double) count.length;
        double chi2 = 0;
        for (long c : count) chi2 += (c - e) * (c - e) / e;
        return chi2;
    }

    @Test
    void everySourcePortRangeIsSpreadEvenlyForFixedEndpoints() {
        // all 16 384 RoCE source ports of one (src, dst) pair on one switch
        double limit = ChiSquaredDistribution.of(7).inverseSurvivalProbability(P_FAIL);
        long[] count = new long[8];
        for (int sport = Ecmp.SPORT_MIN; sport < Ecmp.SPORT_MIN + Ecmp.SPORT_RANGE; sport++) {
            count[EcmpHash.bucket(EcmpHash.hash(99, 3, 7, sport, Packet.ROCE_DPORT, Packet.PROTO_UDP), 8)]++;
        }
        double e = Ecmp.SPORT_RANGE / 8.0;
        double chi2 = 0;
        for (long c : count) chi2 += (c - e) * (c - e) / e;
        assertThat(chi2).isLessThan(limit);
    }

    @Test
    void bucketIsExactForExtremeHashes() {
        assertThat(EcmpHash.bucket(0L, 7)).isZero();
        assertThat(EcmpHash.bucket(-1L, 7)).isEqualTo(6);
        assertThat(EcmpHash.bucket(Long.MIN_VALUE, 2)).isEqualTo(1);
        assertThat(EcmpHash.bucket(Long.MAX_VALUE, 2)).isZero();
    }

    @Test
    void hashDependsOnEveryField() {
        long h = EcmpHash.hash(1, 2, 3, 0xC000, 4791, 17);
        assertThat(EcmpHash.hash(2, 2, 3, 0xC000, 4791, 17)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 3, 3, 0xC000, 4791, 17)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 2, 4, 0xC000, 4791, 17)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 2, 3, 0xC001, 4791, 17)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 2, 3, 0xC000, 4792, 17)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 2, 3, 0xC000, 4791, 6)).isNotEqualTo(h);
        assertThat(EcmpHash.hash(1, 3, 2, 0xC000, 4791, 17)).as("not symmetric in src/dst").isNotEqualTo(h);
    }

    /**
     * n flows (random source ports, as Ecmp.Host assigns) hashed onto n uplinks of one
     * switch: all land on distinct uplinks with probability n!/n^n, so at least two collide
     * with probability 1 - n!/n^n.
     */
    @Test
    void allDistinctProbabilityIsNFactorialOverNToTheN() {
        SplittableRandom rnd = new SplittableRandom(77);
        int trials = 20_000;
        for (int n : new int[] {2, 3, 4, 8}) {
            long seed = rnd.nextLong();
            int distinct = 0;
            for (int t = 0; t < trials; t++) {
                boolean[] used = new boolean[n];
                boolean ok = true;
                for (int f = 0; f < n; f++) {
                    int src = rnd.nextInt(512), dst = rnd.nextInt(512);
                    int sport = Ecmp.SPORT_MIN + rnd.nextInt(Ecmp.SPORT_RANGE);
                    int b = EcmpHash.bucket(EcmpHash.hash(seed, src, dst, sport, Packet.ROCE_DPORT, Packet.PROTO_UDP), n);
                    if (used[b]) ok = false;
                    used[b] = true;
                }
                if (ok) distinct++;
            }
            double p = 1;
            for (int i = 1; i <= n; i++) p *= i / (double) n;
            double sd = Math.sqrt(p * (1 - p) / trials);
            double observed = distinct / (double) trials;
            assertThat(observed).as("n=%d all-distinct, expected %.5f", n, p).isBetween(p - 5 * sd, p + 5 * sd);
            assertThat(1 - observed).as("collision probability").isBetween(1 - p - 5 * sd, 1 - p + 5 * sd);
        }
    }
}

package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.Switch;

/**
 * The choice of a switch's adaptive routing among candidate ports: one of least {@link Switch#arLoad}
 * (the quantised port quality a switch ASIC compares, or exact egress bytes with {@code switch.ar_levels: 0}),
 * chosen uniformly at random among the ties, as Broadcom DLB assigns a member at random among equal
 * quality and htsim's adaptive_route draws among its best choices.
 */
final class LeastLoaded {
    private LeastLoaded() {}

    /**
     * Uniform choice among the indices of least load in {@code loads[0..n)} (reservoir sampling over ties:
     * one draw per tie after the first, none when the least is unique).
     */
    static int index(long[] loads, int n, SplittableRandom random) {
        int best = 0;
        long min = loads[0];
        int ties = 1;
        for (int i = 1; i < n; i++) {
            long l = loads[i];
            if (l < min) {
                min = l;
                best = i;
                ties = 1;
            } else if (l == min && random.nextInt(++ties) == 0) {
                best = i;
            }
        }
        return best;
    }
}

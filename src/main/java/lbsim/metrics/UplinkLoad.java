package lbsim.metrics;

import java.util.List;

/**
 * Load of the ToR (leaf) uplinks, every port from a ToR-tier switch to another switch: how evenly a
 * scheme spreads them (CTCCL §4.2 reports the variance across one leaf's 8 uplinks of their utilisation,
 * in percent squared: 92.22 for NCCL + ECMP vs 0.06 for DNLB). Utilisations are fractions of the nominal
 * rate over the window; a variance is the population variance of the utilisations in percent (so in
 * %²) across one ToR's uplinks, averaged over the ToRs. With a failure, the "before" values cover
 * [0, first failure) over all uplinks and the "after" values (first failure, end] over the uplinks still
 * up at the ToRs that lost an uplink (CTCCL Fig. 7: the failed leaf's remaining ports; all ToRs if no
 * uplink went down); NaN without failures.
 */
public record UplinkLoad(int links, int down, double meanUtilisation, double maxUtilisation, double variancePct2,
                         double meanBeforeFailure, double varianceBeforeFailurePct2, double meanAfterFailure,
                         double minAfterFailure, double maxAfterFailure, double varianceAfterFailurePct2) {

    /** Mean and population variance (in %²) of utilisations given as fractions. */
    static double[] meanVariancePct2(List<Double> u) {
        if (u.isEmpty()) return new double[] {Double.NaN, Double.NaN};
        double mean = 0;
        for (double x : u) mean += x;
        mean /= u.size();
        double ss = 0;
        for (double x : u) ss += (100 * x - 100 * mean) * (100 * x - 100 * mean);
        return new double[] {mean, ss / u.size()};
    }
}

package lbsim.metrics;

import java.util.Arrays;
import java.util.List;

/**
 * Communication time: how long at least one flow was in flight (the union of the flows'
 * [start, finish] intervals). For a training iteration, whose collectives are separated by
 * compute gaps, it is the iteration's communication time; the rest of the span is compute
 * that no communication overlaps.
 */
public final class CommTime {
    private CommTime() {}

    /** Union length in ns of the completed flows' lifetimes; unfinished flows are left out. */
    public static double ns(List<FlowRecord> flows) {
        double[][] iv = flows.stream().filter(f -> f.startNs() >= 0 && f.finishNs() >= 0)
                .map(f -> new double[] {f.startNs(), f.finishNs()}).toArray(double[][]::new);
        Arrays.sort(iv, (a, b) -> Double.compare(a[0], b[0]));
        double total = 0;
        double curStart = Double.NaN;
        double curEnd = Double.NEGATIVE_INFINITY;
        for (double[] x : iv) {
            if (x[0] > curEnd) {
                if (curEnd > Double.NEGATIVE_INFINITY) total += curEnd - curStart;
                curStart = x[0];
                curEnd = x[1];
            } else {
                curEnd = Math.max(curEnd, x[1]);
            }
        }
        if (curEnd > Double.NEGATIVE_INFINITY) total += curEnd - curStart;
        return total;
    }
}

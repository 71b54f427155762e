package lbsim.metrics;

import java.util.Arrays;

/**
 * Mean and nearest-rank percentiles of a sample. An empty sample (no flow finished) has no
 * statistics: {@link #isEmpty()} is true, the mean is NaN and p50, p99 and max are 0 only as
 * placeholders that summary.json and the tables show as null or "-".
 */
public record Stats(double mean, long p50, long p99, long max, int count) {
    public static Stats of(long[] values) {
        if (values.length == 0) return new Stats(Double.NaN, 0, 0, 0, 0);
        long[] v = values.clone();
        Arrays.sort(v);
        double sum = 0;
        for (long x : v) sum += x;
        return new Stats(sum / v.length, rank(v, 0.50), rank(v, 0.99), v[v.length - 1], v.length);
    }

    /** True for an empty sample, whose statistics are undefined. */
    public boolean isEmpty() {
        return count == 0;
    }

    /** Nearest-rank percentile: the smallest value with at least q of the sample at or below it. */
    static long rank(long[] sorted, double q) {
        int idx = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }
}

package lbsim.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * FCT slowdown statistics: FCT over the flow's {@link IdleFct}, overall and per flow-size bin
 * (mean and nearest-rank p99). Bins are decades of size: [0, 10 KB), [10 KB, 100 KB), ...,
 * [100 MB, inf) with KB = 1000 bytes; empty bins are left out. With no slowdown at all (no flow
 * finished) the overall mean and p99 are NaN, not 0.
 */
public record Slowdown(double mean, double p99, int count, List<Bin> bins) {
    /** Bin lower edges in bytes (upper edge = next lower edge, the last unbounded). */
    static final long[] EDGES = {0, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

    /** One size bin; {@code maxBytes} is exclusive, -1 for unbounded. */
    public record Bin(long minBytes, long maxBytes, int count, double mean, double p99) {}

    /** From completed flows' sizes and slowdowns (NaN entries are skipped). */
    public static Slowdown of(long[] sizes, double[] slowdowns) {
        List<Bin> bins = new ArrayList<>();
        for (int b = 0; b < EDGES.length; b++) {
            long lo = EDGES[b];
            long hi = b + 1 < EDGES.length ? EDGES[b + 1] : -1;
            double[] v = select(sizes, slowdowns, lo, hi);
            if (v.length > 0) bins.add(new Bin(lo, hi, v.length, mean(v), p99(v)));
        }
        double[] all = select(sizes, slowdowns, 0, -1);
        return new Slowdown(mean(all), p99(all), all.length, bins);
    }

    private static double[] select(long[] sizes, double[] sd, long lo, long hi) {
        double[] out = new double[sd.length];
        int n = 0;
        for (int i = 0; i < sd.length; i++) {
            if (Double.isNaN(sd[i]) || sizes[i] < lo || (hi >= 0 && sizes[i] >= hi)) continue;
            out[n++] = sd[i];
        }
        return Arrays.copyOf(out, n);
    }

    static double mean(double[] v) {
        if (v.length == 0) return Double.NaN;
        double s = 0;
        for (double x : v) s += x;
        return s / v.length;
    }

    /** Nearest-rank 99th percentile, as {@link Stats} does for FCTs. */
    static double p99(double[] v) {
        if (v.length == 0) return Double.NaN;
        double[] s = v.clone();
        Arrays.sort(s);
        int idx = (int) Math.ceil(0.99 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, idx))];
    }
}

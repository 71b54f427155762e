package lbsim.metrics;

/**
 * Total throughput over time (ParaLet §6 "TT"): bytes leaving the fabric's host-facing switch
 * ports per sampling interval, in Gb/s. The maximum is ParaLet's MTT.
 *
 * @param intervalNs sampling interval
 * @param gbps       one value per interval, the first covering [0, interval)
 */
public record ThroughputSeries(double intervalNs, double[] gbps) {
    public static final ThroughputSeries EMPTY = new ThroughputSeries(0, new double[0]);

    public double maxGbps() {
        double m = 0;
        for (double g : gbps) m = Math.max(m, g);
        return m;
    }

    /** Mean over the intervals up to the last one that carried traffic. */
    public double meanGbps() {
        int last = gbps.length - 1;
        while (last >= 0 && gbps[last] == 0) last--;
        if (last < 0) return 0;
        double s = 0;
        for (int i = 0; i <= last; i++) s += gbps[i];
        return s / (last + 1);
    }
}

package lbsim.metrics;

import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import lbsim.net.Network;
import lbsim.net.Port;
import lbsim.net.Switch;

/**
 * Samples the bytes that switch ports facing hosts have sent (what the fabric delivers to the
 * hosts) at interval boundaries. A packet counts pro rata to the part of its serialisation done by
 * the sample time ({@link Port#txBytesSerialisedBy}), so an interval holds the bytes the ports
 * serialised during it, never more than their line rate allows, and the intervals sum to the
 * bytes the ports sent by the last sample. ParaLet §6 sums "the switch ports connected to all sources"; in
 * collectives every host is a source, and the egress counter is the delivered, effective rate.
 *
 * <p>The series keeps at most about {@code maxIntervals} values: when it reaches that many (an
 * even count), adjacent pairs merge into their mean and the interval doubles, so a long run's
 * memory does not grow with simulated time (issue 2) and the run, which advances one interval at
 * a time, takes fewer steps through long idle stretches.
 */
public final class ThroughputSampler {
    private final Port[] hostFacing;
    private final int maxIntervals;
    private long intervalPs;
    private final DoubleArrayList gbps = new DoubleArrayList();
    private long lastBytes;
    private long nextSamplePs;

    public ThroughputSampler(Network net, long intervalPs, int maxIntervals) {
        if (maxIntervals < 2) throw new IllegalArgumentException("maxIntervals " + maxIntervals + " < 2");
        this.intervalPs = intervalPs;
        this.maxIntervals = maxIntervals;
        this.nextSamplePs = intervalPs;
        var list = new java.util.ArrayList<Port>();
        for (Port p : net.ports()) {
            if (p.owner instanceof Switch && net.topology().isHost(p.peer().id)) list.add(p);
        }
        hostFacing = list.toArray(new Port[0]);
    }

    /** The current interval: the initial one, doubled at every merge. */
    public long intervalPs() {
        return intervalPs;
    }

    /** Records every interval that ended at or before {@code nowPs} (the simulation is at {@code nowPs}). */
    public void sampleUpTo(long nowPs) {
        if (nowPs < nextSamplePs) return;
        long bytes = 0;
        for (Port p : hostFacing) bytes += p.txBytesSerialisedBy(nowPs);
        long delta = bytes - lastBytes;
        lastBytes = bytes;
        // the run advances in steps of one interval, so at most one interval has elapsed; spread otherwise
        int intervals = (int) ((nowPs - nextSamplePs) / intervalPs + 1);
        double g = delta * 8.0 / (intervalPs * (double) intervals / 1000.0);
        for (int i = 0; i < intervals; i++) gbps.add(g);
        nextSamplePs += (long) intervals * intervalPs;
        if (gbps.size() >= maxIntervals && gbps.size() % 2 == 0) mergePairs();
    }

    /** Halves the series: each pair of intervals becomes one of twice the length, at their mean rate. */
    private void mergePairs() {
        int n = gbps.size() / 2;
        for (int i = 0; i < n; i++) gbps.set(i, (gbps.getDouble(2 * i) + gbps.getDouble(2 * i + 1)) / 2);
        gbps.size(n);
        long coveredEnd = nextSamplePs - intervalPs;   // the series covers [0, coveredEnd)
        intervalPs *= 2;
        nextSamplePs = coveredEnd + intervalPs;
    }

    public ThroughputSeries series() {
        return new ThroughputSeries(intervalPs / 1000.0, gbps.toDoubleArray());
    }
}

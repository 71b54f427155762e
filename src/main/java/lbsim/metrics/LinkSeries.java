package lbsim.metrics;

import lbsim.net.Network;
import lbsim.net.Port;

/**
 * Per link direction over time (link_series.csv, {@code metrics.series}): for the chosen links,
 * every interval, the bytes serialised (pro rata, as {@link ThroughputSampler}), the queue at the
 * interval's end, the share of it the port was PFC-paused, the ECN marks it made and the CNPs it
 * sent (CNPs are packets: they cross each link direction on their way back to the sender).
 *
 * <p>Memory is bounded: the series holds at most {@code maxRows} rows (intervals x link
 * directions, 24 bytes each). When the next interval would pass that, adjacent pairs of intervals
 * merge into one of twice the length (bytes, marks and CNPs add, paused shares average, the later queue
 * stays) and the interval doubles, so the whole run stays covered at a coarser step.
 */
public final class LinkSeries {
    private final Port[] ports;
    private final String[] ids;
    private final int maxIntervals;
    private long intervalPs;
    private long nextPs;          // end of the interval being filled
    private int intervals;
    private long[] bytes;         // [interval * ports.length + i]
    private int[] queue;
    private float[] paused;
    private int[] ecn;
    private int[] cnp;
    private final long[] lastBytes, lastPaused, lastEcn, lastCnp;
    private long partialEndPs = -1;   // the last interval, when shorter: its end

    /**
     * @param ports   the port of each link direction sampled
     * @param ids     their link ids (links.csv {@code link_id})
     * @param maxRows at least three times {@code ports.length}: the rows kept, the shorter last interval's included
     */
    public LinkSeries(Port[] ports, String[] ids, long intervalPs, long maxRows) {
        if (intervalPs <= 0) throw new IllegalArgumentException("interval " + intervalPs + " <= 0");
        if (maxRows < 3L * ports.length) throw new IllegalArgumentException("maxRows " + maxRows + " < 3 x " + ports.length);
        this.ports = ports;
        this.ids = ids;
        // full intervals kept: one row per link left for the shorter last interval, and even, so a full series halves exactly
        this.maxIntervals = (int) Math.min(Integer.MAX_VALUE / Math.max(1, ports.length) - 1, maxRows / Math.max(1, ports.length) - 1) & ~1;
        this.intervalPs = intervalPs;
        this.nextPs = intervalPs;
        int cap = Math.min(maxIntervals + 1, 64);   // + 1: the shorter last interval
        bytes = new long[cap * ports.length];
        queue = new int[cap * ports.length];
        paused = new float[cap * ports.length];
        ecn = new int[cap * ports.length];
        cnp = new int[cap * ports.length];
        lastBytes = new long[ports.length];
        lastPaused = new long[ports.length];
        lastEcn = new long[ports.length];
        lastCnp = new long[ports.length];
    }

    /** The series of both directions of each of {@code links}, in port order (the order of links.csv). */
    public static LinkSeries of(Network net, int[] links, long intervalPs, long maxRows) {
        var topo = net.topology();
        int[] portIds = new int[2 * links.length];
        for (int i = 0; i < links.length; i++) {
            portIds[2 * i] = topo.linkPortA(links[i]);
            portIds[2 * i + 1] = topo.linkPortB(links[i]);
        }
        java.util.Arrays.sort(portIds);
        Port[] ports = new Port[portIds.length];
        String[] ids = new String[portIds.length];
        for (int i = 0; i < portIds.length; i++) {
            ports[i] = net.port(portIds[i]);
            ids[i] = topo.portName(portIds[i]);
        }
        return new LinkSeries(ports, ids, intervalPs, maxRows);
    }

    /** Rows the series' arrays have room for (memory: 24 bytes each). */
    public long capacityRows() {
        return bytes.length;
    }

    /** The end of the interval being filled: the simulation must stop there next for an exact sample. */
    public long nextSamplePs() {
        return nextPs;
    }

    /** Records every interval that ended at or before {@code nowPs}; the simulation has run to {@code nowPs}. */
    public void sampleUpTo(long nowPs) {
        while (nextPs <= nowPs) {
            record(nextPs, intervalPs);
            nextPs += intervalPs;
            if (intervals == maxIntervals) mergePairs();
        }
    }

    /** Closes the series at the end of the traffic: full intervals up to it, then a shorter last one. */
    public void finish(long endPs) {
        sampleUpTo(endPs);
        long start = nextPs - intervalPs;
        if (endPs > start) {
            record(endPs, endPs - start);
            partialEndPs = endPs;
        }
    }

    private void record(long atPs, long lengthPs) {
        int n = ports.length, base = intervals * n;
        if (base + n > bytes.length) grow();
        for (int i = 0; i < n; i++) {
            Port p = ports[i];
            // bytes the link carried: what the port serialised, less what went into the link while it was down
            long b = p.txBytesSerialisedBy(atPs) - p.deadTxBytesSerialisedBy(atPs), ps = p.pausedPsBy(atPs), e = p.ecnMarksSoFar(), c = p.cnpsSoFar();
            bytes[base + i] = b - lastBytes[i];
            paused[base + i] = (float) ((ps - lastPaused[i]) / (double) lengthPs);
            ecn[base + i] = (int) Math.min(Integer.MAX_VALUE, e - lastEcn[i]);
            cnp[base + i] = (int) Math.min(Integer.MAX_VALUE, c - lastCnp[i]);
            queue[base + i] = (int) Math.min(Integer.MAX_VALUE, p.queuedBytes());
            lastBytes[i] = b;
            lastPaused[i] = ps;
            lastEcn[i] = e;
            lastCnp[i] = c;
        }
        intervals++;
    }

    private void grow() {
        int cap = (int) Math.min((long) (maxIntervals + 1) * ports.length, 2L * bytes.length);
        bytes = java.util.Arrays.copyOf(bytes, cap);
        queue = java.util.Arrays.copyOf(queue, cap);
        paused = java.util.Arrays.copyOf(paused, cap);
        ecn = java.util.Arrays.copyOf(ecn, cap);
        cnp = java.util.Arrays.copyOf(cnp, cap);
    }

    /** Halves the series (an even number of intervals): each pair becomes one interval of twice the length. */
    private void mergePairs() {
        int n = ports.length, half = intervals / 2;
        for (int k = 0; k < half; k++) {
            for (int i = 0; i < n; i++) {
                int a = 2 * k * n + i, b = a + n, to = k * n + i;
                bytes[to] = bytes[a] + bytes[b];
                ecn[to] = (int) Math.min(Integer.MAX_VALUE, (long) ecn[a] + ecn[b]);
                cnp[to] = (int) Math.min(Integer.MAX_VALUE, (long) cnp[a] + cnp[b]);
                paused[to] = (paused[a] + paused[b]) / 2;
                queue[to] = queue[b];
            }
        }
        long coveredEnd = nextPs - intervalPs;   // the series covers [0, coveredEnd)
        intervals = half;
        intervalPs *= 2;
        nextPs = coveredEnd + intervalPs;
    }

    // ---- reading --------------------------------------------------------------------------

    public int intervals() { return intervals; }
    public int links() { return ports.length; }
    public long intervalPs() { return intervalPs; }
    public String linkId(int i) { return ids[i]; }

    /** End of interval {@code k}. */
    public long endPs(int k) {
        return k == intervals - 1 && partialEndPs >= 0 ? partialEndPs : (k + 1) * intervalPs;
    }

    /** Length of interval {@code k}: the interval, or less for a shorter last one. */
    public long lengthPs(int k) {
        return endPs(k) - (long) k * intervalPs;
    }

    public long bytes(int k, int i) { return bytes[k * ports.length + i]; }
    public int queueBytes(int k, int i) { return queue[k * ports.length + i]; }
    public double pausedShare(int k, int i) { return paused[k * ports.length + i]; }
    public int ecnMarks(int k, int i) { return ecn[k * ports.length + i]; }
    public int cnps(int k, int i) { return cnp[k * ports.length + i]; }

    /** Bytes of interval {@code k} over what the link's nominal rate carries in it. */
    public double utilisation(int k, int i) {
        return bytes(k, i) * 8.0 * lbsim.engine.Simulation.PS_PER_S / ((double) ports[i].nominalRateBps() * lengthPs(k));
    }
}

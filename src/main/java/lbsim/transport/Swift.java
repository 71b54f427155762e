package lbsim.transport;

/**
 * Swift (Kumar et al., SIGCOMM 2020, §3): delay-based window control. The target delay is a
 * base plus a per-hop allowance plus a flow-scaling term that grows as the window shrinks, so
 * many small flows share a queue fairly. Below target: additive increase of {@code ai} packets
 * per RTT; above: multiplicative decrease proportional to the excess, at most once per RTT and
 * by at most {@code maxMdf}. A window below one packet is enforced by pacing one packet per
 * RTT / cwnd. Constants follow algorithms.md §2.3 (htsim swift.cpp, marked there as guesses).
 */
final class Swift implements CongestionControl {
    static final double AI = 1.0;              // packets per RTT
    static final double BETA = 0.8;
    static final double MAX_MDF = 0.5;
    static final double FS_MIN_CWND = 0.1;     // packets
    static final double FS_MAX_CWND = 100;     // packets
    static final double MIN_CWND = 0.01;       // packets: Swift lets the window fall far below one packet
    static final double MAX_CWND = 1000;       // packets
    static final int RETX_RESET = 5;

    private final int mss;
    private final long lineRateBps;
    private final long baseTargetPs;
    private final long hopAllowancePs;         // hops x h, h = base / 6.55 (htsim)
    private final double fsAlpha;
    private final double fsBeta;
    private final double fsRangePs;
    private double cwnd;                       // packets
    private long srttPs;
    private long lastDecreasePs = Long.MIN_VALUE / 2;
    private int consecutiveTimeouts;
    private final Clock clock;

    /** Where "now" comes from (the QP in a run, a test double in unit tests). */
    interface Clock {
        long now();
    }

    Swift(long initCwndBytes, int mss, long lineRateBps, long baseTargetPs, int switchHops, long baseRttPs, Clock clock) {
        this.mss = mss;
        this.lineRateBps = lineRateBps;
        this.baseTargetPs = baseTargetPs;
        this.hopAllowancePs = Math.round(switchHops * baseTargetPs / 6.55);
        this.fsRangePs = 5.0 * baseTargetPs;
        this.fsAlpha = fsRangePs / (1 / Math.sqrt(FS_MIN_CWND) - 1 / Math.sqrt(FS_MAX_CWND));
        this.fsBeta = -fsAlpha / Math.sqrt(FS_MAX_CWND);
        this.cwnd = clamp(Math.max(1.0, (double) initCwndBytes / mss));
        this.srttPs = Math.max(1, baseRttPs);
        this.clock = clock;
    }

    /** Target delay for the current window (Swift §3.2, Eq. in algorithms.md §2.3). */
    long targetPs() {
        double fs = Math.min(fsRangePs, Math.max(0, fsAlpha / Math.sqrt(cwnd) + fsBeta));
        return baseTargetPs + hopAllowancePs + Math.round(fs);
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return inflightBytes == 0 || inflightBytes + bytes <= cwnd * mss;
    }

    @Override
    public long rateBps() {
        if (cwnd >= 1) return lineRateBps;
        // one packet per srtt / cwnd
        long r = (long) (cwnd * mss * 8.0 * 1e12 / srttPs);
        return Math.max(1, Math.min(lineRateBps, r));
    }

    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {
        if (rttPs <= 0) return;
        consecutiveTimeouts = 0;
        srttPs = (7 * srttPs + rttPs) / 8;
        double acked = (double) ackedBytes / mss;
        long target = targetPs();
        if (rttPs < target) {
            if (acked > 0) cwnd += cwnd >= 1 ? AI * acked / cwnd : AI * acked;
        } else {
            long now = clock.now();
            if (now - lastDecreasePs >= srttPs) {
                double f = Math.max(1 - BETA * (rttPs - target) / rttPs, 1 - MAX_MDF);
                cwnd *= f;
                lastDecreasePs = now;
            }
        }
        cwnd = clamp(cwnd);
    }

    /**
     * A trimmed packet is a loss (Swift §3.1, fast recovery): the window shrinks by the maximum
     * multiplicative decrease, at most once per RTT, sharing the decrease clock of delay cuts.
     */
    @Override
    public void onTrimmed(int wireBytes, long rttPs, long inflightWireBytes) {
        long now = clock.now();
        if (now - lastDecreasePs < srttPs) return;
        cwnd = clamp(cwnd * (1 - MAX_MDF));
        lastDecreasePs = now;
    }

    @Override
    public void onTimeout() {
        consecutiveTimeouts++;
        cwnd = consecutiveTimeouts >= RETX_RESET ? MIN_CWND : clamp(cwnd * (1 - MAX_MDF));
        lastDecreasePs = clock.now();
    }

    @Override
    public long windowBytes() {
        return (long) (cwnd * mss);
    }

    double cwndPackets() {
        return cwnd;
    }

    private static double clamp(double w) {
        return Math.max(MIN_CWND, Math.min(MAX_CWND, w));
    }
}

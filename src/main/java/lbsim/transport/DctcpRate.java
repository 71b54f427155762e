package lbsim.transport;

/**
 * Rate-based DCTCP as the HPCC/ConWeave ns-3 RDMA model runs it ({@code rdma-hw.cc}
 * HandleAckDctcp, algorithms.md §2.1): the NIC paces each QP at a rate, starting at line rate.
 * Once per batch (the packets in flight when the previous batch closed) alpha = (1-g) alpha + g F,
 * F the fraction of the batch's packets that were marked; a marked ACK outside a congestion-window
 * reduction cuts the rate to rate (1 - alpha/2) (not below 100 Mbit/s) and starts a reduction that
 * lasts until everything sent before it is acknowledged; each batch outside a reduction adds
 * 1 Gbit/s (DCTCP_RATE_AI). In flight is capped at the initial window (one BDP), as the ns-3
 * configuration's window does.
 */
final class DctcpRate implements CongestionControl {
    /** HPCC ns-3 configuration: DCTCP_RATE_AI 1000 Mb/s, MIN_RATE 100 Mb/s. */
    static final long RATE_AI_BPS = 1_000_000_000L;
    static final long MIN_RATE_BPS = 100_000_000L;

    private final double g;
    private final long lineRateBps;
    private final long windowBytes;
    private double rateBps;
    private double alpha;
    private long lastUpdateSeq = -1;   // -1 until the first ACK opens the first batch
    private long batchPackets = 1;
    private long markedPackets;
    private boolean reducing;
    private long reduceUntilSeq;

    DctcpRate(long windowBytes, double g, double alpha0, long lineRateBps) {
        this.windowBytes = Math.max(1, windowBytes);
        this.g = g;
        this.alpha = alpha0;
        this.lineRateBps = lineRateBps;
        this.rateBps = lineRateBps;
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return inflightBytes + bytes <= windowBytes || inflightBytes == 0;
    }

    @Override
    public long rateBps() {
        return (long) rateBps;
    }

    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {
        boolean marked = markedBytes > 0;
        if (marked) markedPackets++;
        boolean newBatch = false;
        if (ackSeq > lastUpdateSeq) {
            newBatch = true;
            if (lastUpdateSeq >= 0) {
                double f = Math.min(1.0, (double) markedPackets / batchPackets);
                alpha = (1 - g) * alpha + g * f;
                batchPackets = sndNxt - ackSeq + 1;
            } else {
                batchPackets = sndNxt + 1;
            }
            lastUpdateSeq = sndNxt;
            markedPackets = 0;
        }
        if (reducing && ackSeq > reduceUntilSeq) reducing = false;
        if (marked && !reducing) {
            rateBps = Math.max(MIN_RATE_BPS, rateBps * (1 - alpha / 2));
            reducing = true;
            reduceUntilSeq = sndNxt;
        }
        if (!reducing && newBatch) rateBps = Math.min(lineRateBps, rateBps + RATE_AI_BPS);
    }

    @Override
    public long windowBytes() {
        return windowBytes;
    }

    double alpha() {
        return alpha;
    }
}

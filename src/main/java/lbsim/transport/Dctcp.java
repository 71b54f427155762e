package lbsim.transport;

/**
 * DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257): per window of data, F = marked/acked,
 * alpha = (1-g) alpha + g F; on the first mark in a window cwnd = cwnd (1 - alpha/2), at
 * most once per window; otherwise +1 MSS per window. Starts at one BDP, as RDMA-style
 * DCTCP does (no slow start), and never falls below one MSS. The cut comes at the first marked
 * ACK with the previous window's alpha, as RFC 8257 §3.3 and Linux do, not at the window's end
 * with the updated alpha as algorithms.md §2.1's pseudocode orders it. The first observation
 * window ends at the first ACK ({@code windowEnd} starts at 0), so alpha decays once early.
 */
final class Dctcp implements CongestionControl {
    private final double g;
    private final int mss;
    private final long lineRateBps;
    private double cwnd;
    private double alpha;
    private long windowEnd;          // sequence number that closes the current observation window
    private long ackedInWindow;
    private long markedInWindow;
    private boolean cutInWindow;

    Dctcp(long initCwndBytes, double g, double alpha0, int mss, long lineRateBps) {
        this.cwnd = Math.max(mss, initCwndBytes);
        this.g = g;
        this.alpha = alpha0;
        this.mss = mss;
        this.lineRateBps = lineRateBps;
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return inflightBytes + bytes <= cwnd || inflightBytes == 0;
    }

    @Override
    public long rateBps() {
        return lineRateBps;
    }

    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {
        ackedInWindow += ackedBytes;
        markedInWindow += markedBytes;
        if (markedBytes > 0 && !cutInWindow) {
            cwnd = Math.max(mss, cwnd * (1 - alpha / 2));
            cutInWindow = true;
        } else if (markedBytes == 0) {
            cwnd += (double) mss * ackedBytes / cwnd;
        }
        if (ackSeq >= windowEnd) {
            if (ackedInWindow > 0) {
                double f = Math.min(1.0, (double) markedInWindow / ackedInWindow);
                alpha = (1 - g) * alpha + g * f;
            }
            ackedInWindow = 0;
            markedInWindow = 0;
            cutInWindow = false;
            windowEnd = sndNxt;
        }
    }

    /**
     * A trimmed packet counts as one CE-marked packet of the current observation window: it adds
     * one marked MSS to the window's acknowledged and marked bytes (its alpha update at the
     * window's end) and cuts the window as a marked ACK does, at most once per window.
     */
    @Override
    public void onTrimmed(int wireBytes, long rttPs, long inflightWireBytes) {
        ackedInWindow += mss;
        markedInWindow += mss;
        if (!cutInWindow) {
            cwnd = Math.max(mss, cwnd * (1 - alpha / 2));
            cutInWindow = true;
        }
    }

    @Override
    public void onTimeout() {
        cwnd = mss;
    }

    @Override
    public long windowBytes() {
        return (long) cwnd;
    }

    double alpha() {
        return alpha;
    }
}

package lbsim.transport;

/**
 * No adaptive congestion control: pace at a fixed rate (McClure et al. §3.3: a rate
 * coefficient times the fair-share rate of the traffic matrix). Loss does not change it, and
 * neither does trimming ({@link CongestionControl#onTrimmed} keeps its no-op default).
 */
final class FixedRate implements CongestionControl {
    private final long rateBps;
    private final double jitter;
    private final java.util.SplittableRandom random;   // null without jitter

    FixedRate(long rateBps) {
        this(rateBps, 0, null);
    }

    /**
     * @param jitter each gap between two packets is uniform in [(1 - jitter), (1 + jitter)] x the mean gap, so the
     *               mean rate stays {@code rateBps}; 0 = strictly periodic (McClure's senders). The spread is capped so
     *               that no gap is shorter than the packet's time on the wire: a shorter one would wait for the NIC
     *               and slow the mean rate
     * @param random the QP's own stream (deterministic per seed); unused when jitter is 0
     */
    FixedRate(long rateBps, double jitter, java.util.SplittableRandom random) {
        if (!(jitter >= 0 && jitter <= 1)) throw new IllegalArgumentException("pacing jitter not in [0, 1]: " + jitter);
        this.rateBps = Math.max(1, rateBps);
        this.jitter = jitter;
        this.random = jitter > 0 ? random : null;
    }

    @Override
    public long pacingGapPs(long meanGapPs, long wireTimePs) {
        if (random == null || meanGapPs <= wireTimePs) return meanGapPs;
        double spread = Math.min(jitter, 1 - (double) wireTimePs / meanGapPs);
        return Math.round(meanGapPs * (1 + spread * (2 * random.nextDouble() - 1)));
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return true;
    }

    @Override
    public long rateBps() {
        return rateBps;
    }

    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {}
}

package lbsim.transport;

/**
 * No adaptive congestion control: pace at a fixed rate (McClure et al. §3.3: a rate
 * coefficient times the fair-share rate of the traffic matrix). Loss does not change it, and
 * neither does trimming ({@link CongestionControl#onTrimmed} keeps its no-op default).
 */
final class FixedRate implements CongestionControl {
    private final long rateBps;

    FixedRate(long rateBps) {
        this.rateBps = Math.max(1, rateBps);
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

package lbsim.transport;

/**
 * Rateless erasure coding (McClure §4 and §6): the sender never retransmits; it keeps sending
 * fresh coded packets until the receiver has acknowledged ceil(packets x (1 + overhead)) of
 * them (overhead 0 is the paper's "ideal" coding, 0.05 its pessimistic one). The receiver keeps
 * no per-packet state: it counts the packets that arrive (each coded packet is sent once, so
 * every arrival is distinct) and ACKs the count. Every packet is a new one, so none counts as
 * retransmitted; the coded packets beyond the message are ordinary sent packets (delivered or
 * dropped), so sent = delivered + dropped still holds. For a window-based congestion control
 * the packets in flight are those sent after the newest one ACKed (earlier ones arrived or were
 * lost); a timeout presumes every outstanding packet lost.
 */
final class ErasureRecovery implements LossRecovery {
    private final double overhead;

    ErasureRecovery(double overhead) {
        this.overhead = overhead;
    }

    @Override
    public boolean receiverKeepsOutOfOrder() {
        return false;
    }

    @Override
    public double codingOverhead() {
        return overhead;
    }

    @Override
    public void onNack(QueuePair qp, long expected) {}

    @Override
    public void onTimeout(QueuePair qp) {
        qp.writeOffOutstanding();
    }
}

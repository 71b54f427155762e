package lbsim.transport;

/**
 * Base of the selective-repeat recoveries (IRN, TCP-style, trimming): the receiver keeps
 * out-of-order packets, the sender resends only packets marked lost and never goes back, and a
 * NACK's cumulative sequence alone moves nothing (its SACK is read in {@link #onAck}).
 */
abstract class SelectiveRecovery implements LossRecovery {
    @Override
    public final boolean receiverKeepsOutOfOrder() {
        return true;
    }

    @Override
    public final boolean selective() {
        return true;
    }

    @Override
    public void onNack(QueuePair qp, long expected) {}

    /** Per-packet timers: exactly the packet whose timer expired is resent. */
    @Override
    public void onPacketTimeout(QueuePair qp, long seq) {
        qp.markLost(seq);
    }
}

package lbsim.transport;

/**
 * How a queue pair recovers lost packets. The receiver half is expressed by
 * {@link #receiverKeepsOutOfOrder()}; the sender half reacts to NACKs and timeouts by moving
 * the QP's send pointer. New schemes (IRN selective repeat, TCP dupACK, trimming, erasure
 * coding) implement this interface and register in {@link LossRecoveries}.
 */
public interface LossRecovery {
    /** Whether the receiver buffers packets beyond a gap (selective) or discards them (Go-Back-N). */
    boolean receiverKeepsOutOfOrder();

    /** A NACK reported {@code expected} as the receiver's next in-order sequence. */
    void onNack(QueuePair qp, long expected);

    /** The QP's retransmission timer fired with data outstanding. */
    void onTimeout(QueuePair qp);
}

package lbsim.transport;

import lbsim.net.Packet;

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

    /**
     * Per-packet timers (nic.timer per-packet): packet {@code seq}'s own timer expired. Selective
     * recoveries resend that packet; the others treat it as the QP's timeout.
     */
    default void onPacketTimeout(QueuePair qp, long seq) {
        onTimeout(qp);
    }

    /**
     * Selective repeat: the sender never moves its send pointer back; it resends exactly the
     * packets the scheme marks with {@link QueuePair#markLost}, lowest first, before new data.
     */
    default boolean selective() {
        return false;
    }

    /** Every ACK or NACK, after the QP took its cumulative and SACK information ({@code previousUna}: before it). */
    default void onAck(QueuePair qp, Packet ack, long previousUna) {}

    /** The header of trimmed packet {@code seq} came back (a receiver's NACK or returned to the sender). */
    default void onTrimmed(QueuePair qp, long seq) {}

    /** Receiver: answer an out-of-order packet with a NACK (cumulative ACK + SACK) instead of an ACK. */
    default boolean nackOutOfOrder() {
        return false;
    }

    /** Sender: cap on bytes between the first unacknowledged and the highest sent packet (0 = none). */
    default long inflightCapBytes() {
        return 0;
    }

    /** Retransmission timeout for the QP's current state, given the configured one. */
    default long timeoutPs(QueuePair qp, long configuredPs) {
        return configuredPs;
    }

    /** Erasure coding: the overhead of coded packets the receiver needs; negative = not coded. */
    default double codingOverhead() {
        return -1;
    }
}

package lbsim.transport;

/**
 * Sender-side congestion control of one queue pair: a window (bytes in flight), a pacing
 * rate, or both. Events come from the QP; timers a CC needs go through {@link QueuePair}.
 */
public interface CongestionControl {
    /** Whether a packet of {@code bytes} may be sent with {@code inflightBytes} outstanding. */
    boolean windowAllows(long inflightBytes, int bytes);

    /** Current pacing rate in bits/s (the NIC line rate when the CC does not pace). */
    long rateBps();

    /** Bytes newly acknowledged by one ACK, of which {@code markedBytes} carried CE. */
    void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt);

    /** A congestion notification packet arrived (DCQCN). */
    default void onCnp() {}

    /** The retransmission timer fired. */
    default void onTimeout() {}

    /** Timer callback scheduled through {@link QueuePair#scheduleCcTimer}. */
    default void onTimer(int kind, long token) {}

    /** Congestion window in bytes (Long.MAX_VALUE for pure rate-based CCs), for reporting. */
    default long windowBytes() {
        return Long.MAX_VALUE;
    }
}

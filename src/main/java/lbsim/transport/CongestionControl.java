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

    /**
     * The gap before the QP's next packet, given the mean gap its rate sets and the packet's own time on the wire at
     * line rate (no gap can be shorter); a CC that jitters its pacing draws it here.
     */
    default long pacingGapPs(long meanGapPs, long wireTimePs) {
        return meanGapPs;
    }

    /** Bytes newly acknowledged by one ACK, of which {@code markedBytes} carried CE. */
    void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt);

    /**
     * Every ACK or NACK except a trimmed packet's, after the QP took its information: the bytes
     * on the wire (payload and header) of the packets it newly reports received, cumulatively or
     * selectively; whether it echoes a CE mark; the RTT sample of the packet that triggered it
     * (-1: none, the bytes only count) and whether that packet was a full one (not the flow's short
     * last packet); and the bytes on the wire still in flight. NSCC reads this instead of
     * {@link #onAck}; the others ignore it.
     */
    default void onAckFeedback(long deliveredWireBytes, boolean ecn, long rttPs, boolean fullPacketSample,
                               long inflightWireBytes) {}

    /** Whether {@link #onAckFeedback} does anything: the QP skips computing its arguments per ACK when not. */
    default boolean readsAckFeedback() {
        return false;
    }

    /**
     * The sender learned that one of its outstanding packets was trimmed (a switch cut it to its
     * header): a NACK with the trimmed flag from the receiver, or the header returned to the
     * sender. {@code wireBytes}: the packet's full size on the wire; {@code rttPs}: from its
     * sending to now; {@code inflightWireBytes}: bytes on the wire in flight, the trimmed packet
     * still included. Called once per trimmed packet that was still outstanding. A congestion
     * signal under every congestion control (fixed-rate ignores it).
     */
    default void onTrimmed(int wireBytes, long rttPs, long inflightWireBytes) {}

    /** A congestion notification packet arrived (DCQCN). */
    default void onCnp() {}

    /** The retransmission timer fired. */
    default void onTimeout() {}

    /** Timer callback scheduled through {@link QueuePair#scheduleCcTimer}. */
    default void onTimer(int kind, long token) {}

    /**
     * From now on this CC serves {@code qp}, the next message on the same long-lived QP
     * ({@link QueuePair#continueCongestionControlOf}); a CC that reads its QP (clock, timers) reads this one.
     */
    default void moveTo(QueuePair qp) {}

    /** Congestion window in bytes (Long.MAX_VALUE for pure rate-based CCs), for reporting. */
    default long windowBytes() {
        return Long.MAX_VALUE;
    }
}

package lbsim.transport;

import lbsim.engine.Simulation;

/**
 * Settings of the loss-recovery schemes beyond Go-Back-N (scenario keys in {@code transport}).
 *
 * @param irnRtoLowPs       IRN: the short timeout used while few packets are in flight
 *                          (algorithms.md §3.2: RTO_low 100 us with N = 3)
 * @param dupackThreshold   TCP: duplicate ACKs that trigger fast retransmit (RFC 5681: 3)
 * @param erasureOverhead   erasure: the receiver needs ceil(packets x (1 + overhead)) coded packets
 *                          (McClure §6: 0 for ideal coding, 0.05 pessimistic)
 * @param bdpBytes          IRN: cap on unacknowledged bytes (BDP-FC), the fabric's base BDP
 * @param irnNackInWindow   IRN: NACK (with SACK) every out-of-order arrival, as IRN does; false = ACK those
 *                          within the window normally and NACK only beyond it (Hopper §4.1.1's variant)
 * @param coalesceOutOfOrder the receiver counts a packet kept beyond a gap towards {@code ack_every} as an in-order one
 *                          and ACKs it only then (uet-htsim's UecSink), each ACK selectively acknowledging the kept
 *                          packets in a 64-packet bitmap; false = it ACKs every such packet at once (TCP's duplicate
 *                          ACK, RFC 5681 §4.2), selectively acknowledging that one packet
 */
public record RecoveryParams(long irnRtoLowPs, int dupackThreshold, double erasureOverhead,
                             long bdpBytes, boolean irnNackInWindow, boolean coalesceOutOfOrder) {
    /** IRN: RTO_low applies while at most this many packets are in flight (algorithms.md §3.2: N = 3). */
    public static final int IRN_LOW_RTO_PACKETS = 3;

    /** IRN's NACK on every out-of-order arrival. */
    public RecoveryParams(long irnRtoLowPs, int dupackThreshold, double erasureOverhead, long bdpBytes) {
        this(irnRtoLowPs, dupackThreshold, erasureOverhead, bdpBytes, true);
    }

    /** Every out-of-order arrival ACKed at once. */
    public RecoveryParams(long irnRtoLowPs, int dupackThreshold, double erasureOverhead, long bdpBytes, boolean irnNackInWindow) {
        this(irnRtoLowPs, dupackThreshold, erasureOverhead, bdpBytes, irnNackInWindow, false);
    }

    public static RecoveryParams defaults() {
        return new RecoveryParams(100 * Simulation.PS_PER_US, 3, 0.0, 0);
    }

    public RecoveryParams withBdp(long bdp) {
        return new RecoveryParams(irnRtoLowPs, dupackThreshold, erasureOverhead, bdp, irnNackInWindow, coalesceOutOfOrder);
    }
}

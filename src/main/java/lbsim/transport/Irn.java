package lbsim.transport;

import lbsim.net.Packet;

/**
 * IRN selective repeat (Mittal et al. SIGCOMM 2018; algorithms.md §3.2). The receiver (the NIC's,
 * {@code nic.reorder_window_packets}: IRN's BDP-sized bitmap, or Hopper §4's 30 packets) keeps
 * out-of-order packets up to the window beyond the expected one and answers each with a NACK carrying the cumulative ACK and
 * that packet's sequence (a one-block SACK), or with {@code irn_nack: beyond-window} (Hopper
 * §4.1.1) an ordinary ACK, which still tells the sender the packet arrived but starts no
 * recovery; packets beyond the window are discarded and NACKed without a SACK. The sender treats a packet as lost once a later one was SACKed and resends
 * only those; a NACK without a SACK (the window overflowed) resends every outstanding packet
 * not yet judged and not SACKed. Unacknowledged data is capped at one BDP (BDP-FC), and the
 * timeout is RTO_low while at most N packets are in flight, else the configured one.
 */
final class Irn extends SelectiveRecovery {
    private final RecoveryParams params;
    private long judged; // every packet below this was already resent or found SACKed in this pass

    Irn(RecoveryParams params) {
        this.params = params;
    }

    /** IRN NACKs every out-of-order arrival; Hopper §4.1.1's variant ACKs those within the window "normally". */
    @Override
    public boolean nackOutOfOrder() {
        return params.irnNackInWindow();
    }

    @Override
    public long inflightCapBytes() {
        return params.bdpBytes();
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long previousUna) {
        if (ack.kind != Packet.NACK) return;
        long from = Math.max(judged, qp.sndUna());
        long to = ack.sackSeq >= ack.seq ? ack.sackSeq : qp.highestSent();
        for (long s = from; s < to; s++) qp.markLost(s);
        judged = Math.max(judged, ack.sackSeq >= ack.seq ? ack.sackSeq + 1 : to);
    }

    @Override
    public void onTimeout(QueuePair qp) {
        qp.markOutstandingLost();
        judged = qp.highestSent();
    }

    /** algorithms.md §3.2 (ConWeave's IRN): RTO_low while at most N = 3 packets are outstanding. */
    @Override
    public long timeoutPs(QueuePair qp, long configuredPs) {
        return qp.highestSent() - qp.sndUna() <= RecoveryParams.IRN_LOW_RTO_PACKETS
                ? Math.min(params.irnRtoLowPs(), configuredPs) : configuredPs;
    }
}

package lbsim.transport;

import lbsim.net.Packet;

/**
 * TCP-style loss recovery (algorithms.md §3.3; RFC 5681 fast retransmit, RFC 6582 NewReno
 * partial ACKs): the receiver keeps out-of-order packets and ACKs each one with its cumulative
 * sequence; the threshold-th duplicate ACK resends the first hole, and while in recovery every
 * partial ACK resends the next one. A timeout resends every outstanding packet the receiver has
 * not SACKed. As in McClure §4 recovery only chooses what to send next: it never touches the
 * window or the rate (the congestion control still sees the timeout through its own hook).
 */
final class TcpRecovery extends SelectiveRecovery {
    private final int threshold;
    private int dupacks;
    private boolean inRecovery;
    private long recover; // highest sent when recovery began (NewReno "recover")

    TcpRecovery(int threshold) {
        this.threshold = threshold;
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long previousUna) {
        if (ack.kind != Packet.ACK || ack.trimmed) return;
        long una = qp.sndUna();
        if (una > previousUna) {
            dupacks = 0;
            if (inRecovery) {
                if (una >= recover) inRecovery = false;
                else qp.markLost(una); // partial ACK: the next hole is lost too
            }
        } else if (ack.sackSeq > ack.seq && una < qp.highestSent()) {
            // a duplicate ACK: the receiver got a packet beyond the hole
            if (++dupacks == threshold && !inRecovery) {
                inRecovery = true;
                recover = qp.highestSent();
                qp.markLost(una);
            }
        }
    }

    @Override
    public void onTimeout(QueuePair qp) {
        dupacks = 0;
        inRecovery = false;
        qp.markOutstandingLost();
    }
}

package lbsim.transport;

import lbsim.net.Packet;

/**
 * Selective repeat for a NIC built for multipath (the {@code multipath} profile, as the Ultra
 * Ethernet transport's reliable unordered delivery and NICs with out-of-order placement
 * describe): the receiver keeps every packet and acknowledges each one with a SACK, reordering
 * alone never triggers a resend, and a packet is resent only when its own timer expires, its
 * trimmed header comes back, or the receiver NACKs it beyond a bounded window. Detecting loss
 * from out-of-order counts (UET's OOO-count threshold) is not modelled. A trimmed header and a
 * timeout work as in {@link TrimRecovery}.
 */
final class SackRecovery extends TrimRecovery {
    @Override
    public void onAck(QueuePair qp, Packet ack, long previousUna) {
        // a NACK without a SACK: the receiver's window overflowed and it discarded the packet
        if (ack.kind == Packet.NACK && !ack.trimmed && ack.sackSeq < ack.seq) qp.markOutstandingLost();
    }
}

package lbsim.transport;

/**
 * Packet trimming (NDP, Handley et al. SIGCOMM 2017; McClure §4 "Trim" and "RTS"): a switch
 * that cannot queue a data packet forwards its header at high priority, either on to the
 * receiver, which NACKs exactly that packet, or back to the sender (return-to-sender). The
 * sender resends exactly the trimmed packet; losses that trim nothing (on the wire, or a
 * dropped header) are left to the timeout, which resends every outstanding unSACKed packet.
 * The receiver keeps out-of-order packets. The rate is never changed by recovery.
 */
class TrimRecovery extends SelectiveRecovery {
    @Override
    public void onTrimmed(QueuePair qp, long seq) {
        qp.markLost(seq);
    }

    @Override
    public void onTimeout(QueuePair qp) {
        qp.markOutstandingLost();
    }
}

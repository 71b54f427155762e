package lbsim.transport;

/**
 * RoCE RC recovery (algorithms.md §3.1, as in the HPCC/ConWeave ns-3 RDMA model): the
 * receiver discards out-of-order packets and NACKs the expected sequence; on a NACK or a
 * timeout the sender resends everything from the first unacknowledged packet.
 */
final class GoBackN implements LossRecovery {
    @Override
    public boolean receiverKeepsOutOfOrder() {
        return false;
    }

    @Override
    public void onNack(QueuePair qp, long expected) {
        qp.goBackTo(expected);
    }

    @Override
    public void onTimeout(QueuePair qp) {
        qp.goBackTo(qp.sndUna());
    }
}

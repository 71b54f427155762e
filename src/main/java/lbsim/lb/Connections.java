package lbsim.lb;

import java.util.HashMap;
import java.util.Map;
import lbsim.transport.QueuePair;

/**
 * The newest QP of each {@link Connection}, from which a new QP of the same connection takes
 * over a host scheme's path state. The new QP copies that state when it opens; QPs of one
 * connection that overlap in time then evolve apart, and the newest is the one the next copies.
 */
final class Connections {
    private final Map<Connection, QueuePair> newest = new HashMap<>();

    /** Makes {@code qp} its connection's newest QP; returns the previous newest, or null for the connection's first QP. */
    QueuePair handOver(QueuePair qp) {
        return newest.put(Connection.of(qp), qp);
    }
}

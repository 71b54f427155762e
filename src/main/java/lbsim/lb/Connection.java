package lbsim.lb;

import java.util.List;
import lbsim.transport.QueuePair;

/**
 * The connection a QP belongs to: source, destination, flow group (a collective instance, or a
 * transfer of explicit flows) and the QP's index among its flow's QPs. Consecutive flows of one
 * connection stand for messages an application posts on QPs it keeps open (NCCL's communicator
 * QPs, CTCCL §2.2; the chunks of one transfer in Hopper's testbed, 004 §4.2.1), so a host scheme
 * may carry its path state from one to the next.
 */
record Connection(int src, int dst, int group, int index) {
    /** Values of the keys that choose per-QP or per-connection path state ({@code qp_ports}, {@code state}). */
    static final List<String> SCOPES = List.of("per-qp", "per-connection");

    /** Values of {@code repath}: a scheme moves a QP at once, or only the connection's next QP starts on the new path. */
    static final List<String> REPATH = List.of("within-qp", "between-qps");

    static Connection of(QueuePair qp) {
        return new Connection(qp.src(), qp.dst(), qp.flow().spec().group(), qp.flow().qps().indexOf(qp));
    }
}

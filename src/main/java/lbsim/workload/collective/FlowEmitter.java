package lbsim.workload.collective;

import java.util.HashMap;
import java.util.Map;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;

/**
 * Turns one rank-to-rank transfer into fabric flows of one group, applying the NCCL QP model
 * (reference/algorithms.md §6.6):
 * <ul>
 *   <li>qpsPerConnection 0: one flow, {@code FlowSpec.qps = 0} (the load-balancing scheme decides);</li>
 *   <li>splitDataOnQps (NCCL_IB_SPLIT_DATA_ON_QPS=1, NCCL 2.18/2.19): one flow with
 *       {@code FlowSpec.qps = q}; the transport splits it evenly over q QPs;</li>
 *   <li>round robin (=0, NCCL >= 2.20): the transfer is cut into NCCL messages of
 *       {@code messageBytes}, message m of a connection goes whole to QP (m mod q), and one flow
 *       ({@code qps = 1}) is emitted per QP that gets bytes, carrying all its messages.</li>
 * </ul>
 * A transfer between two ranks on the same host is not a fabric flow: it costs
 * bytes / intraServerGBps as a delay carried by the returned {@link Completion}. A zero-byte
 * transfer emits nothing and passes its dependencies (and gap) through. A flow with no
 * dependencies gets its delay added to {@code startPs} instead of {@code gapPs}.
 *
 * <p>The pieces of one pipelined transfer ({@link #sendPiece}) go out in order, as NCCL posts a
 * connection's messages on its QP (reference/algorithms.md §6.6): a piece's flow also waits
 * until the transfer's previous flow on the same QP lane has been sent ({@code FlowSpec.afterSent};
 * in round robin each QP index is a lane, otherwise the transfer has one).
 */
public final class FlowEmitter {
    private final FlowGraph graph;
    private final int group;
    private final long startPs;
    private final int qpsPerConnection;
    private final boolean splitDataOnQps;
    private final long messageBytes;
    private final double intraServerGBps;
    private final int firstId;
    private final Map<Connection, Integer> nextQp = new HashMap<>();
    private final Map<Lane, Integer> lastOnLane = new HashMap<>();

    private record Connection(int src, int dst, int channel) {}

    /** Where a transfer's pieces queue in order: its QP index in round robin, else -1 (the whole transfer). */
    private record Lane(int instance, int from, int to, String transfer, int qp) {}

    public FlowEmitter(FlowGraph graph, int group, long startPs, int qpsPerConnection, boolean splitDataOnQps,
                       long messageBytes, double intraServerGBps) {
        if (qpsPerConnection < 0) throw new IllegalArgumentException("qpsPerConnection must be >= 0");
        if (messageBytes <= 0) throw new IllegalArgumentException("messageBytes must be > 0");
        this.graph = graph;
        this.group = group;
        this.startPs = startPs;
        this.qpsPerConnection = qpsPerConnection;
        this.splitDataOnQps = splitDataOnQps;
        this.messageBytes = messageBytes;
        this.intraServerGBps = intraServerGBps;
        this.firstId = graph.nextId();
    }

    /**
     * Sends {@code bytes} from {@code srcHost} to {@code dstHost} once {@code deps} is met plus
     * {@code gapPs}; returns the token that is met when the data has arrived.
     */
    public Completion send(int srcHost, int dstHost, long bytes, long gapPs, int channel, String label, Completion deps) {
        return send(srcHost, dstHost, bytes, gapPs, channel, label, null, deps);
    }

    /**
     * As {@link #send}, for piece {@code piece.index()} of a pipelined transfer: its flows also
     * wait until the transfer's previous piece has been sent on their lane. Pieces of one
     * transfer must be sent in index order.
     */
    public Completion sendPiece(int srcHost, int dstHost, long bytes, long gapPs, Piece piece, Completion deps) {
        return send(srcHost, dstHost, bytes, gapPs, piece.channel(), piece.label(), piece, deps);
    }

    private Completion send(int srcHost, int dstHost, long bytes, long gapPs, int channel, String label, Piece piece,
                            Completion deps) {
        if (bytes < 0 || gapPs < 0) throw new IllegalArgumentException("negative bytes or gap");
        long gap = deps.extraGapPs() + gapPs;
        if (bytes == 0) return new Completion(deps.flowIds(), gap);
        if (srcHost == dstHost) return new Completion(deps.flowIds(), gap + Rates.psAtGBps(bytes, intraServerGBps));
        int q = qpsPerConnection;
        if (q <= 1 || splitDataOnQps) {
            return Completion.of(add(srcHost, dstHost, bytes, deps.flowIds(), gap, q, label, piece, lane(piece, -1)));
        }
        return roundRobin(srcHost, dstHost, bytes, gap, channel, label, piece, deps.flowIds());
    }

    private static Lane lane(Piece piece, int qp) {
        return piece == null ? null : new Lane(piece.instance(), piece.from(), piece.to(), piece.transfer(), qp);
    }

    private Completion roundRobin(int src, int dst, long bytes, long gap, int channel, String label, Piece piece, int[] after) {
        int q = qpsPerConnection;
        Connection conn = new Connection(src, dst, channel);
        int first = nextQp.getOrDefault(conn, 0);
        long messages = ByteSplit.piecesOf(bytes, messageBytes);
        long lastMessage = bytes - (messages - 1) * messageBytes;
        long[] perQp = new long[q];
        long fullRounds = messages / q;
        long extraMessages = messages % q;
        for (int i = 0; i < q; i++) {
            long count = fullRounds + (i < extraMessages ? 1 : 0);
            perQp[(first + i) % q] = count * messageBytes;
        }
        int lastQp = (int) ((first + messages - 1) % q);
        perQp[lastQp] -= messageBytes - lastMessage;
        nextQp.put(conn, (int) ((first + messages) % q));
        int[] ids = new int[q];
        int n = 0;
        for (int i = 0; i < q; i++) {
            int qp = (first + i) % q;
            if (perQp[qp] > 0) ids[n++] = add(src, dst, perQp[qp], after, gap, 1, label + " qp" + qp, piece, lane(piece, qp));
        }
        return new Completion(java.util.Arrays.copyOf(ids, n), 0);
    }

    /**
     * A flow without dependencies starts at startPs (the driver ignores its gap), so its delay moves
     * into startPs. On a lane it follows the lane's previous flow once that has been sent.
     */
    private int add(int src, int dst, long bytes, int[] after, long gap, int qps, String label, Piece piece, Lane lane) {
        int id = graph.nextId();
        boolean free = after.length == 0;
        Integer previous = lane == null ? null : lastOnLane.put(lane, id);
        int[] afterSent = previous == null ? FlowSpec.NO_DEPS : new int[] {previous};
        graph.add(new FlowSpec(id, src, dst, bytes, free ? startPs + gap : startPs, after, after.length, free ? 0 : gap,
                group, qps, label, FlowSpec.NO_DEPS, afterSent));
        if (piece != null) graph.tagStep(id, piece.rank(), piece.step());
        return id;
    }

    public int group() {
        return group;
    }

    public int firstId() {
        return firstId;
    }

    /** Flows emitted so far that no other emitted flow depends on: their delivery ends the collective. */
    public int[] sinks() {
        int end = graph.nextId();
        boolean[] needed = new boolean[end - firstId];
        for (int id = firstId; id < end; id++) {
            for (int d : graph.flows().get(id).after()) if (d >= firstId) needed[d - firstId] = true;
        }
        int count = 0;
        for (boolean b : needed) if (!b) count++;
        int[] out = new int[count];
        int at = 0;
        for (int i = 0; i < needed.length; i++) if (!needed[i]) out[at++] = firstId + i;
        return out;
    }
}

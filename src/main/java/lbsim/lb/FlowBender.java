package lbsim.lb;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.net.Packet;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;

/**
 * FlowBender (Kabbani et al., CoNEXT 2014; algorithms.md §1.4): once per RTT round the sender
 * judges its path; a congested round counts, any other resets the count, and after
 * {@code rounds} congested rounds in a row the QP takes a new random UDP source port (the
 * paper's hash input V). A timeout moves the QP at once. The congestion signal is the
 * fraction of the round's delivered packets with ECN marks above {@code threshold}
 * ({@code signal: ecn}, the paper's), or the round's mean RTT above {@code rtt_factor} x the
 * path's unloaded RTT ({@code signal: rtt}, the RTT-inferred variant the Hopper paper uses in
 * its testbed, 004 §4.2.1). A round is the data in flight when it started (one RTT). Packets
 * may arrive out of order across a move; the receiving NIC handles that as its nic.reorder says.
 *
 * <p>With {@code state: per-connection} a new QP of a {@link Connection} starts on the newest QP's
 * port and keeps its count of congested rounds, as a user-space FlowBender posting a transfer's
 * chunks (the Hopper testbed's, 004 §4.2.1) keeps its current path. With {@code repath:
 * between-qps} a move is not made at once but planned: the connection's next QP starts on a new
 * random port (a later move of the same QP draws again), the chunk boundary being where the
 * testbed's version can move; path_switches then counts QPs started on a new port.
 */
public final class FlowBender implements PathPolicy {
    public static final List<String> SIGNALS = List.of("ecn", "rtt");

    private final SplittableRandom random;
    private final boolean rttSignal;
    private final double threshold;
    private final int rounds;
    private final double rttFactor;
    private final Connections connections; // null: per-QP state
    private final boolean betweenQps;
    private long congestionMoves;
    private long timeoutMoves;

    /** Per-QP state: the current round's counters. */
    static final class State {
        long roundEndSeq = -1;
        long basePs;
        int delivered;
        int marked;
        long rttSumPs;
        int rttSamples;
        int congRounds;
        int plannedPort = -1; // where the connection's next QP starts (-1: where this one is)
        boolean plannedOnTimeout;
        boolean superseded; // the connection's next QP has taken over: this one decides nothing more
    }

    public FlowBender(SplittableRandom random, String signal, double threshold, int rounds, double rttFactor) {
        this(random, signal, threshold, rounds, rttFactor, false, false);
    }

    /**
     * {@code perConnection}: a new QP takes over its connection's newest QP's port and round count;
     * {@code betweenQps} (needs {@code perConnection}): moves take effect on the connection's next QP.
     */
    public FlowBender(SplittableRandom random, String signal, double threshold, int rounds, double rttFactor,
                      boolean perConnection, boolean betweenQps) {
        if (betweenQps && !perConnection) throw new IllegalArgumentException("repath between-qps needs per-connection state");
        this.random = random;
        this.rttSignal = signal.equals("rtt");
        this.threshold = threshold;
        this.rounds = rounds;
        this.rttFactor = rttFactor;
        this.connections = perConnection ? new Connections() : null;
        this.betweenQps = betweenQps;
    }

    @Override
    public void initQp(QueuePair qp) {
        State s = new State();
        if (rttSignal) s.basePs = UnloadedRtt.of(qp);
        qp.setSchemeState(s);
        QueuePair prev = connections == null ? null : connections.handOver(qp);
        if (prev == null) {
            qp.setSport(Ecmp.randomPort(random));
            return;
        }
        State p = (State) prev.schemeState();
        p.superseded = true;
        // the chunk boundary ends the old QP's open round: the testbed judges a chunk when it completes, and a chunk
        // sent in one window is one round whose last ACK would only come after this QP has started
        if (p.rttSamples > 0 && endRound(p)) {
            p.plannedPort = Ecmp.otherPort(random, prev.sport());
            p.plannedOnTimeout = false;
        }
        s.congRounds = p.congRounds;
        if (p.plannedPort >= 0 && p.plannedPort != prev.sport()) {
            qp.setSport(p.plannedPort);
            if (p.plannedOnTimeout) timeoutMoves++;
            else congestionMoves++;
        } else {
            qp.setSport(prev.sport());
        }
    }

    @Override
    public boolean spraysPackets() {
        return true;
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long rttPs) {
        if (ack.kind != Packet.ACK) return;
        State s = (State) qp.schemeState();
        if (s.superseded) return;
        if (s.roundEndSeq < 0) s.roundEndSeq = qp.sndNxt();
        if (ack(s, ack.ackedCount, ack.ecnEchoCount, rttPs, qp.sndUna() >= s.roundEndSeq)) move(qp, s, false);
        if (qp.sndUna() >= s.roundEndSeq) s.roundEndSeq = qp.sndNxt();
    }

    /** One ACK; {@code roundOver} when it ends the RTT round. Returns whether the QP should move now. */
    boolean ack(State s, int acked, int marked, long rttPs, boolean roundOver) {
        s.delivered += Math.max(acked, marked);
        s.marked += marked;
        s.rttSumPs += rttPs;
        s.rttSamples++;
        return roundOver && endRound(s);
    }

    /** Judges the round so far and starts the next; returns whether the QP should move. */
    boolean endRound(State s) {
        boolean congested = rttSignal
                ? s.rttSumPs > rttFactor * s.basePs * s.rttSamples
                : s.delivered > 0 && s.marked > threshold * s.delivered;
        s.delivered = s.marked = s.rttSamples = 0;
        s.rttSumPs = 0;
        if (!congested) {
            s.congRounds = 0;
            return false;
        }
        if (++s.congRounds < rounds) return false;
        s.congRounds = 0;
        return true;
    }

    @Override
    public void onTimeout(QueuePair qp) {
        State s = (State) qp.schemeState();
        if (s.superseded) return;
        s.congRounds = 0;
        move(qp, s, true);
    }

    private void move(QueuePair qp, State s, boolean onTimeout) {
        int port = Ecmp.otherPort(random, qp.sport());
        if (betweenQps) {
            s.plannedPort = port;
            s.plannedOnTimeout = onTimeout;
            return;
        }
        if (onTimeout) timeoutMoves++;
        else congestionMoves++;
        qp.setSport(port);
    }

    @Override
    public void addCounters(Map<String, Long> out) {
        out.put("path_switches", congestionMoves + timeoutMoves);
        out.put("timeout_repaths", timeoutMoves);
    }
}

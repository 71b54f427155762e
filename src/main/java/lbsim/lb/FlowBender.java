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
 * may arrive out of order across a move, so the receiver keeps its reorder bitmap.
 */
public final class FlowBender implements PathPolicy {
    public static final List<String> SIGNALS = List.of("ecn", "rtt");

    private final SplittableRandom random;
    private final boolean rttSignal;
    private final double threshold;
    private final int rounds;
    private final double rttFactor;
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
    }

    public FlowBender(SplittableRandom random, String signal, double threshold, int rounds, double rttFactor) {
        this.random = random;
        this.rttSignal = signal.equals("rtt");
        this.threshold = threshold;
        this.rounds = rounds;
        this.rttFactor = rttFactor;
    }

    @Override
    public void initQp(QueuePair qp) {
        State s = new State();
        if (rttSignal) s.basePs = UnloadedRtt.of(qp);
        qp.setSchemeState(s);
        qp.setSport(Ecmp.randomPort(random));
    }

    @Override
    public boolean spraysPackets() {
        return true;
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long rttPs) {
        if (ack.kind != Packet.ACK) return;
        State s = (State) qp.schemeState();
        if (s.roundEndSeq < 0) s.roundEndSeq = qp.sndNxt();
        if (ack(s, ack.ackedCount, ack.ecnEchoCount, rttPs, qp.sndUna() >= s.roundEndSeq)) {
            congestionMoves++;
            move(qp);
        }
        if (qp.sndUna() >= s.roundEndSeq) s.roundEndSeq = qp.sndNxt();
    }

    /** One ACK; {@code roundOver} when it ends the RTT round. Returns whether the QP should move now. */
    boolean ack(State s, int acked, int marked, long rttPs, boolean roundOver) {
        s.delivered += Math.max(acked, marked);
        s.marked += marked;
        s.rttSumPs += rttPs;
        s.rttSamples++;
        if (!roundOver) return false;
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
        timeoutMoves++;
        ((State) qp.schemeState()).congRounds = 0;
        move(qp);
    }

    private void move(QueuePair qp) {
        qp.setSport(Ecmp.otherPort(random, qp.sport()));
    }

    @Override
    public void addCounters(Map<String, Long> out) {
        out.put("path_switches", congestionMoves + timeoutMoves);
        out.put("timeout_repaths", timeoutMoves);
    }
}

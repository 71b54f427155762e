package lbsim.lb;

import java.util.Map;
import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Packet;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;

/**
 * PLB, protective load balancing (Qureshi et al., SIGCOMM 2022; algorithms.md §1.3, from the
 * Linux tcp_plb code): per round the sender computes the fraction of delivered packets that
 * carried ECN marks; a round at or above {@code threshold} is congested, anything below resets
 * the count. After {@code rounds} consecutive congested rounds (or {@code idle_rounds} with
 * nothing in flight) the QP draws a new random UDP source port. A timeout also draws one and
 * suspends congestion repathing for {@code suspend_ms} x U[1, 2).
 *
 * <p>The same class is McClure et al.'s host adaptive flowlets ({@code flowlet-host},
 * McClure §4 "Per-Flowlet LB", "akin to PLB"): a round is a fixed number of delivered
 * packets ({@code round_packets: 10}) and one round with at least 40 % marked packets repaths,
 * so a QP moves at most once per 10 packets. Packets of a QP may arrive out of order across a
 * repath; the receiving NIC handles that as its nic.reorder says.
 */
public final class Plb implements PathPolicy {
    private final SplittableRandom random;
    private final double threshold;
    private final int rounds;
    private final int idleRounds;
    private final int roundPackets;
    private final long suspendPs;
    private long congestionRepaths;
    private long timeoutRepaths;

    /** Per-QP state: the current round's counters and the consecutive congested rounds. */
    static final class State {
        long roundEndSeq = -1;   // RTT rounds: the round ends when this sequence is acknowledged
        int delivered;
        int marked;
        int congRounds;
        long pauseUntilPs = -1;
    }

    /**
     * @param threshold    marked fraction of a round's delivered packets that makes it congested (K)
     * @param rounds       consecutive congested rounds that force a repath (N)
     * @param idleRounds   congested rounds after which a QP with nothing in flight repaths (M; 0 = off)
     * @param roundPackets 0: a round is one RTT (the data in flight when it started); else that many delivered packets
     * @param suspendMs    after a timeout, no congestion repath for this long x U[1, 2)
     */
    public Plb(SplittableRandom random, double threshold, int rounds, int idleRounds, int roundPackets, double suspendMs) {
        this.random = random;
        this.threshold = threshold;
        this.rounds = rounds;
        this.idleRounds = idleRounds;
        this.roundPackets = roundPackets;
        this.suspendPs = Math.round(suspendMs * Simulation.PS_PER_MS);
    }

    @Override
    public void initQp(QueuePair qp) {
        qp.setSchemeState(new State());
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
        if (roundPackets == 0 && s.roundEndSeq < 0) s.roundEndSeq = qp.sndNxt(); // first round: the first window
        boolean idle = qp.sndNxt() == qp.sndUna();
        if (ack(s, ack.ackedCount, ack.ecnEchoCount, qp.sndUna(), idle, qp.now())) {
            congestionRepaths++;
            repath(qp);
        }
        if (roundPackets == 0 && qp.sndUna() >= s.roundEndSeq) s.roundEndSeq = qp.sndNxt();
    }

    /**
     * One ACK covering {@code acked} packets of which {@code marked} were CE-marked; returns
     * whether the QP should repath now. {@code sndUna} ends an RTT round; {@code idle}: nothing in flight.
     */
    boolean ack(State s, int acked, int marked, long sndUna, boolean idle, long now) {
        s.delivered += Math.max(acked, marked);
        s.marked += marked;
        boolean roundOver = roundPackets > 0 ? s.delivered >= roundPackets : sndUna >= s.roundEndSeq;
        if (!roundOver) return false;
        boolean repath = false;
        if (s.delivered > 0) {
            if (s.marked < threshold * s.delivered) {
                s.congRounds = 0;
            } else if (s.congRounds < rounds) {
                s.congRounds++;
            }
            if (s.pauseUntilPs >= 0 && now >= s.pauseUntilPs) s.pauseUntilPs = -1;
            boolean idleOk = idleRounds > 0 && idle && s.congRounds >= idleRounds;
            boolean forceOk = s.congRounds >= rounds;
            if (s.pauseUntilPs < 0 && (idleOk || forceOk)) {
                s.congRounds = 0;
                repath = true;
            }
        }
        s.delivered = 0;
        s.marked = 0;
        return repath;
    }

    @Override
    public void onTimeout(QueuePair qp) {
        State s = (State) qp.schemeState();
        timeoutRepaths++;
        repath(qp);
        s.congRounds = 0;
        if (suspendPs > 0) s.pauseUntilPs = qp.now() + (long) (suspendPs * (1 + random.nextDouble()));
    }

    private void repath(QueuePair qp) {
        qp.setSport(Ecmp.otherPort(random, qp.sport()));
    }

    @Override
    public void addCounters(Map<String, Long> out) {
        out.put("path_switches", congestionRepaths + timeoutRepaths);
        out.put("timeout_repaths", timeoutRepaths);
    }
}

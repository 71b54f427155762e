package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Packet;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * REPS, recycled entropy packet spraying (Bonato et al., arXiv 2407.21625; algorithms.md
 * §1.1, from the UEC htsim and EuroSys artifact code): per packet the sender reuses an
 * entropy whose ACK came back unmarked, oldest first, from a circular cache of B slots;
 * with no fresh entropy it explores a random one of N_EV. Marked ACKs are simply not
 * recycled. A timeout that does not look like congestion (max RTT before it below 1.65x
 * the base RTT, the artifact's no-trimming rule) freezes the cache: no exploration, only
 * cached entropies, until FREEZE_TIME has passed; then it explores EXPLORE_AFTER_FREEZE
 * packets afresh.
 */
public final class Reps implements PathPolicy {
    private final SplittableRandom random;
    private final int slots;
    private final int entropies;
    private final int maxUses;
    private final long freezePs;
    private final int exploreAfterFreeze;

    /** Connection state: the circular entropy cache and the freezing mode. */
    static final class State {
        final int[] ev;
        final boolean[] valid;
        final int[] uses;
        int head;
        int numFresh;
        int count;
        boolean frozen;
        int frozenReadIdx;
        long exitFreezeAtPs;
        int exploreCounter;
        long minRttPs = Long.MAX_VALUE;
        long maxRttSinceTimeoutPs;

        State(int slots) {
            ev = new int[slots];
            valid = new boolean[slots];
            uses = new int[slots];
        }
    }

    public Reps(SplittableRandom random, int slots, int entropies, int maxUses, double freezeMs, int exploreAfterFreeze) {
        this.random = random;
        this.slots = slots;
        this.entropies = entropies;
        this.maxUses = maxUses;
        this.freezePs = Math.round(freezeMs * Simulation.PS_PER_MS);
        this.exploreAfterFreeze = exploreAfterFreeze;
    }

    @Override
    public void initQp(QueuePair qp) {
        qp.setSchemeState(new State(slots));
        qp.setSport(randomPort());
    }

    private int randomPort() {
        return Ecmp.SPORT_MIN + random.nextInt(entropies);
    }

    @Override
    public boolean spraysPackets() {
        return true;
    }

    /** On an idle fabric too, a QP's packets go over different paths (the idle FCT's reference lets each take its own). */
    @Override
    public IdleSplit idleSplit(Transport transport, FlowSpec spec) {
        return PathPolicy.super.idleSplit(transport, spec).withSpraying();
    }

    @Override
    public void beforeSend(QueuePair qp, Packet p) {
        p.sport = nextEntropy((State) qp.schemeState());
    }

    int nextEntropy(State s) {
        if (s.exploreCounter > 0) {
            s.exploreCounter--;
            return randomPort();
        }
        if (s.frozen) {
            if (s.count == 0) return randomPort();
            int idx = s.frozenReadIdx;
            if (s.valid[idx]) {
                s.valid[idx] = false;
                s.numFresh--;
            }
            s.frozenReadIdx = (s.frozenReadIdx + 1) % s.count;
            return s.ev[idx];
        }
        if (s.numFresh == 0) return randomPort();
        int idx = Math.floorMod(s.head - s.numFresh, slots);
        int e = s.ev[idx];
        if (--s.uses[idx] == 0) {
            s.valid[idx] = false;
            s.numFresh--;
        }
        return e;
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long rttPs) {
        feedback((State) qp.schemeState(), ack.sport, ack.kind == Packet.ACK && ack.ecnEchoCount == 0, rttPs, qp.now());
    }

    /** One ACK or NACK: only an unmarked ACK's entropy is recycled. */
    void feedback(State s, int ev, boolean good, long rttPs, long now) {
        if (rttPs > 0) {
            s.minRttPs = Math.min(s.minRttPs, rttPs);
            s.maxRttSinceTimeoutPs = Math.max(s.maxRttSinceTimeoutPs, rttPs);
        }
        exitFreezeIfDue(s, now);
        if (good) add(s, ev);
    }

    @Override
    public void onTimeout(QueuePair qp) {
        timeout((State) qp.schemeState(), qp.now());
    }

    void timeout(State s, long now) {
        boolean notCongestion = s.minRttPs == Long.MAX_VALUE || s.maxRttSinceTimeoutPs < 1.65 * s.minRttPs;
        if (!s.frozen && s.exploreCounter == 0 && notCongestion) {
            s.frozen = true;
            s.exitFreezeAtPs = now + freezePs;
        }
        s.maxRttSinceTimeoutPs = 0;
        exitFreezeIfDue(s, now);
    }

    private void exitFreezeIfDue(State s, long now) {
        if (s.frozen && now > s.exitFreezeAtPs) {
            s.frozen = false;
            java.util.Arrays.fill(s.valid, false);
            s.head = s.count = s.numFresh = s.frozenReadIdx = 0;
            s.exploreCounter = exploreAfterFreeze;
        }
    }

    void add(State s, int ev) {
        if (!s.valid[s.head]) s.numFresh++;
        s.ev[s.head] = ev;
        s.valid[s.head] = true;
        s.uses[s.head] = maxUses;
        s.head = (s.head + 1) % slots;
        s.count = Math.min(s.count + 1, slots);
    }
}

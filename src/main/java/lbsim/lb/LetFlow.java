package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * LetFlow (Vanini et al., NSDI 2017; algorithms.md §1.6): every switch with a choice keeps a
 * flowlet table; a packet that follows its flow's previous packet within {@code gap_us} keeps
 * the flowlet's port, otherwise it starts a new flowlet on a uniformly random next hop. No
 * congestion measurement: flowlets on slow paths break more often and so move away.
 * With an unbounded gap each flow keeps one random path; with gap 0 every packet is sprayed.
 */
public final class LetFlow implements ForwardingStrategy {
    private final Simulation sim;
    private final long gapPs;
    private final SplittableRandom random;
    private final FlowTable table;

    public LetFlow(Simulation sim, double gapUs, SplittableRandom random) {
        this.sim = sim;
        this.gapPs = Math.round(gapUs * Simulation.PS_PER_US);
        this.random = random;
        this.table = new FlowTable(Math.max(EcmpAr.AGE_PS, gapPs));
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        long key = FlowTable.key(p);
        long now = sim.now();
        int port = table.stickyPort(key, candidates, now, gapPs);
        if (port >= 0) return port;
        int out = candidates[random.nextInt(candidates.length)]; // a new flowlet: a random next hop
        table.record(key, out, now);
        return out;
    }
}

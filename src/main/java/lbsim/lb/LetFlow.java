package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Switch;

/**
 * LetFlow (Vanini et al., NSDI 2017; algorithms.md §1.6): every switch with a choice keeps a
 * flowlet table; a packet that follows its flow's previous packet within {@code gap_us} keeps
 * the flowlet's port, otherwise it starts a new flowlet on a uniformly random next hop. No
 * congestion measurement: flowlets on slow paths break more often and so move away.
 * With an unbounded gap each flow keeps one random path; with gap 0 every packet is sprayed.
 */
public final class LetFlow extends FlowletRouting {
    public LetFlow(Simulation sim, double gapUs, SplittableRandom random) {
        super(sim, gapUs, random);
    }

    @Override
    protected int newFlowletPort(Switch sw, long key, int[] candidates) {
        return candidates[random.nextInt(candidates.length)]; // a uniformly random next hop
    }
}

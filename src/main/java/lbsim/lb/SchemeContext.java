package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Switch;
import lbsim.topology.Topology;

/** What a scheme may look at when it is built: the run's randomness and the fabric. */
public record SchemeContext(Simulation sim, Topology topology) {
    public SplittableRandom random(String purpose) {
        return sim.random().stream("lb." + purpose);
    }

    public long switchSeed(Switch sw, String purpose) {
        return sim.random().derive("lb." + purpose + "." + topology.nodeName(sw.id));
    }
}

package lbsim.workload;

import lbsim.transport.FlowSpec;

import java.util.SplittableRandom;

/**
 * Start jitter (McClure et al.: senders of a collective do not start in lock-step; up to one
 * inter-packet time): delays every flow that waits for no other flow by a uniform random
 * amount in [0, maxPs]. Flows with dependencies keep their start rule.
 */
public final class StartJitter {
    private StartJitter() {}

    public static FlowGraph apply(FlowGraph g, long maxPs, SplittableRandom rnd) {
        if (maxPs <= 0) return g;
        FlowGraph out = new FlowGraph();
        for (int k = 0; k < g.groups().size(); k++) out.setTiming(out.addGroup(g.groups().get(k)), g.timing(k));
        for (FlowSpec f : g.flows()) {
            long start = f.startPs();
            if (f.independent()) start += rnd.nextLong(maxPs + 1);
            out.add(new FlowSpec(f.id(), f.src(), f.dst(), f.sizeBytes(), start, f.after(), f.afterCount(), f.gapPs(),
                    f.group(), f.qps(), f.label(), f.afterAcked(), f.afterSent()));
        }
        return out;
    }
}

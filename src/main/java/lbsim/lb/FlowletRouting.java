package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * Switch flowlet routing: a packet that follows its flow's previous packet within {@code gap_us}
 * keeps the flowlet's port; any other packet starts a new flowlet on the port the subclass picks.
 */
abstract class FlowletRouting implements ForwardingStrategy {
    private final Simulation sim;
    private final long gapPs;
    protected final SplittableRandom random;
    protected final FlowTable table;

    FlowletRouting(Simulation sim, double gapUs, SplittableRandom random) {
        this.sim = sim;
        this.gapPs = Math.round(gapUs * Simulation.PS_PER_US);
        this.random = random;
        this.table = new FlowTable(Math.max(EcmpAr.AGE_PS, gapPs));
    }

    @Override
    public boolean splitsFlows() {
        return true; // a new flowlet may leave on another port while the last one still queues
    }

    @Override
    public final int choose(Switch sw, Packet p, int[] candidates) {
        long key = FlowTable.key(p);
        long now = sim.now();
        int sticky = table.stickyPort(key, candidates, now, gapPs);
        if (sticky >= 0) return sticky;
        int out = newFlowletPort(sw, key, candidates);
        table.record(key, out, now);
        return out;
    }

    /** The port of a new flowlet of the flow with table key {@code key}. */
    protected abstract int newFlowletPort(Switch sw, long key, int[] candidates);
}

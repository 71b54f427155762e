package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * In-switch adaptive flowlet routing (McClure et al. §4 "flowlet AR"): the switch tracks the
 * flows active in the last x = {@code gap_us} microseconds; a flow's first packet, and any
 * packet that follows a gap longer than x, goes to the next hop with the fewest egress bytes
 * (the flow's current port when it is among them, else a random one of them); packets within
 * x of the previous one keep the port.
 */
public final class FlowletSwitch implements ForwardingStrategy {
    private final Simulation sim;
    private final long gapPs;
    private final SplittableRandom random;
    private final FlowTable table;
    private long[] loads = new long[16];

    public FlowletSwitch(Simulation sim, double gapUs, SplittableRandom random) {
        this.sim = sim;
        this.gapPs = Math.round(gapUs * Simulation.PS_PER_US);
        this.random = random;
        this.table = new FlowTable(Math.max(EcmpAr.AGE_PS, gapPs));
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        long key = FlowTable.key(p);
        long now = sim.now();
        int sticky = table.stickyPort(key, candidates, now, gapPs);
        if (sticky >= 0) return sticky;
        int current = table.portOf(key);
        int n = candidates.length;
        if (loads.length < n) loads = new long[Math.max(n, 2 * loads.length)];
        long min = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            long l = sw.egressBytes(candidates[i]);
            loads[i] = l;
            if (l < min) min = l;
        }
        int out = -1;
        for (int i = 0; i < n; i++) {
            if (candidates[i] == current && loads[i] == min) out = current;
        }
        if (out < 0) out = candidates[EcmpAr.leastLoaded(loads, n, random)];
        table.record(key, out, now);
        return out;
    }
}

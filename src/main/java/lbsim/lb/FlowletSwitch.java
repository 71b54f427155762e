package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Switch;

/**
 * In-switch adaptive flowlet routing (McClure et al. §4 "flowlet AR"; Broadcom/Juniper DLB flowlet
 * mode): the switch tracks the flows active in the last x = {@code gap_us} microseconds; a flow's
 * first packet, and any packet that follows a gap longer than x, goes to a next hop of the least
 * load band ({@link Switch#arLoad}; exact egress bytes with {@code switch.ar_levels: 0}): the flow's
 * current port when it is among them, as DLB keeps a flow whose link is still optimal, else one of
 * them uniformly at random; packets within x of the previous one keep the port.
 */
public final class FlowletSwitch extends FlowletRouting {
    private long[] loads = new long[16];

    public FlowletSwitch(Simulation sim, double gapUs, SplittableRandom random) {
        super(sim, gapUs, random);
    }

    @Override
    protected int newFlowletPort(Switch sw, long key, int[] candidates) {
        int current = table.portOf(key);
        int n = candidates.length;
        if (loads.length < n) loads = new long[Math.max(n, 2 * loads.length)];
        long min = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            long l = sw.arLoad(candidates[i]);
            loads[i] = l;
            if (l < min) min = l;
        }
        for (int i = 0; i < n; i++) {
            if (candidates[i] == current && loads[i] == min) return current;
        }
        return candidates[LeastLoaded.index(loads, n, random)];
    }
}

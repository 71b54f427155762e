package lbsim.lb;

import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * DRILL (Ghorbani et al., SIGCOMM 2017; algorithms.md §1.7): per packet, sample d distinct random
 * candidates (all of them when d is at least the group size), add the m remembered best ports,
 * send to the one with the least egress bytes, remember it. Defaults DRILL(d = 2, m = 1).
 * Memory is kept per candidate group (a switch's next-hop set toward a destination ToR), not per
 * destination address as in ConWeave's ns-3 DRILL: flows to hosts under one ToR share it.
 */
public final class Drill implements ForwardingStrategy {
    private final int d;
    private final SplittableRandom random;
    private final java.util.IdentityHashMap<int[], Integer> memory = new java.util.IdentityHashMap<>();
    /** Scratch for the partial Fisher-Yates shuffle: the identity permutation between calls. */
    private int[] order = new int[0];
    private int[] swapped = new int[0];
    private IntToLongFunction egressLoad;   // the owning switch's egress bytes per port

    public Drill(int d, SplittableRandom random) {
        this.d = d;
        this.random = random;
    }

    @Override
    public boolean splitsFlows() {
        return true; // per packet
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        // one instance per switch: its load reader is made once, not per packet
        if (egressLoad == null) egressLoad = sw::egressBytes;
        return pick(candidates, egressLoad);
    }

    /** The remembered port and d distinct random candidates (§1.7), least {@code load} first-seen on ties. */
    int pick(int[] candidates, IntToLongFunction load) {
        int n = candidates.length;
        if (order.length < n) {
            order = new int[n];
            for (int i = 0; i < n; i++) order[i] = i;
        }
        int k = Math.min(d, n);
        if (swapped.length < k) swapped = new int[k];
        Integer remembered = memory.get(candidates);
        int best = -1;
        long bestLoad = Long.MAX_VALUE;
        if (remembered != null) {
            best = remembered;
            bestLoad = load.applyAsLong(best);
        }
        for (int i = 0; i < k; i++) { // partial Fisher-Yates: the first k of a random permutation
            int j = i + random.nextInt(n - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
            swapped[i] = j;
            int c = candidates[order[i]];
            long l = load.applyAsLong(c);
            if (l < bestLoad) {
                best = c;
                bestLoad = l;
            }
        }
        for (int i = k - 1; i >= 0; i--) { // undo, back to the identity
            int j = swapped[i];
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        memory.put(candidates, best);
        return best;
    }
}

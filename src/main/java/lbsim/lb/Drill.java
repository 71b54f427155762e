package lbsim.lb;

import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * DRILL (Ghorbani et al., SIGCOMM 2017; algorithms.md §1.7): per packet, sample d distinct random
 * candidates (all of them when d is at least the group size), add the m remembered best ports,
 * send to the one of least load, remember it. Defaults DRILL(d = 2, m = 1). The load is the switch's
 * adaptive-routing load ({@link Switch#arLoad}): egress bytes quantised into {@code switch.ar_levels}
 * bands, as an ASIC reads its port quality, the port then drawn uniformly among the compared ports
 * of the least band; with {@code ar_levels: 0} exact egress bytes, the remembered port winning ties
 * and then the first sample of least bytes (the paper's comparison).
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
    private IntToLongFunction egressLoad;   // the owning switch's adaptive-routing load per port
    private boolean uniformTies;            // quantised loads: ties drawn uniformly

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
        if (egressLoad == null) {
            egressLoad = sw::arLoad;
            uniformTies = sw.arQuantised();
        }
        return pick(candidates, egressLoad, uniformTies);
    }

    /**
     * The remembered port and d distinct random candidates (§1.7), least {@code load}; on ties the
     * first seen (the remembered port, then the samples in drawn order), or with {@code uniformTies}
     * one of the tied ports uniformly at random (each port counted once).
     */
    int pick(int[] candidates, IntToLongFunction load, boolean uniformTies) {
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
        int ties = 0;
        if (remembered != null) {
            best = remembered;
            bestLoad = load.applyAsLong(best);
            ties = 1;
        }
        for (int i = 0; i < k; i++) { // partial Fisher-Yates: the first k of a random permutation
            int j = i + random.nextInt(n - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
            swapped[i] = j;
            int c = candidates[order[i]];
            if (remembered != null && c == remembered) continue; // already compared
            long l = load.applyAsLong(c);
            if (l < bestLoad) {
                best = c;
                bestLoad = l;
                ties = 1;
            } else if (uniformTies && l == bestLoad && random.nextInt(++ties) == 0) {
                best = c;
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

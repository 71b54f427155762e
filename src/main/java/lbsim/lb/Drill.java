package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * DRILL (Ghorbani et al., SIGCOMM 2017; algorithms.md §1.7): per packet, sample d random
 * candidates, add the m remembered best ports, send to the one with the least egress bytes,
 * remember it. Defaults DRILL(d = 2, m = 1). Memory is kept per candidate group.
 */
public final class Drill implements ForwardingStrategy {
    private final int d;
    private final SplittableRandom random;
    private final java.util.IdentityHashMap<int[], Integer> memory = new java.util.IdentityHashMap<>();

    public Drill(int d, SplittableRandom random) {
        this.d = d;
        this.random = random;
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        Integer remembered = memory.get(candidates);
        int best = remembered != null ? remembered : candidates[random.nextInt(candidates.length)];
        long bestLoad = sw.egressBytes(best);
        for (int i = 0; i < d; i++) {
            int c = candidates[random.nextInt(candidates.length)];
            long load = sw.egressBytes(c);
            if (load < bestLoad) {
                best = c;
                bestLoad = load;
            }
        }
        memory.put(candidates, best);
        return best;
    }
}

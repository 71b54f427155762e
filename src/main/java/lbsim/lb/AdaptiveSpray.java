package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * Switch adaptive spraying (McClure et al. §4): each packet goes to the equal-cost next hop
 * with the fewest egress bytes; ties are broken at random so idle ports share the load.
 */
public final class AdaptiveSpray implements ForwardingStrategy {
    private final SplittableRandom random;

    public AdaptiveSpray(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public boolean splitsFlows() {
        return true; // per packet
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        int start = random.nextInt(candidates.length);
        int best = candidates[start];
        long bestLoad = sw.egressBytes(best);
        for (int i = 1; i < candidates.length; i++) {
            int c = candidates[(start + i) % candidates.length];
            long load = sw.egressBytes(c);
            if (load < bestLoad) {
                best = c;
                bestLoad = load;
            }
        }
        return best;
    }
}

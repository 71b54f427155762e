package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * Switch adaptive spraying (McClure et al. §4), per-packet adaptive routing as switch ASICs do it
 * (Broadcom DLB's per-packet "optimal" mode): each packet goes to an equal-cost next hop of the best
 * load band ({@link Switch#arLoad}: egress bytes quantised into {@code switch.ar_levels} bands),
 * uniformly at random among the ports in that band.
 *
 * <p>With {@code ar_levels: 0} it compares exact egress bytes, as before the bands: the first port of
 * fewest bytes in the candidate order rotated by a random start. Exact bytes phase-lock periodic
 * senders (every switch makes the same strict choice in step); the bands leave the choice to chance
 * among ports that are about equally loaded.
 */
public final class AdaptiveSpray implements ForwardingStrategy {
    private final SplittableRandom random;
    private long[] loads = new long[16];

    public AdaptiveSpray(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public boolean splitsFlows() {
        return true; // per packet
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        if (!sw.arQuantised()) return exact(sw, candidates);
        int n = candidates.length;
        if (loads.length < n) loads = new long[Math.max(n, 2 * loads.length)];
        for (int i = 0; i < n; i++) loads[i] = sw.arLoad(candidates[i]);
        return candidates[LeastLoaded.index(loads, n, random)];
    }

    /** ar_levels 0: fewest exact egress bytes, the first such port from a random start. */
    private int exact(Switch sw, int[] candidates) {
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

package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * ECMP with adaptive routing at flow start (McClure et al. §4 "ECMP AR", Table 1: switch,
 * local state, flow granularity): on a flow's first packet the switch hashes the 5-tuple as
 * ECMP does; if the hashed port holds more than {@code threshold_bytes} it pins the flow to one
 * of the ports with the fewest egress bytes (ties at random) instead. Later packets follow the
 * pinned port; a flow whose port left the group (detected failure) is decided again.
 *
 * <p>The hash and the hosts' source ports are ECMP's own (same named streams and per-switch
 * seeds), so with an unreachable threshold this scheme is ECMP packet for packet.
 */
public final class EcmpAr implements ForwardingStrategy {
    /** Flow-table entries idle this long may be dropped (the flow is then new again). */
    static final long AGE_PS = 10 * Simulation.PS_PER_MS;

    private final Simulation sim;
    private final long seed;
    private final long thresholdBytes;
    private final SplittableRandom random;
    private final FlowTable table = new FlowTable(AGE_PS);
    private long[] loads = new long[16];

    public EcmpAr(Simulation sim, long seed, long thresholdBytes, SplittableRandom random) {
        this.sim = sim;
        this.seed = seed;
        this.thresholdBytes = thresholdBytes;
        this.random = random;
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        long key = FlowTable.key(p);
        long now = sim.now();
        int pinned = table.stickyPort(key, candidates, now, Long.MAX_VALUE);
        if (pinned >= 0) return pinned;
        int n = candidates.length;
        if (loads.length < n) loads = new long[Math.max(n, 2 * loads.length)];
        for (int i = 0; i < n; i++) loads[i] = sw.egressBytes(candidates[i]);
        int hashed = EcmpHash.bucket(EcmpHash.hash(seed, p), n);
        int out = candidates[pick(loads, n, hashed, thresholdBytes, random)];
        table.record(key, out, now);
        return out;
    }

    /**
     * The decision at a flow's first packet: the hashed index if its load is at most the
     * threshold, else an index of least load chosen uniformly among ties.
     */
    static int pick(long[] loads, int n, int hashed, long threshold, SplittableRandom random) {
        if (loads[hashed] <= threshold) return hashed;
        return leastLoaded(loads, n, random);
    }

    /** Uniform choice among the indices of least load (reservoir sampling over ties). */
    static int leastLoaded(long[] loads, int n, SplittableRandom random) {
        int best = 0;
        long min = loads[0];
        int ties = 1;
        for (int i = 1; i < n; i++) {
            long l = loads[i];
            if (l < min) {
                min = l;
                best = i;
                ties = 1;
            } else if (l == min && random.nextInt(++ties) == 0) {
                best = i;
            }
        }
        return best;
    }
}

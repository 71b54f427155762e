package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/**
 * ECMP with adaptive routing at flow start (McClure et al. §4 "ECMP AR", Table 1: switch,
 * local state, flow granularity): on a flow's first packet the switch hashes the 5-tuple as
 * ECMP does; if the hashed port holds more than {@code threshold_bytes} (exact egress bytes) it pins
 * the flow to a port of the least load band instead ({@link Switch#arLoad}: egress bytes quantised
 * into {@code switch.ar_levels} bands, exact bytes with 0), uniformly at random among them. Later
 * packets follow the pinned port; a flow whose port left the group (detected failure) is decided again.
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
        int hashed = EcmpHash.bucket(EcmpHash.hash(seed, p), n);
        long hashedBytes = sw.egressBytes(candidates[hashed]);
        if (hashedBytes > thresholdBytes) {
            for (int i = 0; i < n; i++) loads[i] = sw.arLoad(candidates[i]);
        }
        int out = candidates[pick(hashedBytes, loads, n, hashed, thresholdBytes, random)];
        table.record(key, out, now);
        return out;
    }

    /**
     * The decision at a flow's first packet: the hashed index if its egress bytes are at most the
     * threshold, else an index of least {@code loads} (adaptive-routing loads) chosen uniformly among ties.
     */
    static int pick(long hashedBytes, long[] loads, int n, int hashed, long threshold, SplittableRandom random) {
        if (hashedBytes <= threshold) return hashed;
        return LeastLoaded.index(loads, n, random);
    }
}

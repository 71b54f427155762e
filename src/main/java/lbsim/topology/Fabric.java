package lbsim.topology;

import lbsim.engine.Simulation;

/** Fabric-wide constants derived from a topology: longest path latency and base RTT. */
public final class Fabric {
    private Fabric() {}

    /**
     * Links on the longest shortest host-to-host path (2 in one ToR, 4 leaf-spine, 6 fat-tree): the two
     * NIC links and the switch hops between the ToRs farthest apart (of any fabric, a file's included).
     */
    public static int maxHops(Topology t) {
        return t.routing().maxTorHops() + 2;
    }

    /** Propagation over the longest path, using the slowest-latency link as a bound per hop. */
    static long maxOneWayLatencyPs(Topology t) {
        long lat = 0;
        for (int p = 0; p < t.portCount(); p++) lat = Math.max(lat, t.portLatencyPs(p));
        return lat * maxHops(t);
    }

    /** Data packet out, ACK back, over the longest path, with store-and-forward at {@code nicRateBps} (the sender's NIC). */
    public static long baseRttPs(Topology t, int dataWireBytes, int ackWireBytes, long nicRateBps) {
        int hops = maxHops(t);
        // exact also for a 1 MiB MTU with a large header and ACK (bytes x 8e12 passes a long)
        long ser = Simulation.serialisationPs(dataWireBytes + (long) ackWireBytes, nicRateBps);
        return 2 * maxOneWayLatencyPs(t) + hops * ser;
    }

    /**
     * An upper bound on every path's unloaded RTT: the longest path with each hop at the fabric's
     * largest latency and slowest link rate (a slow uplink under fast NICs serialises a packet for
     * longer than the NIC does). Swift's default base target, which an idle path must not exceed.
     */
    public static long maxUnloadedRttPs(Topology t, int dataWireBytes, int ackWireBytes) {
        long slowest = Long.MAX_VALUE;
        for (int p = 0; p < t.portCount(); p++) slowest = Math.min(slowest, t.portRateBps(p));
        return baseRttPs(t, dataWireBytes, ackWireBytes, slowest);
    }

    /**
     * Bytes a round trip of {@code rttPs} holds at {@code rateBps}: rtt x rate / 8, rounded down,
     * at most Long.MAX_VALUE / 4 (ParaLet's 4·BDP must fit); exact, see {@link Simulation#bytesAtRate}
     * (a wrapped-around product once gave a 2-packet window).
     */
    public static long bdpBytes(long rttPs, long rateBps) {
        return Simulation.bytesAtRate(rttPs, rateBps);
    }
}

package lbsim.metrics;

import lbsim.topology.Topology;

/**
 * A flow's completion time alone on an idle fabric, in picoseconds: the reference of the FCT
 * slowdown (Hopper §4.1: "baseline completion time in an unloaded network").
 *
 * <p>The flow is cut into n packets of {@code mtu} payload (the last one shorter) plus
 * {@code header} bytes each, sent back to back by the NIC over the path's H links (the
 * NIC link, then the switch egress ports of routing path 0), each link h with rate R_h and
 * propagation delay L_h, store-and-forward at every switch. With s_h(x) = 8 x / R_h, P =
 * mtu + header and l = last payload + header, the last byte arrives at
 *
 * <pre>
 *   n = 1:  FCT = sum_h s_h(l) + sum_h L_h
 *   n > 1:  FCT = max over k of [ sum_{h<=k} s_h(P) + (n-2) max_{h<=k} s_h(P) + sum_{h>=k} s_h(l) ] + sum_h L_h
 * </pre>
 *
 * the longest path through the tandem of links (packets 0..n-2 full, packet n-1 short; k is
 * the hop where the last packet stops queueing behind the full ones). With equal rates it is
 * (n-1) s(P) + s(l) + (H-1) s(P) + H L: serialisation at the NIC, store-and-forward of one
 * packet per further hop, propagation over every link (DESIGN.md's lone-flow rule).
 */
public final class IdleFct {
    private IdleFct() {}

    public static double ps(Topology topo, int src, int dst, long sizeBytes, int mtu, int header) {
        int[] sw = topo.routing().pathPorts(src, dst, 0);
        int hops = sw.length + 1;
        long[] rate = new long[hops];
        long lat = topo.pathLatencyPs(src, dst);
        rate[0] = topo.portRateBps(topo.hostPort(src));
        for (int i = 0; i < sw.length; i++) rate[i + 1] = topo.portRateBps(sw[i]);
        long n = (sizeBytes + mtu - 1) / mtu;
        long last = sizeBytes - (n - 1) * mtu + header;
        long full = (long) mtu + header;
        double[] sLast = new double[hops];
        double[] sFull = new double[hops];
        for (int h = 0; h < hops; h++) {
            sLast[h] = last * 8e12 / rate[h];
            sFull[h] = full * 8e12 / rate[h];
        }
        double best;
        if (n == 1) {
            best = 0;
            for (double x : sLast) best += x;
        } else {
            double[] suffixLast = new double[hops + 1];
            for (int h = hops - 1; h >= 0; h--) suffixLast[h] = suffixLast[h + 1] + sLast[h];
            best = 0;
            double prefixFull = 0, maxFull = 0;
            for (int k = 0; k < hops; k++) {
                prefixFull += sFull[k];
                maxFull = Math.max(maxFull, sFull[k]);
                best = Math.max(best, prefixFull + (n - 2) * maxFull + suffixLast[k]);
            }
        }
        return best + lat;
    }
}

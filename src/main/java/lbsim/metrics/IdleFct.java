package lbsim.metrics;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import lbsim.topology.Routing;
import lbsim.topology.Topology;
import lbsim.transport.IdleSplit;

/**
 * A flow's completion time alone on an idle fabric, in picoseconds: the reference of the FCT
 * slowdown (Hopper §4.1: "baseline completion time in an unloaded network").
 *
 * <p>One QP: the flow is cut into n packets of {@code mtu} payload (the last one shorter) plus
 * {@code header} bytes each, sent back to back by the NIC over the path's H links (the
 * NIC link, then the switch egress ports of a shortest path; per hop the fastest rate and least
 * propagation any equal-cost path has there, Routing.bestPath, so it bounds every path), each link h with rate R_h and
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
 *
 * <p>Several QPs, paced QPs or sprayed packets ({@link IdleSplit}, as the scheme sends the flow):
 * a scheme that splits a flow sends smaller packets, more of them short, which pipeline through
 * the switches faster than one QP's, so the one-QP formula would overstate the idle FCT (a
 * slowdown below 1). Then the same tandem is evaluated packet by packet, in integer picoseconds
 * as the simulator rounds: the NIC sends the streams' packets round-robin, each as soon as the
 * NIC is free and its stream's pacing allows (a stream waits 8 x wire / cap after each packet's
 * start, as QueuePair paces; the first stream's first packet starts before the other streams
 * join the ring, as in Host); each stream then has the middle links to itself (FIFO among its
 * own packets; none when sprayed) and all packets meet again, in order of arrival, at the last
 * link into the destination. Streams that share a middle link in the run can only wait more
 * there, so this is a lower bound whichever paths the streams take (at the best path's rates);
 * it is exact when their middle links are disjoint, and in practice when the NIC is the
 * bottleneck (equal rates: SplitIdleFctTest). For one QP it is the formula above.
 */
public final class IdleFct {
    private IdleFct() {}

    public static double ps(Topology topo, int src, int dst, long sizeBytes, int mtu, int header) {
        Routing.PathBound best = topo.routing().bestPath(src, dst);
        return ps(best.ratesBps(), best.latencyPs(), sizeBytes, mtu, header);
    }

    /** The one-QP formula over links of these rates (the NIC's first) and total propagation {@code lat}. */
    static double ps(long[] rate, long lat, long sizeBytes, int mtu, int header) {
        int hops = rate.length;
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

    /** The idle FCT of a flow sent as {@code split}; for one QP exactly {@link #ps(Topology, int, int, long, int, int)}. */
    public static double ps(Topology topo, int src, int dst, IdleSplit split, int mtu, int header) {
        return new Memo(topo, mtu, header).ps(src, dst, split);
    }

    /**
     * The idle FCTs of one run's flows. The packet-by-packet evaluation costs time in the flow's
     * packets, so flows that are sent alike (same split) over paths with the same rates and
     * propagation (all cross-spine pairs of a symmetric fabric: a collective's flows of a step)
     * share one evaluation.
     */
    public static final class Memo {
        private final Topology topo;
        private final int mtu;
        private final int header;
        private final Map<Key, Double> known = new HashMap<>();

        private record Key(IdleSplit split, long latPs, List<Long> rates, List<Integer> links) {}

        public Memo(Topology topo, int mtu, int header) {
            this.topo = topo;
            this.mtu = mtu;
            this.header = header;
        }

        public double ps(int src, int dst, IdleSplit split) {
            Routing.PathBound best = topo.routing().bestPath(src, dst);
            long[] rate = best.ratesBps();
            long lat = best.latencyPs();
            if (split.isSingleQp()) return IdleFct.ps(rate, lat, split.streams()[0][0], mtu, header);
            int[] links = best.links();
            return known.computeIfAbsent(new Key(split, lat, Arrays.stream(rate).boxed().toList(), Arrays.stream(links).boxed().toList()),
                    k -> Math.max(streamsPs(rate, lat, split, mtu, header), cutPs(rate, links, lat, split, mtu, header)));
        }
    }

    /**
     * The packet-by-packet evaluation over links of these rates (the NIC's first, the last one into
     * the destination) and total propagation {@code latPs}. Propagation is the same for every
     * packet, so it is added once at the end; times before that are serialisation and queueing only.
     */
    static double streamsPs(long[] rate, long latPs, IdleSplit split, int mtu, int header) {
        long[][] streams = split.streams();
        int hops = rate.length;
        long[][] wire = new long[streams.length][];
        int total = 0;
        for (int i = 0; i < streams.length; i++) {
            wire[i] = packets(streams[i], mtu, header);
            total += wire[i].length;
        }
        long pace = split.capBps() > 0 && split.capBps() < rate[0] ? split.capBps() : 0;
        // NIC: ready streams in order of readiness (the round-robin ring), each with its next packet
        PriorityQueue<long[]> ready = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        ready.add(new long[] {0, 0, 0}); // {ready at, ring position, stream}
        long ring = 1;
        int[] next = new int[streams.length];
        long[][] leftHop = new long[streams.length][hops]; // when the stream's previous packet left each middle link
        long[] arrival = new long[total];                   // at the last link
        long[] arrivalWire = new long[total];
        long nicFree = 0;
        for (int k = 0; k < total; k++) {
            long[] e = ready.poll();
            int i = (int) e[2];
            long w = wire[i][next[i]++];
            long start = Math.max(e[0], nicFree);
            long t = start + serialisationPs(w, rate[0]);
            nicFree = t;
            for (int h = 1; h < hops - 1; h++) {
                if (!split.sprayed()) t = Math.max(t, leftHop[i][h]);
                t += serialisationPs(w, rate[h]);
                leftHop[i][h] = t;
            }
            arrival[k] = t;
            arrivalWire[k] = w;
            // back in the ring at once, or when the pacer lets it send again (QueuePair's nextSendPs)
            if (next[i] < wire[i].length) ready.add(new long[] {pace > 0 ? start + w * 8_000_000_000_000L / pace : start, ring++, i});
            // the idle NIC starts the first QP's packet as soon as that QP starts, before the
            // others join the ring, so the first stream is one packet ahead of the rest
            if (k == 0) for (int j = 1; j < streams.length; j++) ready.add(new long[] {0, ring++, j});
        }
        if (hops == 1) return nicFree + latPs;
        // last link: first come, first served (ties in NIC order)
        Integer[] order = new Integer[total];
        for (int k = 0; k < total; k++) order[k] = k;
        Arrays.sort(order, (a, b) -> arrival[a] != arrival[b] ? Long.compare(arrival[a], arrival[b]) : Integer.compare(a, b));
        long done = 0;
        for (int k : order) done = Math.max(done, arrival[k]) + serialisationPs(arrivalWire[k], rate[hops - 1]);
        return done + latPs;
    }

    /**
     * A bound that holds whatever paths the packets take, so also for a flow on several paths at
     * once: every packet crosses every hop h, on one of its {@code links[h]} links (each at most
     * the hop's fastest rate), no packet reaches h before the smallest packet could have crossed the
     * hops before it, and the packet that crosses h last still has the hops after it to cross. So
     * the flow takes at least, for every h, its serialisation time at h shared over the links of h,
     * plus the smallest packet's time over the other hops, plus the propagation. Where the NIC is
     * faster than the fabric, the streams evaluation lets every sprayed packet have a middle link
     * of its own (a lone sprayed flow from a 400G NIC over two 10G uplinks had slowdown 6.1); this
     * bound charges the hop's real parallel capacity (two uplinks: 20G).
     */
    static double cutPs(long[] rate, int[] links, long latPs, IdleSplit split, int mtu, int header) {
        int hops = rate.length;
        long minWire = Long.MAX_VALUE;
        for (long[] s : split.streams()) for (long w : packets(s, mtu, header)) minWire = Math.min(minWire, w);
        long[] sMin = new long[hops];
        long sumMin = 0;
        for (int h = 0; h < hops; h++) {
            sMin[h] = serialisationPs(minWire, rate[h]);
            sumMin += sMin[h];
        }
        long cut = 0;
        for (int h = 0; h < hops; h++) {
            long busy = 0; // in whole picoseconds per packet, as Port serialises
            for (long[] s : split.streams()) for (long w : packets(s, mtu, header)) busy += serialisationPs(w, rate[h]);
            cut = Math.max(cut, sumMin - sMin[h] + busy / links[h]);
        }
        return cut + latPs;
    }

    /** Wire sizes of a stream's packets: each message in MTU packets, its last one shorter (an empty message is one header). */
    static long[] packets(long[] messages, int mtu, int header) {
        int n = 0;
        for (long m : messages) n += (int) Math.max(1, (m + mtu - 1) / mtu);
        long[] w = new long[n];
        int k = 0;
        for (long m : messages) {
            long c = Math.max(1, (m + mtu - 1) / mtu);
            for (long j = 0; j < c - 1; j++) w[k++] = (long) mtu + header;
            w[k++] = m - (c - 1) * mtu + header;
        }
        return w;
    }

    /** As Port.serializationPs: 8 x bytes / rate in whole picoseconds. */
    static long serialisationPs(long bytes, long rateBps) {
        return bytes * 8_000_000_000_000L / rateBps;
    }
}

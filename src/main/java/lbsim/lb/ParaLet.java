package lbsim.lb;

import lbsim.BadInputException;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.topology.Fabric;
import lbsim.net.Packet;
import lbsim.topology.Topology;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * ParaLet (paper 002, Cao et al.): parallel flowlets on m long-lived QPs per host.
 *
 * <ul>
 *   <li>Every host has {@code m} QP slots with distinct random UDP source ports (§5.1 step 1), each
 *       paced at 1/m of the line rate; the transport's congestion control of the flowlet still applies
 *       below that cap.</li>
 *   <li>QPs are decoupled from connections (§5.3): every flow is cut into flowlets (messages) of
 *       {@code flowlet_bytes} (default 4·BDP/m, §5.2, with BDP = the fabric's base RTT × the sender's line rate,
 *       rounded up to whole MTUs). The host keeps the flows with waiting flowlets in a round-robin;
 *       a slot that becomes free takes the next flowlet of the next flow.</li>
 *   <li>A flowlet is an lbsim QueuePair opened with {@link Transport#openMessage} and started when
 *       its slot takes it; it carries the slot's source port, so switches hash it by ordinary ECMP
 *       (§5.1 step 2) and all its packets share one path. The receiver reassembles per flowlet only
 *       (§5.1 step 3): each flowlet has its own in-order receiver.</li>
 *   <li>A slot moves on to its next flowlet when the current one has sent its last packet (a QP
 *       with a deep send queue, §5.2), one packet time at the slot rate later; it does not wait for
 *       the ACKs. A flowlet that must retransmit later does so on its own, at the slot's rate.</li>
 * </ul>
 * Each slot is one persistent QP (§5.3: one send queue carries flowlets of different flows), so
 * its congestion control lives as long as the slot: a flowlet continues the window or rate, alpha
 * and CC timers the slot's previous flowlet left ({@link QueuePair#continueCongestionControlOf}).
 * The window limits each flowlet's own bytes in flight (the previous flowlet's unacknowledged tail
 * is not counted against it); under the 1/m rate cap that tail is small. The NIC reports m QPs
 * (max_qps_per_nic), not the flowlets.
 */
public final class ParaLet implements PathPolicy, EventHandler {
    /** Largest BDP accepted: 4 * BDP (Sec. 5.2's S = 4 * BDP / m) must fit in a long. */
    public static final long MAX_BDP_BYTES = Long.MAX_VALUE / 4;

    /** ParaLet §5.2: flowlet (message) size {@code S = 4 * BDP / m}, rounded up to whole bytes. */
    public static long flowletBytes(long bdpBytes, long m) {
        checkBdp(bdpBytes);
        if (m < 1) {
            throw new BadInputException("m must be an integer >= 1; got " + m);
        }
        long four = 4 * bdpBytes; // fits: bdpBytes <= MAX_BDP_BYTES
        return four / m + (four % m == 0 ? 0 : 1); // ceil without overflowing four + m - 1
    }

    /** Refuses a BDP below one byte or so large that 4 x BDP overflows. */
    public static void checkBdp(long bdpBytes) {
        if (bdpBytes < 1 || bdpBytes > MAX_BDP_BYTES) {
            throw new BadInputException("--bdp-bytes must be an integer in 1.." + MAX_BDP_BYTES
                    + " (4 * BDP must fit in 64 bits); got " + bdpBytes);
        }
    }


    private static final int EV_OPEN = 1;
    private static final int EV_FREE = 2;

    private final Simulation sim;
    private final Topology topo;
    private final int m;
    private final long flowletBytesKey;
    private final HostSlots[] hosts;
    private Transport transport;
    private final java.util.Map<Long, Long> flowletBytesByRate = new java.util.HashMap<>();   // default flowlet per NIC rate

    /** One flow's flowlets that no slot has taken yet. */
    private static final class Waiting {
        final ArrayDeque<QueuePair> flowlets = new ArrayDeque<>();
    }

    /** A flowlet's slot. */
    private record Slot(int host, int index) {}

    /** A host's m QP slots and its flows with waiting flowlets. */
    private static final class HostSlots {
        final int[] ports;
        final QueuePair[] current;          // flowlet being sent on each slot, null when free
        final QueuePair[] previous;         // the slot's last flowlet: the next one continues its congestion control
        final boolean[] releasing;          // its last packet is out; the slot frees after one packet time
        final ArrayDeque<Waiting> flows = new ArrayDeque<>();
        boolean reserved;                   // the m QPs are counted on the NIC

        HostSlots(int[] ports) {
            this.ports = ports;
            this.current = new QueuePair[ports.length];
            this.previous = new QueuePair[ports.length];
            this.releasing = new boolean[ports.length];
        }
    }

    /**
     * @param flowletBytes flowlet (message) size; 0 for the paper's 4·BDP/m (§5.2)
     */
    public ParaLet(Simulation sim, Topology topo, int m, long flowletBytes) {
        if (m < 1 || m > Ecmp.SPORT_RANGE) throw new IllegalArgumentException("m must be in 1.." + Ecmp.SPORT_RANGE);
        if (flowletBytes < 0) throw new IllegalArgumentException("flowlet_bytes must be >= 0");
        this.sim = sim;
        this.topo = topo;
        this.m = m;
        this.flowletBytesKey = flowletBytes;
        this.hosts = new HostSlots[topo.hostCount()];
    }

    public int m() {
        return m;
    }

    /** UDP source port of slot {@code slot} of a host: distinct per host, random in the RoCEv2 range. */
    public int slotPort(int host, int slot) {
        return slots(host).ports[slot];
    }

    /**
     * Flowlet size in bytes of a host's flows (the key, or 4·BDP/m rounded up to whole MTUs, with the
     * BDP of the host's own NIC, as the transport's default window).
     */
    public long flowletBytes(Transport t, int host) {
        if (flowletBytesKey > 0) return flowletBytesKey;
        return flowletBytesByRate.computeIfAbsent(topo.hostRateBps(host), rate -> {
            var cfg = t.config();
            long rtt = Fabric.baseRttPs(topo, cfg.mtuBytes() + cfg.headerBytes(), cfg.ackBytes(), rate);
            long bdp = Math.max(1, Fabric.bdpBytes(rtt, rate));
            long s = flowletBytes(bdp, m); // §5.2: S = 4·BDP/m
            int mtu = cfg.mtuBytes();
            return (s + mtu - 1) / mtu * mtu;
        });
    }

    private HostSlots slots(int host) {
        HostSlots h = hosts[host];
        if (h == null) {
            SplittableRandom r = sim.random().stream("lb.paralet.h" + host);
            int[] ports = new int[m];
            java.util.BitSet used = new java.util.BitSet(Ecmp.SPORT_RANGE);
            for (int i = 0; i < m; i++) {
                int p;
                do {
                    p = r.nextInt(Ecmp.SPORT_RANGE);
                } while (used.get(p));
                used.set(p);
                ports[i] = Ecmp.SPORT_MIN + p;
            }
            h = hosts[host] = new HostSlots(ports);
        }
        return h;
    }

    /** None for certain: its m slots per host are long-lived QPs that flowlets of every flow share. */
    @Override
    public int qpsAtLeast(FlowSpec spec) {
        return 0;
    }

    @Override
    public void openFlow(Transport t, Flow flow) {
        // The transport starts whatever openFlow opens; flowlets are opened one event later and
        // started only when a slot takes them.
        transport = t;
        sim.schedule(0, this, EV_OPEN, 0, flow);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == EV_OPEN) {
            Flow flow = (Flow) obj;
            HostSlots h = slots(flow.spec().src());
            if (!h.reserved) {
                h.reserved = true;
                transport.reserveNicQps(flow.spec().src(), m);
            }
            Waiting w = new Waiting();
            long flowletBytes = flowletBytes(transport, flow.spec().src());
            long size = flow.spec().sizeBytes();
            long off = 0;
            do {
                long b = Math.min(flowletBytes, size - off);
                w.flowlets.add(transport.openMessage(flow, b, -1));   // its slot's context is set when a slot takes it
                off += b;
            } while (off < size);
            h.flows.addLast(w);
            for (int s = 0; s < m; s++) if (h.current[s] == null) take(h, flow.spec().src(), s);
        } else if (kind == EV_FREE) {
            int host = (int) (arg >>> 32);
            int s = (int) arg;
            HostSlots h = hosts[host];
            h.current[s] = null;
            h.releasing[s] = false;
            take(h, host, s);
        }
    }

    /** Slot {@code s} takes the next flowlet of the next waiting flow (round-robin over flows), if any. */
    private void take(HostSlots h, int host, int s) {
        Waiting w = h.flows.pollFirst();
        if (w == null) return;
        QueuePair qp = w.flowlets.pollFirst();
        if (!w.flowlets.isEmpty()) h.flows.addLast(w);
        qp.setSport(h.ports[s]);
        // the flowlet is a message on slot s's long-lived QP to its destination (an RC QP has one peer)
        qp.adoptContext(transport.connectionContext(host, qp.dst(), s));
        qp.setSchemeState(new Slot(host, s));
        if (h.previous[s] != null) qp.continueCongestionControlOf(h.previous[s]); // one QP, one CC (§5.3)
        h.previous[s] = qp;
        h.current[s] = qp;
        transport.startQp(qp);
    }

    /**
     * The flow alone on an idle fabric: cut into flowlets as in openFlow; slot s sends flowlets
     * s, s + m, ... one after another (slots free in the order they started), every slot paced at
     * 1/m of the line rate; a slot's next flowlet starts one packet time at that rate after the
     * previous one's last packet, as the pacing would space two packets of one QP.
     */
    @Override
    public IdleSplit idleSplit(Transport t, FlowSpec spec) {
        long size = spec.sizeBytes();
        long s = flowletBytes(t, spec.src());
        int k = (int) Math.max(1, (size + s - 1) / s);
        int slots = Math.min(m, k);
        long[][] streams = new long[slots][];
        for (int i = 0; i < slots; i++) streams[i] = new long[(k - 1 - i) / m + 1];
        for (int j = 0; j < k; j++) streams[j % m][j / m] = Math.min(s, size - (long) j * s);
        long line = t.network().host(spec.src()).nic().nominalRateBps();
        return new IdleSplit(streams, m > 1 ? Math.max(1, line / m) : 0, false);
    }

    @Override
    public void initQp(QueuePair qp) {
        if (m > 1) qp.setRateCap(Math.max(1, qp.lineRateBps() / m)); // §5.1: each QP at 1/m of line rate
    }

    @Override
    public void beforeSend(QueuePair qp, Packet p) {
        p.sport = qp.sport();
        p.pathId = qp.pathId();
        p.sourceRouted = qp.sourceRouted();
        if (p.seq == qp.packets() - 1) {
            Slot slot = (Slot) qp.schemeState();
            HostSlots h = hosts[slot.host()];
            int i = slot.index();
            if (h.current[i] == qp && !h.releasing[i]) {
                // last packet sent once: the slot takes its next flowlet one packet time (at 1/m rate) later
                h.releasing[i] = true;
                long cap = Math.max(1, qp.lineRateBps() / m);
                sim.schedule(p.wireBytes * 8_000_000_000_000L / cap, this, EV_FREE, ((long) slot.host() << 32) | i, null);
            }
        }
    }
}

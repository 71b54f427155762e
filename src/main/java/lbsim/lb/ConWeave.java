package lbsim.lb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.LbHeader;
import lbsim.net.Packet;
import lbsim.net.PacketQueue;
import lbsim.net.Switch;
import lbsim.topology.Topology;

/**
 * ConWeave (Song et al., SIGCOMM 2023; algorithms.md §1.8): ToR-to-ToR rerouting of RDMA flows
 * with in-network reordering. One instance per switch; at ToRs it plays both roles, other
 * switches hash like ECMP.
 * <p>Source ToR (per flow = per QP): every epoch opens with a packet tagged INIT that the
 * destination ToR answers with a REPLY. A reply that comes back before base RTT + θ_reply
 * makes the flow "stable" and the next packet opens a new epoch (a new probe). If the deadline
 * passes first, the next packet is tagged TAIL and still takes the old path; later packets
 * take a new path (phase 1) sampled among the equal-cost uplinks, avoiding paths the
 * destination ToR reported congested (ECN NOTIFY) within θ_path_busy. A flow idle for
 * θ_inactive starts a new epoch on a freshly sampled path.
 * <p>Destination ToR: phase-1 packets that arrive before the epoch's TAIL are held in a
 * per-flow reorder queue (in the switch buffer) and released behind the TAIL, or at a
 * predicted TAIL arrival time plus a margin. Control packets (REPLY, NOTIFY) are 64-byte
 * high-priority packets between the two ToRs.
 */
public final class ConWeave implements ForwardingStrategy, EventHandler {
    /** cwFlag on data packets. */
    static final int DATA = 0;
    static final int INIT = 1;
    static final int TAIL = 2;
    /** cwFlag on Packet.LB_CONTROL packets. */
    static final int REPLY_INIT = 1;
    static final int REPLY_TAIL = 2;
    static final int NOTIFY = 3;
    /** Control packets are at least 64 B (conweave-ns3 conweave-routing.cc, SendReply/SendNotify). */
    static final int CONTROL_BYTES = 64;
    private static final int FLUSH = 1;
    private static final long NEVER = Long.MAX_VALUE;
    /** The destination ToR flushes the queue 1 ns after the TAIL (conweave-routing.cc), so the TAIL goes first. */
    private static final long TAIL_FLUSH_DELAY_PS = Simulation.PS_PER_NS;

    /**
     * Scenario keys. Defaults: conweave-ns3 run.py for leaf-spine (2-tier) at 100G.
     *
     * @param replyExtraUs     θ_reply: slack over the ToR-to-ToR base RTT before a missing REPLY means congestion
     * @param pathBusyUs       θ_path_busy: a path reported by NOTIFY is avoided this long
     * @param inactiveUs       θ_inactive: idle gap after which a flow starts a new epoch on a new path
     * @param reorderExtraUs   margin added to the predicted TAIL arrival before the reorder queue is flushed
     * @param reorderDefaultUs wait for the TAIL when no phase-0 timing is known (θ_resume default)
     * @param reorderQueue     false: never hold packets (to measure what the reorder queue hides)
     * @param reorderQueuesPerPort reorder queues per egress port toward a host at the destination ToR (0 = unlimited);
     *                         a flow that needs one when all are in use is not reordered
     * @param flowTableEntries flows the source ToR keeps ConWeave state for (0 = unlimited); a flow without an
     *                         entry is hashed by ECMP and never rerouted, until an entry idle for 2 ms frees up
     */
    public record Params(double replyExtraUs, double pathBusyUs, double inactiveUs, double reorderExtraUs,
                         double reorderDefaultUs, boolean reorderQueue, int reorderQueuesPerPort, int flowTableEntries) {
        /** Without hardware limits (the ns-3 model's unlimited queues and table). */
        public Params(double replyExtraUs, double pathBusyUs, double inactiveUs, double reorderExtraUs,
                      double reorderDefaultUs, boolean reorderQueue) {
            this(replyExtraUs, pathBusyUs, inactiveUs, reorderExtraUs, reorderDefaultUs, reorderQueue, 0, 0);
        }

        static Params read(SchemeParams p) {
            // run.py (lb_mode 9): cwh_extra_reply_deadline = 4 us (1 hop of 50 KB at 100 Gbps)
            double reply = p.doubleValue("reply_extra_us", 4, 0, 1e6);
            // run.py: cwh_path_pause_time = 16 us (conweave-routing.cc default 8 us)
            double busy = p.doubleValue("path_busy_us", 16, 0, 1e6);
            // run.py, leaf-spine: cwh_tx_expiry_time = 300 us (1000 us for 3-tier fat-trees)
            double inactive = p.doubleValue("inactive_us", 300, 0, 1e6);
            // run.py, leaf-spine: cwh_extra_voq_flush_time = 16 us (64 us for lossless 3-tier)
            double extra = p.doubleValue("reorder_extra_us", 16, 0, 1e6);
            // run.py, leaf-spine: cwh_default_voq_waiting_time = 200 us (600 us lossless / 300 us lossy 3-tier)
            double def = p.doubleValue("reorder_default_us", 200, 0, 1e6);
            boolean queue = p.intValue("reorder_queue", 1, 0, 1) == 1;
            // Tofino2 hardware (conweave-p4 macro.p4): 12 reorder queues per port with 16 queues (25G build) or 24 with 32
            // (100G); a hashed flow table of 2^12 entries (testbed build) to 2^16 (resource build). 0: unlimited, as ns-3
            int queues = p.intValue("reorder_queues_per_port", 0, 0, 1 << 20);
            int entries = p.intValue("flow_table_entries", 0, 0, 1 << 30);
            return new Params(reply, busy, inactive, extra, def, queue, queues, entries);
        }

        /** The ns-3 model's unlimited switch resources, for reports: a Tofino2 build has finite ones (conweave-p4 macro.p4). */
        public List<String> idealisations() {
            List<String> out = new ArrayList<>();
            if (reorderQueue && reorderQueuesPerPort == 0) {
                out.add("ConWeave reorder queues unlimited (Tofino2: 12-24 per port; load_balancer.reorder_queues_per_port)");
            }
            if (flowTableEntries == 0) {
                out.add("ConWeave flow table unlimited (Tofino2: 2^12-2^16 entries; load_balancer.flow_table_entries)");
            }
            return out;
        }
    }

    /** Source-ToR state of one flow. */
    static final class Tx {
        int epoch;
        int phase;
        int path = -1;                     // local uplink port
        int[] group;                       // candidate array the path was checked against
        long activePs = Long.MIN_VALUE / 4;
        boolean tracked;                   // holds an entry of a limited flow table
        long replyDeadlinePs = NEVER;
        long tailPs;
        boolean stabilized;
    }

    /** Destination-ToR state of one flow, with its reorder queue. */
    static final class Rx {
        int epoch;
        int phase;
        long phase0TxPs;
        long phase0RxPs;
        boolean phase0Cache;
        long tailPs;
        boolean reordering;
        boolean flushByTail;
        long flushGen;
        boolean queueTaken;                // holds one of its egress port's limited reorder queues
        int host;                          // whose port that queue is on
        final PacketQueue voq = new PacketQueue();
    }

    private final Simulation sim;
    private final Topology topo;
    private final Switch sw;
    private final Ecmp.Hash ecmp;
    private final SplittableRandom random;
    private final boolean isTor;
    private final int[] hostTorNode;
    private final long replyExtraPs;
    private final long pathBusyPs;
    private final long inactivePs;
    private final long reorderExtraPs;
    private final long reorderDefaultPs;
    private final boolean reorderQueue;
    private final int reorderQueuesPerPort;    // 0: unlimited
    private final int flowTableEntries;        // 0: unlimited
    private int[] queuesInUse;                 // by destination host (its ToR port), with a limit only
    private final it.unimi.dsi.fastutil.ints.IntArrayList trackedQps = new it.unimi.dsi.fastutil.ints.IntArrayList();
    private long nextAgingPs;                  // no tracked entry can age out before this
    private final long[] baseRttPs;        // by destination ToR index, -1 until computed
    private final long[][] busyUntilPs;    // [destination ToR][local uplink], allocated on first NOTIFY
    private Tx[] tx = new Tx[0];
    private Rx[] rx = new Rx[0];

    private long reroutes;
    private long replyTimeouts;
    private long epochs;
    private long replies;
    private long notifies;
    private long held;
    private long flushes;
    private long flushTimeouts;
    private long maxQueue;
    private long queuesExhausted;
    private long maxQueuesInUse;
    private long untrackedPackets;

    public ConWeave(Params params, SchemeContext c, Switch sw, int[] hostTorNode) {
        this.sim = c.sim();
        this.topo = c.topology();
        this.sw = sw;
        this.ecmp = new Ecmp.Hash(c.switchSeed(sw, "conweave"));
        this.random = c.sim().random().stream("lb.conweave." + topo.nodeName(sw.id));
        this.isTor = topo.torIndex(sw.id) >= 0;
        this.hostTorNode = hostTorNode;
        this.replyExtraPs = us(params.replyExtraUs());
        this.pathBusyPs = us(params.pathBusyUs());
        this.inactivePs = us(params.inactiveUs());
        this.reorderExtraPs = us(params.reorderExtraUs());
        this.reorderDefaultPs = us(params.reorderDefaultUs());
        this.reorderQueue = params.reorderQueue();
        this.reorderQueuesPerPort = params.reorderQueuesPerPort();
        this.flowTableEntries = params.flowTableEntries();
        this.baseRttPs = new long[isTor ? topo.torCount() : 0];
        Arrays.fill(baseRttPs, -1);
        this.busyUntilPs = new long[isTor ? topo.torCount() : 0][];
    }

    /** Host -> node id of its ToR, shared by every switch of a run. */
    public static int[] hostTorNodes(Topology t) {
        int[] a = new int[t.hostCount()];
        for (int h = 0; h < a.length; h++) a[h] = t.hostTor(h);
        return a;
    }

    private static long us(double v) {
        return Math.round(v * Simulation.PS_PER_US);
    }

    // ---- source ToR ---------------------------------------------------------------------

    @Override
    public boolean splitsFlows() {
        return true; // reroutes a flow while its packets are still in flight on the old path (ConWeave §3)
    }

    @Override
    public int choose(Switch s, Packet p, int[] candidates) {
        // a header returned to its sender (trim-rts) is not the flow's data: it follows ECMP like an ACK
        if (!isTor || p.kind != Packet.DATA || p.trimmed || hostTorNode[p.src] != sw.id) return ecmp.choose(s, p, candidates);
        long now = sim.now();
        Tx st = tx(p.qp);
        if (flowTableEntries > 0 && !st.tracked && !admit(p.qp, st, now)) {
            untrackedPackets++;
            return ecmp.choose(s, p, candidates);   // no entry: plain ECMP, untagged, never rerouted
        }
        boolean fresh = st.path < 0;
        // conweave-routing.cc RouteInput (TxToR): expiry, stability, reply timeout
        boolean expired = now - st.activePs > inactivePs;
        boolean stabilized = false;
        if (expired) {
            st.stabilized = false;
        } else if (st.stabilized) {
            stabilized = true;
            st.stabilized = false;
        }
        st.activePs = now;
        boolean timeout = false;
        if (expired || stabilized) {
            st.replyDeadlinePs = now + baseRtt(p) + replyExtraPs;
        } else if (st.replyDeadlinePs < now) {
            st.replyDeadlinePs = NEVER;
            timeout = true;
        }
        int pktPhase;
        if (expired || stabilized) {
            st.epoch++;
            epochs++;
            st.phase = 0;
            pktPhase = 0;
        } else if (timeout) {
            st.phase = 1;          // later packets take the new path
            pktPhase = 0;          // the TAIL itself is the last packet of phase 0
            replyTimeouts++;
        } else {
            pktPhase = st.phase;
        }
        if (st.group != candidates) {
            // first packet, or the live ECMP group changed after a failure was detected
            if (st.path >= 0 && !contains(candidates, st.path)) {
                st.path = -1;
                if (!fresh) reroutes++;
            }
            st.group = candidates;
        }
        if (st.path < 0) {
            int g = pickGood(candidates, -1, p, now);
            st.path = g >= 0 ? g : candidates[random.nextInt(candidates.length)];
        }
        int pktPath = st.path;
        if (expired && !fresh) {
            int g = pickGood(candidates, -1, p, now);
            if (g >= 0 && g != st.path) {
                st.path = g;
                reroutes++;
            }
            pktPath = st.path;
        } else if (timeout) {
            // the TAIL keeps the old path; the new path excludes it (lbsim: a reroute must move)
            int g = pickGood(candidates, st.path, p, now);
            if (g >= 0) {
                st.path = g;
                reroutes++;
            }
        }
        if (expired || stabilized) st.tailPs = 0;
        else if (timeout) st.tailPs = now;
        LbHeader h = p.lb();
        h.cwEpoch = st.epoch;
        h.cwPhase = pktPhase;
        h.cwFlag = expired || stabilized ? INIT : timeout ? TAIL : DATA;
        h.cwPath = pktPath;
        h.cwTxPs = now;
        h.cwTailPs = st.tailPs;
        return pktPath;
    }

    /** ns-3 ConWeave ages a flow entry idle this long (conweave-routing.cc); a full table frees such entries. */
    static final long ENTRY_AGING_PS = 2 * Simulation.PS_PER_MS;

    /**
     * Gives the flow an entry in the limited flow table if one is free, after aging out entries idle for
     * {@link #ENTRY_AGING_PS} (conweave-p4: a flow without an entry is forwarded by ECMP until the control plane
     * installs one).
     */
    private boolean admit(int qp, Tx st, long now) {
        if (trackedQps.size() >= flowTableEntries && now >= nextAgingPs) {
            long next = Long.MAX_VALUE;
            int kept = 0;
            for (int i = 0; i < trackedQps.size(); i++) {
                int q = trackedQps.getInt(i);
                Tx t = tx[q];
                if (now - t.activePs >= ENTRY_AGING_PS) {
                    t.tracked = false;
                } else {
                    trackedQps.set(kept++, q);
                    next = Math.min(next, t.activePs + ENTRY_AGING_PS);
                }
            }
            trackedQps.size(kept);
            nextAgingPs = next;
        }
        if (trackedQps.size() >= flowTableEntries) return false;
        st.tracked = true;
        trackedQps.add(qp);
        return true;
    }

    /**
     * Samples two candidates (excluding {@code exclude}) and returns the first not reported
     * busy, or -1 (conweave-routing.cc: path-aware rerouting samples two random paths).
     */
    private int pickGood(int[] candidates, int exclude, Packet p, long now) {
        int n = candidates.length;
        int ex = exclude < 0 ? -1 : indexOf(candidates, exclude);
        int m = ex < 0 ? n : n - 1;
        if (m <= 0) return -1;
        long[] busy = busyUntilPs[topo.torIndex(hostTorNode[p.dst])];
        for (int i = 0; i < 2; i++) {
            int k = random.nextInt(m);
            if (ex >= 0 && k >= ex) k++;
            int port = candidates[k];
            if (busy == null || busy[port] <= now) return port;
        }
        return -1;
    }

    private long baseRtt(Packet p) {
        int dstTor = topo.torIndex(hostTorNode[p.dst]);
        long v = baseRttPs[dstTor];
        if (v < 0) {
            // conweave-ns3 sets base RTT = 2 x per-hop delay x ToR-to-ToR hops (propagation only)
            int[] ports = topo.routing().pathPorts(p.src, p.dst, 0);
            long oneWay = 0;
            for (int i = 0; i < ports.length - 1; i++) oneWay += topo.portLatencyPs(ports[i]);
            v = baseRttPs[dstTor] = 2 * oneWay;
        }
        return v;
    }

    private void onReplyOrNotify(Packet p) {
        long now = sim.now();
        LbHeader h = p.lb();
        if (h.cwFlag == NOTIFY) {
            int dstTor = topo.torIndex(hostTorNode[p.src]);
            long[] busy = busyUntilPs[dstTor];
            if (busy == null) busy = busyUntilPs[dstTor] = new long[sw.portCount()];
            busy[h.cwPath] = now + pathBusyPs;
            return;
        }
        Tx st = tx(p.qp);
        // replies count only for the current (epoch, phase); late ones are ignored
        if (h.cwEpoch != st.epoch || h.cwPhase != st.phase) return;
        if (h.cwFlag == REPLY_INIT) {
            if (now < st.replyDeadlinePs && st.replyDeadlinePs != NEVER) {
                st.stabilized = true;
                st.replyDeadlinePs = NEVER;
            }
        } else if (h.cwFlag == REPLY_TAIL) {
            st.stabilized = true;     // the reroute is over: next packet starts a new epoch
            st.replyDeadlinePs = NEVER;
        }
    }

    // ---- destination ToR ----------------------------------------------------------------

    @Override
    public boolean intercept(Switch s, Packet p, int in) {
        if (!isTor || hostTorNode[p.dst] != sw.id) return false;
        if (p.kind == Packet.LB_CONTROL) {
            onReplyOrNotify(p);
            sw.consume(p);
            return true;
        }
        // a header returned to its sender (trim-rts) arrives at the flow's source ToR: not data to reorder
        if (p.kind != Packet.DATA || p.trimmed && sw.trimsToSender() || p.lb().cwEpoch == 0) return false;
        return onTaggedData(p, in);
    }

    /** conweave-routing.cc RouteInput (RxToR); true if the switch took the packet (held, or trimmed or dropped when the buffer is full). */
    private boolean onTaggedData(Packet p, int in) {
        long now = sim.now();
        LbHeader h = p.lb();
        Rx r = rx(p.qp);
        boolean newEpoch;
        if (r.epoch < h.cwEpoch) {
            r.epoch = h.cwEpoch;
            newEpoch = true;
        } else if (r.epoch > h.cwEpoch) {
            return false;                       // an earlier epoch: straight to the host
        } else {
            newEpoch = false;
        }
        if (h.cwPhase == 0) {
            r.phase0TxPs = h.cwTxPs;
            r.phase0RxPs = now;
        }
        boolean tail = h.cwFlag == TAIL;
        boolean outOfOrder = false;
        if (newEpoch) {
            r.phase = tail ? 1 : 0;
            outOfOrder = h.cwPhase > r.phase;
            r.phase0Cache = h.cwPhase == 0;
        } else {
            if (tail) {
                if (!r.reordering) r.phase = 1;  // else set when the queue is flushed
            } else if (r.phase < h.cwPhase) {
                outOfOrder = true;
            }
            if (h.cwPhase == 0) r.phase0Cache = true;
        }
        if (tail || h.cwPhase == 1) r.tailPs = h.cwTailPs;
        // predicted TAIL arrival: the Tx-side gap between phase 0 and the TAIL, replayed at Rx
        long gap = r.phase0Cache ? Math.max(0, r.tailPs - r.phase0TxPs) : reorderDefaultPs;
        long flushAt = 0;
        if (h.cwPhase == 1) {
            if (outOfOrder) flushAt = (r.phase0Cache ? r.phase0RxPs : now) + gap + reorderExtraPs;
        } else {
            flushAt = tail ? now + TAIL_FLUSH_DELAY_PS : now + gap + reorderExtraPs;
        }
        boolean hold = false;
        if (h.cwPhase == 0) {
            if (r.reordering) scheduleFlush(r, Math.max(now, flushAt), tail);
        } else if (outOfOrder) {
            hold = true;
            if (!r.reordering) {
                if (reorderQueue && !takeQueue(r, p.dst)) {
                    // conweave-p4: a new reordering that finds no free queue resets the flow to phase 1 and sends
                    // its packets on through the normal queue, out of order
                    r.phase = 1;
                    hold = false;
                    queuesExhausted++;
                } else {
                    r.reordering = true;
                    scheduleFlush(r, Math.max(now, flushAt), false);
                }
            }
        }
        if (p.ecnMarked) sendControl(p, NOTIFY, 0);
        if (h.cwFlag == INIT) sendControl(p, REPLY_INIT, 0);
        else if (tail) sendControl(p, REPLY_TAIL, 1);
        // a trimmed header (trim to receiver) is high-priority loss signalling (McClure §4), not data to reorder: never held
        if (!hold || !reorderQueue || p.trimmed) return false;
        if (sw.hold(p, in)) {
            r.voq.add(p);
            held++;
            if (r.voq.size() > maxQueue) maxQueue = r.voq.size();
        }
        return true;
    }

    /** Takes one of the destination host's port's reorder queues for the flow; false when all are in use. */
    private boolean takeQueue(Rx r, int dstHost) {
        if (reorderQueuesPerPort == 0) return true;
        if (queuesInUse == null) queuesInUse = new int[hostTorNode.length];
        if (queuesInUse[dstHost] >= reorderQueuesPerPort) return false;
        queuesInUse[dstHost]++;
        if (queuesInUse[dstHost] > maxQueuesInUse) maxQueuesInUse = queuesInUse[dstHost];
        r.queueTaken = true;
        r.host = dstHost;
        return true;
    }

    private void scheduleFlush(Rx r, long atPs, boolean byTail) {
        r.flushGen++;
        r.flushByTail = byTail;
        sim.scheduleAt(atPs, this, FLUSH, r.flushGen, r);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        Rx r = (Rx) obj;
        if (kind != FLUSH || arg != r.flushGen || !r.reordering) return;   // lazily cancelled
        r.reordering = false;
        r.phase = 1;
        if (r.queueTaken) {
            r.queueTaken = false;
            queuesInUse[r.host]--;
        }
        flushes++;
        if (!r.flushByTail) flushTimeouts++;
        Packet p;
        while ((p = r.voq.poll()) != null) sw.releaseHeld(p);
    }

    /** A REPLY or NOTIFY from this (destination) ToR back to the flow's source ToR. */
    private void sendControl(Packet data, int flag, int phase) {
        Packet c = sw.newPacket();
        c.kind = Packet.LB_CONTROL;
        c.src = data.dst;
        c.dst = data.src;
        c.qp = data.qp;
        c.sport = data.sport;
        c.wireBytes = CONTROL_BYTES;
        c.ecnCapable = false;
        LbHeader ch = c.lb();
        ch.cwFlag = flag;
        ch.cwEpoch = data.lb().cwEpoch;
        ch.cwPhase = phase;
        ch.cwPath = data.lb().cwPath;
        if (flag == NOTIFY) notifies++;
        else replies++;
        sw.sendControl(c);
    }

    // ---- state tables -------------------------------------------------------------------

    private Tx tx(int qp) {
        if (qp >= tx.length) tx = Arrays.copyOf(tx, Math.max(qp + 1, tx.length * 2));
        Tx t = tx[qp];
        if (t == null) t = tx[qp] = new Tx();
        return t;
    }

    private Rx rx(int qp) {
        if (qp >= rx.length) rx = Arrays.copyOf(rx, Math.max(qp + 1, rx.length * 2));
        Rx r = rx[qp];
        if (r == null) r = rx[qp] = new Rx();
        return r;
    }

    private static boolean contains(int[] a, int v) {
        return indexOf(a, v) >= 0;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return -1;
    }

    @Override
    public void reportCounters(Map<String, Long> into) {
        into.merge("reroutes", reroutes, Long::sum);
        into.merge("reply_timeouts", replyTimeouts, Long::sum);
        into.merge("epochs", epochs, Long::sum);
        into.merge("replies", replies, Long::sum);
        into.merge("notifies", notifies, Long::sum);
        into.merge("held_packets", held, Long::sum);
        into.merge("reorder_flushes", flushes, Long::sum);
        into.merge("reorder_timeouts", flushTimeouts, Long::sum);
        into.merge("max_reorder_queue", maxQueue, Math::max);
        // the hardware limits' counters only when a limit is set (summary.json unchanged without)
        if (reorderQueuesPerPort > 0) {
            into.merge("reorder_queues_exhausted", queuesExhausted, Long::sum);
            into.merge("max_reorder_queues_in_use", maxQueuesInUse, Math::max);
        }
        if (flowTableEntries > 0) into.merge("untracked_packets", untrackedPackets, Long::sum);
    }
}

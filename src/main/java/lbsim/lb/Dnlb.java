package lbsim.lb;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.engine.EventHandler;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

import lbsim.topology.Tier;
import lbsim.topology.Topology;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * DNLB, CTCCL's joint device-network load balancing (paper 003, Li et al., §3).
 *
 * <ul>
 *   <li>Device side (§3.2): every connection (flow) uses {@code qps} QPs; QP q of host i gets the UDP
 *       source port of Eq. 3, {@link DnlbPorts#sourcePort}(i, q, qps, U) with U the logical uplinks of
 *       the host's leaf and i the host id (hosts are numbered leaf by leaf, so the NICs of one leaf have
 *       consecutive indices, §3.3). Each flow's bytes are split evenly over its QPs. Packets (and the
 *       receiver's ACKs) carry DSCP {@code dscp}.</li>
 *   <li>Network side (§3.1, §4.1): at every leaf (ToR) a packet with that DSCP is policy-routed to the
 *       logical uplink whose source-port range (Eq. 2, {@link DnlbPorts#uplinkOf}) holds its port. Other
 *       traffic, and every non-leaf switch, use ECMP (the same hash as the {@code ecmp} scheme). When the
 *       leaf's live routing no longer lists the uplink (a failure the switch has detected), the PBR next
 *       hop is unreachable and the packet falls back to ECMP, as a route-map does.</li>
 *   <li>Virtual spines (§4.1, VRF): {@code virtual_spines_per_spine} = v splits the parallel links from a
 *       leaf to each spine into v logical uplinks (v must divide their number), so 2 spines with 4
 *       parallel links each and v = 4 give U = 8 PBR targets. With v smaller than the parallel links,
 *       a logical uplink is a bundle and ECMP picks the member.</li>
 *   <li>Eq. 4 (§3.3): a leaf with nNIC_leaf · qps &lt; U leaves uplinks idle; the run result warns (nNIC_leaf: the
 *       leaf's hosts that sent flows in the run, the NICs of the job).</li>
 *   <li>Fault avoidance (§3.3): CTCCL notices a QP that stops completing; here, a QP's retransmission
 *       timeout marks that QP index of the connection failed. Its unacknowledged data (and anything
 *       queued behind it) is re-posted, split evenly, on the connection's healthy QPs with their own
 *       source ports (no new ports); the moved data waits until the healthy QP has sent what it had.
 *       A QP whose receiver already holds everything (only ACKs were lost) is closed without re-posting.
 *       Later flows of the connection use only its healthy QPs. When every QP of a connection has
 *       failed, the QP keeps retrying (the leaf's ECMP fallback recovers it after switch detection).</li>
 * </ul>
 */
public final class Dnlb {
    /** Largest QP count per connection a DNLB scheme or plan accepts (one UDP source port each, below 2^16). */
    public static final int MAX_QPS = 65_536;

    private Dnlb() {}

    /** The scheme: host half plus PBR leaves and ECMP elsewhere; {@code keys} words errors about keys that do not fit the fabric. */
    public static Scheme scheme(SchemeContext c, int qps, int dscp, int virtualPerSpine, SchemeParams keys) {
        Topology topo = c.topology();
        Uplinks[] byTor = new Uplinks[topo.nodeCount()];
        for (int n = topo.hostCount(); n < topo.nodeCount(); n++) {
            if (topo.tier(n) == Tier.TOR) byTor[n] = Uplinks.of(topo, n, virtualPerSpine, keys);
        }
        Host host = new Host(topo, byTor, qps, dscp);
        return new Scheme("dnlb", host, sw -> {
            long seed = c.switchSeed(sw, "ecmp");
            Uplinks u = byTor[sw.id];
            if (u != null && u.count() > 0) return new Leaf(u, dscp, seed);
            return virtualPerSpine > 1 ? new VirtualSpine(topo, sw.id, virtualPerSpine, dscp, seed) : new Ecmp.Hash(seed);
        });
    }

    /** A leaf's logical uplinks: for each, the local port indices of its physical links. */
    public record Uplinks(int[][] members) {
        public int count() {
            return members.length;
        }

        /** Groups a ToR's switch-facing ports by peer in port order; each peer's bundle splits into v. */
        static Uplinks of(Topology topo, int tor, int v, SchemeParams keys) {
            Map<Integer, List<Integer>> byPeer = new LinkedHashMap<>();
            for (int i = 0; i < topo.portsOf(tor); i++) {
                int peer = topo.peerNode(topo.firstPort(tor) + i);
                if (!topo.isHost(peer)) byPeer.computeIfAbsent(peer, k -> new ArrayList<>()).add(i);
            }
            List<int[]> out = new ArrayList<>();
            for (Map.Entry<Integer, List<Integer>> e : byPeer.entrySet()) {
                List<Integer> ports = e.getValue();
                if (ports.size() % v != 0) {
                    throw keys.error("virtual_spines_per_spine", v + " must divide the "
                            + ports.size() + " parallel links from " + topo.nodeName(tor) + " to "
                            + topo.nodeName(e.getKey()) + " (topology.parallel_links)");
                }
                int per = ports.size() / v;
                for (int k = 0; k < v; k++) {
                    int[] g = new int[per];
                    for (int j = 0; j < per; j++) g[j] = ports.get(k * per + j);
                    out.add(g);
                }
            }
            if (out.size() > DnlbPorts.MAX_UPLINKS) {
                throw keys.error("scheme", "dnlb: " + topo.nodeName(tor) + " has " + out.size() + " logical uplinks (spines x"
                        + " virtual_spines_per_spine); at most " + DnlbPorts.MAX_UPLINKS + " source-port ranges fit");
            }
            return new Uplinks(out.toArray(new int[0][]));
        }
    }

    /** Leaf ACL + PBR (§3.2 Eq. 2, §4.1): DSCP-marked packets go to the uplink of their port range. */
    public static final class Leaf implements ForwardingStrategy {
        private final int[][] members;
        private final int dscp;
        private final long seed;
        private final Ecmp.Hash ecmp;

        public Leaf(Uplinks uplinks, int dscp, long seed) {
            this.members = uplinks.members();
            this.dscp = dscp;
            this.seed = seed;
            this.ecmp = new Ecmp.Hash(seed);
        }

        @Override
        public int choose(Switch sw, Packet p, int[] candidates) {
            if (p.dscp != dscp || p.sport < DnlbPorts.PORT_MIN || p.sport > DnlbPorts.PORT_MAX) {
                return ecmp.choose(sw, p, candidates);
            }
            int[] g = members[DnlbPorts.uplinkOf(p.sport, members.length)];
            int live = 0;
            for (int port : g) if (contains(candidates, port)) live++;
            if (live == 0) return ecmp.choose(sw, p, candidates); // next hop unreachable: routing table
            int pick = live == 1 ? 0 : EcmpHash.bucket(EcmpHash.hash(seed, p), live);
            for (int port : g) {
                if (contains(candidates, port) && pick-- == 0) return port;
            }
            throw new IllegalStateException("unreachable");
        }

        private static boolean contains(int[] a, int v) {
            for (int x : a) if (x == v) return true;
            return false;
        }
    }

    /**
     * A spine split into virtual spines (CTCCL §4.1, VRF): DSCP-marked traffic that arrived on
     * virtual spine k's link leaves on virtual spine k's link toward the destination leaf, so a
     * logical uplink stays one path end to end; other traffic, and traffic whose virtual link is
     * gone, is ECMP-hashed.
     */
    public static final class VirtualSpine implements ForwardingStrategy {
        private final int[] virtualIndex; // per local port: which of the v virtual spines its link belongs to
        private final int dscp;
        private final long seed;
        private final Ecmp.Hash ecmp;
        private int[] scratch = new int[8];

        public VirtualSpine(Topology topo, int node, int v, int dscp, long seed) {
            this.dscp = dscp;
            this.seed = seed;
            this.ecmp = new Ecmp.Hash(seed);
            int n = topo.portsOf(node);
            virtualIndex = new int[n];
            Map<Integer, List<Integer>> byPeer = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) byPeer.computeIfAbsent(topo.peerNode(topo.firstPort(node) + i), k -> new ArrayList<>()).add(i);
            for (List<Integer> bundle : byPeer.values()) {
                int per = Math.max(1, bundle.size() / v); // Uplinks.of has checked that v divides the leaf bundles
                for (int j = 0; j < bundle.size(); j++) virtualIndex[bundle.get(j)] = Math.min(v - 1, j / per);
            }
        }

        @Override
        public int choose(Switch sw, Packet p, int[] candidates) {
            int in = sw.arrivalPort();
            if (p.dscp != dscp || in < 0) return ecmp.choose(sw, p, candidates);
            int k = virtualIndex[in];
            if (scratch.length < candidates.length) scratch = new int[candidates.length];
            int m = 0;
            for (int c : candidates) if (virtualIndex[c] == k) scratch[m++] = c;
            if (m == 0) return ecmp.choose(sw, p, candidates);
            return m == 1 ? scratch[0] : scratch[EcmpHash.bucket(EcmpHash.hash(seed, p), m)];
        }
    }

    /** Device side: Eq. 3 ports, DSCP, and moving data off failed QPs. */
    public static final class Host implements PathPolicy, EventHandler {
        private static final int EV_NEXT = 1;

        private final Topology topo;
        private final Uplinks[] byTor;
        private final int qps;
        private final int dscp;
        private final Map<Long, boolean[]> failed = new HashMap<>(); // per connection (src, dst): failed QP indices
        private final boolean[] sends; // hosts that opened a flow (the job's NICs, Eq. 4)
        private Transport transport;
        private Lane opening;
        private int stranded;
        private long moves;

        /** The QPs of one index q of one flow: the first carries the flow's share, later ones re-posted data. */
        private static final class Lane {
            final Flow flow;
            final boolean[] connFailed;
            final int q;
            final int sport;
            final List<QueuePair> open = new ArrayList<>(1);  // started or waiting, not abandoned
            final ArrayDeque<QueuePair> waiting = new ArrayDeque<>();
            QueuePair sending;                                // has not sent its last packet yet
            int context = -1;                                 // the NIC context of the lane's QP: re-posted messages use it

            Lane(Flow flow, boolean[] connFailed, int q, int sport) {
                this.flow = flow;
                this.connFailed = connFailed;
                this.q = q;
                this.sport = sport;
            }
        }

        /** Per-QP state: its lane and bytes. */
        private record Msg(Lane lane, long bytes, List<Lane> siblings) {}

        Host(Topology topo, Uplinks[] byTor, int qps, int dscp) {
            this.topo = topo;
            this.byTor = byTor;
            this.qps = qps;
            this.dscp = dscp;
            this.sends = new boolean[topo.hostCount()];
        }

        /**
         * Eq. 4 (CTCCL Sec. 3.3) at every leaf with hosts that sent flows in this run, and where it holds, whether the
         * leaf's QPs spread evenly over its uplinks ({@link DnlbPorts#unevenWarning}): nNIC_leaf counts the NICs of the
         * job's hosts on the leaf (those that send), not every host the leaf has. Adds a warning for each check that
         * fails at some leaf.
         */
        private void addLeafWarnings(List<String> out) {
            int failing = 0, uneven = 0;
            String firstFailing = null, firstUneven = null;
            for (int tor = 0; tor < topo.torCount(); tor++) {
                int node = topo.torNode(tor);
                int u = byTor[node].count();
                if (u == 0) continue;
                int[] perUplink = new int[u];
                int nics = 0;
                for (int h = 0; h < topo.hostCount(); h++) {
                    if (!sends[h] || topo.hostTor(h) != node) continue;
                    nics++;
                    for (int q = 0; q < qps; q++) perUplink[DnlbPorts.uplinkOf(sourcePort(h, q), u)]++;
                }
                if (nics == 0) continue;
                if (!DnlbPorts.eq4Satisfied(nics, qps, u)) {
                    if (failing++ == 0) {
                        firstFailing = topo.nodeName(node) + ": nNIC_leaf * qps = " + nics + " * " + qps + " = " + (long) nics * qps
                                + " < " + u + " uplinks (nNIC_leaf: hosts of the leaf that send), so some uplinks carry none of"
                                + " its traffic; use qps >= " + (u + nics - 1) / nics;
                    }
                    continue;
                }
                String w = DnlbPorts.unevenWarning(perUplink, nics, qps);
                if (w != null && uneven++ == 0) firstUneven = topo.nodeName(node) + ": " + w;
            }
            if (failing > 0) out.add("dnlb: Eq. 4 (CTCCL Sec. 3.3) not satisfied at " + failing + " leaf(s), e.g. " + firstFailing);
            if (uneven > 0) out.add("dnlb: " + uneven + " leaf(s) load their uplinks unevenly, e.g. " + firstUneven);
        }

        /** Logical uplinks of a host's leaf (U of Eq. 1-3). */
        public int uplinks(int host) {
            return byTor[topo.hostTor(host)].count();
        }

        /** Eq. 3 port of QP {@code q} of a host. */
        public int sourcePort(int host, int q) {
            int u = Math.max(1, uplinks(host));
            return DnlbPorts.sourcePort(host, q, qps, u);
        }

        /** None for certain: its QPs per connection are kept and shared by the connection's messages. */
        @Override
        public int qpsAtLeast(FlowSpec spec) {
            return 0;
        }

        @Override
        public void openFlow(Transport t, Flow flow) {
            transport = t;
            int src = flow.spec().src();
            int dst = flow.spec().dst();
            sends[src] = true;
            boolean[] bad = failed.computeIfAbsent(((long) src << 32) | dst, k -> new boolean[qps]);
            List<Integer> use = new ArrayList<>(qps);
            for (int q = 0; q < qps; q++) if (!bad[q]) use.add(q);
            if (use.isEmpty()) for (int q = 0; q < qps; q++) use.add(q);
            long size = flow.spec().sizeBytes();
            int n = (int) Math.max(1, Math.min(use.size(), size));
            long base = size / n;
            long extra = size % n;
            List<Lane> lanes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int q = use.get(i);
                Lane lane = new Lane(flow, bad, q, sourcePort(src, q));
                lanes.add(lane);
                long bytes = base + (i < extra ? 1 : 0);
                opening = lane;
                QueuePair qp = t.openQp(flow, bytes);
                opening = null;
                lane.context = qp.context();
                qp.setSchemeState(new Msg(lane, bytes, lanes));
                lane.open.add(qp);
                lane.sending = qp;
            }
        }

        /** The flow alone on an idle fabric: no QP has failed, so its bytes go evenly over all {@code qps} QPs (openFlow). */
        @Override
        public IdleSplit idleSplit(Transport t, FlowSpec spec) {
            return IdleSplit.evenly(spec.sizeBytes(), qps);
        }

        @Override
        public void initQp(QueuePair qp) {
            if (opening != null) qp.setSport(opening.sport);
        }

        @Override
        public void beforeSend(QueuePair qp, Packet p) {
            p.sport = qp.sport();
            p.dscp = dscp;
            if (p.seq == qp.packets() - 1) {
                Lane lane = ((Msg) qp.schemeState()).lane();
                if (lane.sending == qp) {
                    lane.sending = null; // the QP's send queue moves on to re-posted data, if any
                    if (!lane.waiting.isEmpty()) transport.sim().schedule(0, this, EV_NEXT, 0, lane);
                }
            }
        }

        @Override
        public void onEvent(int kind, long arg, Object obj) {
            if (kind == EV_NEXT) next((Lane) obj);
        }

        private void next(Lane lane) {
            if (lane.sending != null || lane.waiting.isEmpty()) return;
            lane.sending = lane.waiting.pollFirst();
            transport.startQp(lane.sending);
        }

        @Override
        public void onTimeout(QueuePair qp) {
            Msg msg = (Msg) qp.schemeState();
            Lane lane = msg.lane();
            if (lane.connFailed[lane.q] && !lane.open.contains(qp)) return;
            lane.connFailed[lane.q] = true;
            List<Lane> healthy = new ArrayList<>();
            for (Lane l : msg.siblings()) if (!l.connFailed[l.q]) healthy.add(l);
            if (healthy.isEmpty()) {
                stranded++;
                return; // nowhere to move: keep retrying on this QP
            }
            int mtu = transport.config().mtuBytes();
            long remaining = 0;
            List<QueuePair> old = new ArrayList<>(lane.open);
            for (QueuePair o : old) {
                // a delivered QP only misses ACKs: it is abandoned without re-posting anything
                if (o.isFinished() || o.isDelivered()) continue;
                long b = ((Msg) o.schemeState()).bytes();
                remaining += Math.max(0, b - o.sndUna() * mtu);
                o.countReposted();
            }
            long base = remaining / healthy.size();
            long extra = remaining % healthy.size();
            for (int i = 0; i < healthy.size(); i++) {
                long b = base + (i < extra ? 1 : 0);
                if (b == 0) continue;
                Lane h = healthy.get(i);
                opening = h;
                QueuePair moved = transport.openMessage(lane.flow, b, h.context);
                opening = null;
                moved.setSchemeState(new Msg(h, b, msg.siblings()));
                h.open.add(moved);
                h.waiting.addLast(moved);
                next(h);
            }
            moves++;
            // abandon only after the replacements exist, so the flow never looks delivered in between
            for (QueuePair o : old) o.abandon();
            lane.open.clear();
            lane.waiting.clear();
            lane.sending = null;
        }

        @Override
        public List<String> warnings() {
            List<String> w = new ArrayList<>();
            addLeafWarnings(w);
            if (stranded > 0) {
                w.add("dnlb: " + stranded + " QP timeouts found every QP of their connection failed; those QPs kept"
                        + " retrying on their own port");
            }
            return w;
        }

        /** Times data was moved off a failed QP. */
        public long moves() {
            return moves;
        }
    }
}

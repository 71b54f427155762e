package lbsim.net;

import java.util.SplittableRandom;

/**
 * A switch: a shared buffer (admission, PFC; its superclass, for memory layout), an ECN marker
 * and a forwarding strategy. Routing tables are arrays indexed by destination ToR, shared by the
 * switches whose tables are equal; the live tables change when a failure is detected, the static
 * ones (used by source routes) never do.
 */
public final class Switch extends SharedBuffer {
    private final SwitchConfig cfg;
    private ForwardingStrategy strategy;
    private boolean forwardHook;
    private int arrivalPort = -1;       // local port of the packet being routed (for VRF-like strategies)
    private final SplittableRandom ecnRandom;
    private double ecnPmax;
    private int arLevels;           // 0: adaptive routing compares exact egress bytes
    private long[] arBandBytes;     // per local port: the width of one adaptive-routing band

    private final int selfTor;        // this switch's ToR index, -1 if not a ToR
    private final int[] hostTorIndex;  // shared: destination host -> ToR index
    private final int[] torPortToHost; // shared: host -> local port at its ToR
    // Next hops by destination ToR, resolved from the routing's (ToR -> group -> ports) tables
    // into one lookup: a hop to a single next hop (every downward hop of a Clos) reads one int
    // and no group array (on large fabrics each was a cache miss).
    private int[] nextHopByTor;                    // live: >= 0 the only next hop's port, NO_ROUTE, or an ECMP group (groupCode)
    private int[][] liveGroups;                    // live ECMP groups with two or more ports
    private int[][][] staticBundlesByTor;          // static next-hop switches (source routes), each with its LAG members toward each ToR
    private int[][] portRoutesByTor;               // path_control port: the egress ports a path ID byte indexes toward each ToR; null: lag
    private boolean[] downwardByTor;               // path_control port: toward each ToR, whether the hop goes down (re-reads a byte)

    Switch(Network net, int id, SwitchConfig cfg, int[] hostTorIndex, int[] torPortToHost) {
        super(net, id);
        this.cfg = cfg;
        this.hostTorIndex = hostTorIndex;
        this.torPortToHost = torPortToHost;
        this.selfTor = net.topology().torIndex(id);
        var routing = net.topology().routing();
        setLiveRouting(routing.groupByTor(id), routing.groupsOf(id));
        this.staticBundlesByTor = net.sharedBundles(routing.groupByTor(id), routing.bundlesOf(id));
        this.ecnRandom = net.sim().random().stream("ecn." + net.topology().nodeName(id));
    }

    void init() {
        initBuffer(cfg);
        ecnPmax = cfg.pmax();
        for (Port p : ports) {
            p.ecnKmin = cfg.kmin(p.nominalRateBps());
            p.ecnKmax = Math.max(p.ecnKmin, cfg.kmax(p.nominalRateBps()));
        }
        arLevels = cfg.arLevels();
        arBandBytes = new long[ports.length];
        if (arLevels > 0) {
            // a port's range: its ECN Kmax (the queue the fabric deems congested), but no more than the
            // buffer it can hold (static per-port buffer, else the switch's), so a full queue is the last band
            long cap = cfg.portBufferBytes() > 0 ? cfg.portBufferBytes() : bufferTotal();
            for (Port p : ports) arBandBytes[p.local] = SwitchConfig.arBandBytes(Math.min(p.ecnKmax, cap), arLevels);
        }
    }

    public void setStrategy(ForwardingStrategy strategy) {
        this.strategy = strategy;
        this.forwardHook = strategy != null && strategy.observesForwarding();
    }

    /** The local port the packet now being routed arrived on (valid inside {@link ForwardingStrategy#choose}). */
    public int arrivalPort() {
        return arrivalPort;
    }

    public ForwardingStrategy strategy() {
        return strategy;
    }

    private static final int NO_ROUTE = -1;

    /** The {@link #nextHopByTor} code of ECMP group {@code i} of {@link #liveGroups}, and the group of a code (its own inverse). */
    private static int groupCode(int i) {
        return -2 - i;
    }

    void setLiveRouting(int[] groupByTor, int[][] groups) {
        int[] codes = new int[groupByTor.length];
        java.util.List<int[]> multi = new java.util.ArrayList<>();
        for (int t = 0; t < codes.length; t++) {
            int[] g = t != selfTor && groupByTor[t] >= 0 ? groups[groupByTor[t]] : null;
            if (g == null || g.length == 0) {
                codes[t] = NO_ROUTE;     // this ToR (routed to the host port before the table) or unreachable
            } else if (g.length == 1) {
                codes[t] = g[0];
            } else {
                int i = multi.indexOf(g);   // the routing shares one array per group: keep sharing it
                if (i < 0) {
                    i = multi.size();
                    multi.add(g);
                }
                codes[t] = groupCode(i);
            }
        }
        this.liveGroups = multi.toArray(new int[0][]);
        // route() answers for this switch's own ToR before reading the table: give that entry the
        // table's most common value, so that switches in the same role (every ToR of a Clos, the
        // aggregation switches of a pod) have equal tables and share one (Network.sharedTable)
        if (selfTor >= 0) codes[selfTor] = mostCommon(codes);
        this.nextHopByTor = net.sharedTable(codes);
    }

    /** The source routes' bundles per destination ToR (shared; read only). */
    int[][][] staticBundleTable() {
        return staticBundlesByTor;
    }

    /** The live next-hop table (shared; read only). */
    int[] nextHopTable() {
        return nextHopByTor;
    }

    /** The most common value of {@code a} (the smallest of equally common ones), a's own entries only. */
    static int mostCommon(int[] a) {
        int[] sorted = a.clone();
        java.util.Arrays.sort(sorted);
        int best = sorted.length > 0 ? sorted[0] : 0;
        int bestRun = 0;
        for (int i = 0, j; i < sorted.length; i = j) {
            j = i + 1;
            while (j < sorted.length && sorted[j] == sorted[i]) j++;
            if (j - i > bestRun) {
                bestRun = j - i;
                best = sorted[i];
            }
        }
        return best;
    }

    /** The live next hops route() chooses among toward ToR {@code tor}, not this switch's own (empty: no route). */
    int[] liveNextHops(int tor) {
        int code = nextHopByTor[tor];
        if (code == NO_ROUTE) return new int[0];
        return code >= 0 ? new int[] {code} : liveGroups[groupCode(code)].clone();
    }

    /**
     * After a detection: each source-route bundle keeps only its members whose links are not
     * detected down, as a LAG drops a dead member from its hash (algorithms.md §5.2); path IDs
     * still name the same next-hop switches. A bundle with no member left keeps them all, so a
     * route naming a dead hop blackholes until its host moves it (Ethereal §3.3).
     */
    void setLiveBundles(boolean[] linkDetectedDown) {
        var topo = net.topology();
        var routing = topo.routing();
        int[][][] all = routing.bundlesOf(id);
        int first = topo.firstPort(id);
        int[][][] live = new int[all.length][][];
        for (int g = 0; g < all.length; g++) {
            live[g] = new int[all[g].length][];
            for (int b = 0; b < all[g].length; b++) {
                int[] members = java.util.Arrays.stream(all[g][b]).filter(l -> !linkDetectedDown[topo.portLink(first + l)]).toArray();
                live[g][b] = members.length > 0 ? members : all[g][b];
            }
        }
        this.staticBundlesByTor = net.sharedBundles(routing.groupByTor(id), live);
    }

    /**
     * Source routes name egress ports (path_control port, {@link lbsim.topology.Routing}): a path ID
     * byte picks the port among every equal-cost port, bundle members included, at an upward hop,
     * and downward hops re-read the bytes in reverse order. A dead port stays named (a dead path,
     * until its host moves the QP), as a dead single link is; detected failures change nothing here.
     */
    void usePortRoutes() {
        var routing = net.topology().routing();
        int[] groupByTor = routing.groupByTor(id);
        int[][] ports = byTor(groupByTor, routing.portGroupsOf(id));
        if (selfTor >= 0) ports[selfTor] = null;
        boolean[] downByGroup = routing.downGroupsOf(id);
        boolean[] down = new boolean[groupByTor.length];
        for (int t = 0; t < down.length; t++) down[t] = t != selfTor && groupByTor[t] >= 0 && downByGroup[groupByTor[t]];
        this.portRoutesByTor = ports;
        this.downwardByTor = down;
    }

    /** {@code groups[groupByTor[t]]} for every ToR t (null where the group index is negative or t is this switch's own ToR). */
    private static <T> T[] byTor(int[] groupByTor, T[] groups) {
        T[] out = java.util.Arrays.copyOf(groups, groupByTor.length);
        for (int t = 0; t < groupByTor.length; t++) out[t] = groupByTor[t] >= 0 ? groups[groupByTor[t]] : null;
        return out;
    }

    /**
     * The load of an egress port that load-aware choices (DRILL, flowlets, adaptive spraying)
     * compare: bytes queued plus the packet in serialisation, so a port busy sending one packet
     * is not mistaken for an idle one (its bytes have already left the buffer).
     */
    public long egressBytes(int localPort) {
        Port o = ports[localPort];
        return o.bufEgress + o.bytesInSerialisation();
    }

    /**
     * The load of an egress port that adaptive-routing choices compare (spray-adaptive, drill, ecmp-ar,
     * flowlet-switch; lowest first, ties broken at random): as a switch ASIC's port quality, the
     * {@link #egressBytes} quantised into {@code switch.ar_levels} equal bands over the port's range
     * min(ECN Kmax, buffer), the last band open-ended ({@link SwitchConfig#arBand}); with
     * {@code ar_levels: 0} the exact egress bytes.
     */
    public long arLoad(int localPort) {
        long q = egressBytes(localPort);
        return arLevels == 0 ? q : SwitchConfig.arBand(q, arBandBytes[localPort], arLevels);
    }

    /** Whether {@link #arLoad} is quantised (ar_levels > 0): choices then break ties uniformly at random. */
    public boolean arQuantised() {
        return arLevels > 0;
    }

    /**
     * A configuration warning, or null: an ECN threshold no egress queue can reach (Kmin at or above
     * the static per-port buffer, or the whole shared buffer), so this switch never marks and an
     * ECN-driven congestion control gets no signal from it.
     */
    public String ecnWarning() {
        long limit = cfg.portBufferBytes() > 0 ? cfg.portBufferBytes() : bufferTotal();
        for (Port p : ports) {
            if (p.ecnKmin < limit) continue;
            String where = name() + ": ECN Kmin " + p.ecnKmin + " B on its port to " + p.peer().name() + " is at or above ";
            String fix = "; lower switch.ecn_kmin_bytes / ecn_kmax_bytes or raise the buffer";
            if (cfg.portBufferBytes() == 0) return where + "the " + limit + " B switch buffer, so that queue is never marked" + fix;
            if (!cfg.pfc()) return where + "port_buffer_bytes " + limit + " B, so that queue is never marked" + fix;
            // with PFC the static buffer is per ingress: only several ingresses together can fill an egress queue past Kmin
            return where + "port_buffer_bytes " + limit + " B: with PFC each ingress pauses there, so that queue is marked only when "
                    + (p.ecnKmin / limit + 1) + " or more ingress ports fill it at once" + fix;
        }
        return null;
    }

    /**
     * A configuration warning, or null: PFC headroom that leaves less than a quarter of the shared
     * buffer shared. Static per-port buffers keep their headroom on top of the port's buffer
     * (SharedBuffer.initBuffer), so nothing is shared and the headroom takes nothing from it.
     */
    public String bufferWarning() {
        if (!cfg.pfc() || cfg.portBufferBytes() > 0) return null;
        long reserved = reservedHeadroom();
        if (reserved * 4 <= bufferTotal() * 3) return null;
        return name() + ": PFC headroom (" + reserved + " B over " + ports.length + " ports) leaves less than a quarter of the "
                + bufferTotal() + " B buffer shared; packets in flight after a pause may be dropped";
    }

    @Override
    protected void receive(Packet p, int in) {
        arrivalPort = in;
        if (strategy.intercept(this, p, in)) return;
        int out = route(p);
        if (out < 0) {
            ports[in].countBufferDrop();
            net.dropped(p);
            return;
        }
        boolean control = p.priority == Packet.PRIO_HIGH;
        Port o = ports[out];
        Port sender = ingress[in];
        if (!admit(sender, o, p.wireBytes, control)) {
            if (cfg.trimMode() != SwitchConfig.TRIM_OFF && p.kind == Packet.DATA && !p.trimmed && trim(p, in, out)) return;
            o.countBufferDrop();
            net.dropped(p);
            return;
        }
        if (p.kind == Packet.DATA && p.ecnCapable && !p.ecnMarked) maybeMark(p, o);
        p.ingressPort = control ? -1 : in;
        if (!forwardHook && o.startsAtOnce(p)) {
            // an idle port: the packet would join the buffer and leave it at this instant, which
            // changes no count; only the departure's PFC resume check remains (as in onDequeued)
            if (!control && shouldResume(sender)) ports[in].sendPfc(false, sender);
            o.transmitNow(p);
        } else {
            addBytes(control ? null : sender, o, p.wireBytes);
            if (forwardHook) strategy.onForward(this, p, in, out);
            o.enqueue(p);
        }
        if (shouldPause(sender)) ports[in].sendPfc(true, sender);
    }

    /**
     * Admits a data packet toward its host port at this ToR without queueing it: the strategy
     * holds it (ConWeave's reorder queue) and later calls {@link #releaseHeld}. The bytes count
     * in the shared buffer and for PFC on ingress {@code in}. False if the buffer cannot take it:
     * then, as in {@link #receive}, it is trimmed when trimming is on (the header is queued at
     * once, not held) and dropped (counted) only if that is off or the header does not fit either.
     */
    public boolean hold(Packet p, int in) {
        int out = torPortToHost[p.dst];
        Port o = ports[out];
        Port sender = ingress[in];
        if (!admit(sender, o, p.wireBytes, false)) {
            // McClure §4 "Packet Trimming": no data is dropped while its header still fits
            if (cfg.trimMode() != SwitchConfig.TRIM_OFF && p.kind == Packet.DATA && !p.trimmed && trim(p, in, out)) return false;
            o.countBufferDrop();
            net.dropped(p);
            return false;
        }
        p.ingressPort = in;
        addBytes(sender, o, p.wireBytes);
        if (shouldPause(sender)) ports[in].sendPfc(true, sender);
        return true;
    }

    /** Queues a packet taken with {@link #hold} on its host port. */
    public void releaseHeld(Packet p) {
        Port o = ports[torPortToHost[p.dst]];
        if (p.kind == Packet.DATA && p.ecnCapable && !p.ecnMarked) maybeMark(p, o);
        o.enqueue(p);
    }

    /** Whether trimmed headers go back to their sender (return-to-sender): every trimmed packet then travels from receiver to sender. */
    public boolean trimsToSender() {
        return cfg.trimMode() == SwitchConfig.TRIM_TO_SENDER;
    }

    /** A new packet from the pool for a control packet this switch originates. */
    public Packet newPacket() {
        return net.newPacket();
    }

    /** Sends a control packet this switch originates (high priority, counted as injected). */
    public void sendControl(Packet p) {
        p.priority = Packet.PRIO_HIGH;
        net.countInjected(p);
        int out = route(p);
        if (out < 0 || !admit(null, ports[out], p.wireBytes, true)) {
            if (out >= 0) ports[out].countBufferDrop();
            net.dropped(p);
            return;
        }
        p.ingressPort = -1;
        addBytes(null, ports[out], p.wireBytes);
        ports[out].enqueue(p);
    }

    /** Ends a control packet addressed to this switch (counted as delivered). */
    public void consume(Packet p) {
        net.consumedBySwitch(p);
    }

    /**
     * NDP trimming (algorithms.md §1.10; McClure §4): cuts the payload of a data packet the buffer
     * cannot take and queues the header at high priority, toward the receiver or, for
     * return-to-sender, back toward the sender (source and destination swapped, routed by
     * destination like any packet). False if the header does not fit either (then it is dropped).
     */
    private boolean trim(Packet p, int in, int out) {
        p.trimmed = true;
        p.payloadBytes = 0;
        p.wireBytes = cfg.trimmedBytes();
        p.priority = Packet.PRIO_HIGH;
        if (cfg.trimMode() == SwitchConfig.TRIM_TO_SENDER) {
            int s = p.src;
            p.src = p.dst;
            p.dst = s;
            p.sourceRouted = false;
            out = route(p);
            if (out < 0) return false;
        }
        if (!admit(ingress[in], ports[out], p.wireBytes, true)) return false;
        p.ingressPort = -1;
        addBytes(null, ports[out], p.wireBytes);
        ports[out].enqueue(p);
        net.countTrimmed();
        return true;
    }

    /** RED on the egress data queue at enqueue (Kmin = Kmax, Pmax = 1 is DCTCP's step). */
    private void maybeMark(Packet p, Port o) {
        long q = o.queuedDataBytes();
        long kmin = o.ecnKmin;
        if (q <= kmin) return;
        long kmax = o.ecnKmax;
        boolean mark;
        if (q > kmax) {
            mark = true;
        } else {
            double prob = ecnPmax * (q - kmin) / (double) (kmax - kmin);
            mark = ecnRandom.nextDouble() < prob;
        }
        if (mark) {
            p.ecnMarked = true;
            o.countEcnMark();
        }
    }

    private int route(Packet p) {
        int dstTor = hostTorIndex[p.dst];
        if (dstTor == selfTor) return torPortToHost[p.dst];
        if (p.sourceRouted) {
            if (portRoutesByTor != null) return portRoute(p, dstTor);
            // the path ID picks the next-hop switch; the member of its bundle is the switch's hash (a LAG)
            int[][] b = staticBundlesByTor[dstTor];
            int[] m = b[0];
            if (b.length > 1) {
                m = b[((p.pathId >>> p.routeShift) & 0xFF) % b.length];
                p.routeShift += 8;
            }
            return m.length == 1 ? m[0] : strategy.choose(this, p, m);
        }
        int code = nextHopByTor[dstTor];
        if (code >= NO_ROUTE) return code;
        return strategy.choose(this, p, liveGroups[groupCode(code)]);
    }

    /** path_control port: the byte at the packet's shift picks the port going up; going down the shift steps back first. */
    private int portRoute(Packet p, int dstTor) {
        int[] ports = portRoutesByTor[dstTor];
        if (ports.length == 1) return ports[0];
        int shift = p.routeShift;
        if (downwardByTor[dstTor]) {
            shift = Math.max(0, shift - 8);
            p.routeShift = (byte) shift;
        } else {
            p.routeShift = (byte) (shift + 8);
        }
        return ports[((p.pathId >>> shift) & 0xFF) % ports.length];
    }

    @Override
    protected void onDequeued(Port port, Packet p) {
        int in = p.ingressPort;
        Port sender = in >= 0 ? ingress[in] : null;
        removeBytes(sender, port, p.wireBytes);
        if (shouldResume(sender)) ports[in].sendPfc(false, sender);
    }
}

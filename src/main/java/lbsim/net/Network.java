package lbsim.net;

import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.objects.ObjectOpenCustomHashSet;
import java.util.function.Function;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.topology.PathControl;
import lbsim.topology.Routing;
import lbsim.topology.Topology;

/**
 * The packet network of one run: hosts, switches and ports built from a topology, the packet
 * pool, packet accounting for the conservation check, and link failures.
 */
public final class Network implements EventHandler {
    private static final int DETECT = 1;

    private final Simulation sim;
    private final Topology topo;
    private final SwitchConfig cfg;
    private final Port[] ports;
    private final Host[] hosts;
    private final Switch[] switches;
    private final PacketPool pool = new PacketPool();
    private PacketSink sink;
    private final Host.Contexts contexts = new Host.Contexts(this);

    private final boolean[] linkDetectedDown;
    /** Each link's health now (links.csv {@code state}) and since when; both directions share it. */
    public enum LinkState { UP, DOWN, DEGRADED, FLAKY;
        /** The name links.csv and events.csv use. */
        public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
    }
    private final LinkState[] linkState;
    private final long[] linkStateSincePs;
    // switches' next-hop tables by content: equal tables share one array, so the tables a run
    // reads fit the caches (a k=32 fat-tree has 1 280 tables of 512 entries but about 34 distinct ones)
    private final ObjectOpenCustomHashSet<int[]> tables = new ObjectOpenCustomHashSet<>(IntArrays.HASH_STRATEGY);

    // accounting: index 0 data, 1 control
    private final long[] injected = new long[2];
    private final long[] delivered = new long[2];
    private final long[] dropped = new long[2];
    private long trimmed;
    private long[] lostByQp = new long[64]; // per sender QP id: data packets dropped, or trimmed to a header (flows.max_loss_fraction)

    public Network(Simulation sim, Topology topo, SwitchConfig cfg, Function<Switch, ForwardingStrategy> strategies) {
        this.sim = sim;
        this.topo = topo;
        this.cfg = cfg;
        int nodes = topo.nodeCount();
        this.ports = new Port[topo.portCount()];
        this.hosts = new Host[topo.hostCount()];
        this.switches = new Switch[nodes - topo.hostCount()];
        this.linkDetectedDown = new boolean[topo.linkCount()];
        this.linkState = new LinkState[topo.linkCount()];
        java.util.Arrays.fill(linkState, LinkState.UP);
        this.linkStateSincePs = new long[topo.linkCount()];
        int[] hostTorIndex = new int[topo.hostCount()];
        for (int h = 0; h < hostTorIndex.length; h++) hostTorIndex[h] = topo.torIndex(topo.hostTor(h));
        int[] torPortToHost = topo.routing().torPortToHost();
        Node[] all = new Node[nodes];
        for (int n = 0; n < nodes; n++) {
            Node node;
            if (topo.isHost(n)) {
                node = hosts[n] = new Host(this, n);
            } else {
                node = switches[n - hosts.length] = new Switch(this, n, cfg, hostTorIndex, torPortToHost);
            }
            all[n] = node;
            Port[] own = new Port[topo.portsOf(n)];
            for (int i = 0; i < own.length; i++) {
                int pid = topo.firstPort(n) + i;
                own[i] = ports[pid] = new Port(this, node, i, pid, topo.portRateBps(pid), topo.portLatencyPs(pid));
            }
            node.setPorts(own);
        }
        for (Port p : ports) {
            int peer = topo.portPeer(p.id);
            p.connect(all[topo.portOwner(peer)], topo.localIndex(peer));
        }
        for (Host h : hosts) h.nic().setSource(h);
        for (Switch s : switches) {
            s.init();
            s.setStrategy(strategies.apply(s));
        }
        sim.setLookahead(ports.length >= LOOKAHEAD_MIN_PORTS);
    }

    private PathControl pathControl = PathControl.LAG;

    /**
     * How the switches read source-route path IDs ({@link Routing}); the default, LAG, is the
     * reading of every scheme but Ethereal with {@code path_control: port}. Set before any packet flows.
     */
    public void setPathControl(PathControl control) {
        if (control == pathControl) return;
        if (control != PathControl.PORT) throw new IllegalStateException("source routes name ports already");
        this.pathControl = control;
        for (Switch s : switches) s.usePortRoutes();
    }

    public PathControl pathControl() {
        return pathControl;
    }

    /** A table equal to {@code table}, shared with every switch whose table is equal; never written after this. */
    int[] sharedTable(int[] table) {
        return tables.addOrGet(table);
    }

    /**
     * {@code bundlesByGroup[groupByTor[t]]} for every ToR t (null where the group id is negative), one array
     * shared by every switch with the same (shared) group-id row and equal bundles: a k=96 fat-tree keeps
     * about a hundred such arrays instead of 11 520 of 4 608 references. Never written after this.
     */
    int[][][] sharedBundles(int[] groupByTor, int[][][] bundlesByGroup) {
        return bundleTables.computeIfAbsent(new BundleKey(groupByTor, bundlesByGroup), k -> {
            int[][][] out = new int[groupByTor.length][][];
            for (int t = 0; t < out.length; t++) out[t] = groupByTor[t] >= 0 ? bundlesByGroup[groupByTor[t]] : null;
            return out;
        });
    }

    /** A group-id row (by identity: the routing shares equal rows) and bundles per group (by content). */
    private record BundleKey(int[] row, int[][][] bundles) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BundleKey k && k.row == row && java.util.Arrays.deepEquals(k.bundles, bundles);
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(row) + java.util.Arrays.deepHashCode(bundles);
        }
    }

    private final java.util.Map<BundleKey, int[][][]> bundleTables = new java.util.HashMap<>();

    /** Distinct next-hop tables since the last routing change (the live ones). */
    int sharedTableCount() {
        return tables.size();
    }

    /**
     * Port count (a proxy for the state a hop touches) from which the event loop prefetches: below
     * it ports, switches and packets stay in the caches and the loads ahead only cost time
     * (fat-tree k=8, 768 ports: 4.7 % faster without; k=12, 2 592: 2 % faster without, within
     * noise; k=16, 6 144: 1.7 % slower without; README "Speed").
     */
    static final int LOOKAHEAD_MIN_PORTS = 4096;

    public Simulation sim() { return sim; }
    public Topology topology() { return topo; }
    public SwitchConfig switchConfig() { return cfg; }
    public Host host(int id) { return hosts[id]; }
    public int hostCount() { return hosts.length; }
    public Switch switchNode(int node) { return switches[node - hosts.length]; }
    public Switch[] switches() { return switches; }
    public Port port(int globalId) { return ports[globalId]; }
    public Port[] ports() { return ports; }

    /** The port at the other end of a link direction (when {@code peer}), else the port itself. */
    Port port(int globalId, boolean peer) {
        return peer ? ports[topo.portPeer(globalId)] : ports[globalId];
    }

    public void setSink(PacketSink sink) {
        this.sink = sink;
    }

    public Packet newPacket() {
        return pool.get();
    }

    /** Returns a packet that reached the end of its life (consumed by an endpoint). */
    public void release(Packet p) {
        pool.release(p);
    }

    public PacketPool pool() {
        return pool;
    }

    void countInjected(Packet p) {
        injected[p.kind == Packet.DATA ? 0 : 1]++;
    }

    void dropped(Packet p) {
        dropped[p.kind == Packet.DATA ? 0 : 1]++;
        if (p.kind == Packet.DATA) countLost(p.qp);   // a trimmed header counts once: here or on arrival
        pool.release(p);
    }

    /** A control packet that ended at a switch (a load balancer's REPLY/NOTIFY). */
    void consumedBySwitch(Packet p) {
        delivered[p.kind == Packet.DATA ? 0 : 1]++;
        pool.release(p);
    }

    /** A packet reached its host's NIC: it counts as delivered now, and reaches the transport now or after a context miss. */
    void arrivedAtHost(Host h, Packet p) {
        delivered[p.kind == Packet.DATA ? 0 : 1]++;
        if (p.kind == Packet.DATA && p.trimmed) countLost(p.qp);
        if (h.rxContexts) h.rxArrive(p);
        else sink.deliver(h, p);
    }

    /** A packet that reached a NIC but did not fit its receive buffer: dropped, no longer delivered. */
    void droppedAtNic(Packet p) {
        int k = p.kind == Packet.DATA ? 0 : 1;
        delivered[k]--;   // counted on arrival (arrivedAtHost)
        dropped[k]++;
        if (k == 0 && !p.trimmed) countLost(p.qp);   // a trimmed header was counted lost on arrival
        pool.release(p);
    }

    /** Hands a packet the receive pipeline held to the transport. */
    void deliverToSink(Host h, Packet p) {
        sink.deliver(h, p);
    }

    Host.Contexts contexts() {
        return contexts;
    }

    /** Sets every host's NIC behaviour (before the run; {@link NicConfig#IDEAL} if never called). */
    public void configureNics(NicConfig cfg) {
        for (Host h : hosts) h.configureNic(cfg);
    }

    /** QP context misses at all NICs so far, transmit and receive. */
    public long contextMisses() {
        return txContextMisses() + rxContextMisses();
    }

    /** PFC PAUSE frames the NICs sent for their receive buffers. */
    public long rxPauseFrames() {
        return sumOverHosts(Host::rxPauseFrames);
    }

    /** Packets the NICs' receive buffers could not hold. */
    public long rxBufferDrops() {
        return sumOverHosts(Host::rxBufferDrops);
    }

    private long sumOverHosts(java.util.function.ToLongFunction<Host> count) {
        long n = 0;
        for (Host h : hosts) n += count.applyAsLong(h);
        return n;
    }

    /** The most bytes any NIC's receive buffer held at once. */
    public long rxMaxHeldBytes() {
        long n = 0;
        for (Host h : hosts) n = Math.max(n, h.rxMaxHeldBytes());
        return n;
    }

    /** Context misses of packets the NICs were about to send. */
    public long txContextMisses() {
        return sumOverHosts(Host::txContextMisses);
    }

    /** Context misses of packets that reached the NICs. */
    public long rxContextMisses() {
        return sumOverHosts(Host::rxContextMisses);
    }

    void countTrimmed() {
        trimmed++;
    }

    private void countLost(int qp) {
        if (qp < 0) return;
        if (qp >= lostByQp.length) lostByQp = java.util.Arrays.copyOf(lostByQp, Math.max(qp + 1, 2 * lostByQp.length));
        lostByQp[qp]++;
    }

    /** Data packets of sender QP {@code qp} that lost their payload: dropped anywhere, or trimmed to a header. */
    public long lostPackets(int qp) {
        return qp >= 0 && qp < lostByQp.length ? lostByQp[qp] : 0;
    }

    /** Data packets a switch trimmed to a header (trim and trim-rts); they stay data packets in the counts. */
    public long trimmedPackets() { return trimmed; }

    public long dataInjected() { return injected[0]; }

    public long dataDelivered() { return delivered[0]; }
    public long dataDropped() { return dropped[0]; }
    public long controlInjected() { return injected[1]; }
    public long controlDelivered() { return delivered[1]; }
    public long controlDropped() { return dropped[1]; }

    // ---- failures -------------------------------------------------------------------------

    /**
     * Takes a link down now: packets sent into it are lost. Switches keep using it until
     * {@code detectPs} later, when every switch's live ECMP groups are recomputed without it
     * (Ethereal §4.2 uses 100 ms). Source routes keep naming it, and the host must react,
     * unless it is one member of a bundle that has others: the switch then hashes over those.
     */
    public void failLink(int link, long detectPs) {
        setPortsUp(link, false);
        sim.log().record(sim.now(), "link-down", topo.linkName(link), detectPs <= 0 ? "detected at once"
                : "switches detect it after " + detectPs / (double) Simulation.PS_PER_MS + " ms");
        if (detectPs <= 0) detect(link);
        else sim.schedule(detectPs, this, DETECT, link, null);
    }

    /** Takes a link down (never detected) or brings it back, both directions; logged as link-down or link-up. */
    public void setLinkUp(int link, boolean up) {
        boolean wasDown = linkState[link] == LinkState.DOWN;
        setPortsUp(link, up);
        if (up && wasDown) sim.log().record(sim.now(), "link-up", topo.linkName(link), "");
        if (!up && !wasDown) sim.log().record(sim.now(), "link-down", topo.linkName(link), "not detected");
    }

    /** Counts changes of links' up/down state, so that a caller recomputes what depends on them only when they change. */
    private long linkStateChanges;

    public long linkStateChanges() {
        return linkStateChanges;
    }

    private void setPortsUp(int link, boolean up) {
        linkStateChanges++;
        ports[topo.linkPortA(link)].setUp(up);
        ports[topo.linkPortB(link)].setUp(up);
        setState(link, up ? LinkState.UP : LinkState.DOWN);
    }

    /** Scales a link's rate in both directions (a LAG bundle that lost members). */
    public void degradeLink(int link, double capacityFraction) {
        ports[topo.linkPortA(link)].setCapacityFraction(capacityFraction);
        ports[topo.linkPortB(link)].setCapacityFraction(capacityFraction);
        sim.log().record(sim.now(), "link-degraded", topo.linkName(link), "capacity fraction " + capacityFraction);
        setState(link, capacityFraction < 1 ? LinkState.DEGRADED : LinkState.UP);
    }

    /** Gives a link a loss model per direction (null: none); a link with one is flaky. */
    public void setLinkLoss(int link, LinkLoss lossAtoB, LinkLoss lossBtoA) {
        ports[topo.linkPortA(link)].setLoss(lossAtoB);
        ports[topo.linkPortB(link)].setLoss(lossBtoA);
        boolean lossy = lossAtoB != null || lossBtoA != null;
        if (lossy) sim.log().record(sim.now(), "link-flaky", topo.linkName(link), String.valueOf(lossAtoB != null ? lossAtoB : lossBtoA));
        setState(link, lossy ? LinkState.FLAKY : LinkState.UP);
    }

    private void setState(int link, LinkState state) {
        if (linkState[link] == state) return;
        linkState[link] = state;
        linkStateSincePs[link] = sim.now();
    }

    /** The link's health now: the last failure applied to it (up if none). */
    public LinkState linkState(int link) {
        return linkState[link];
    }

    /** When the link entered its current state (0 for a link up from the start). */
    public long linkStateSincePs(int link) {
        return linkStateSincePs[link];
    }

    private void detect(int link) {
        linkDetectedDown[link] = true;
        int detected = 0;
        for (boolean d : linkDetectedDown) if (d) detected++;
        sim.log().record(sim.now(), "link-detected", topo.linkName(link), "switches route around it");
        sim.log().record(sim.now(), "reroute", "switches", "every switch's ECMP groups recomputed without the "
                + detected + (detected == 1 ? " link" : " links") + " detected down");
        Routing live = topo.routingAvoiding(linkDetectedDown);
        tables.clear();   // every switch gets its table anew: keep only the live ones
        bundleTables.clear();
        for (Switch s : switches) {
            s.setLiveRouting(live.groupByTor(s.id), live.groupsOf(s.id));
            s.setLiveBundles(linkDetectedDown);
        }
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == DETECT) detect((int) arg);
    }

    /**
     * Connected components of the fabric over the links that are up now: two nodes with the same
     * label are joined by some path. Tells a run that cannot finish whether a flow has no path
     * left at all (no scheme could deliver it) or is stuck for another reason.
     */
    public int[] componentsOfUpLinks() {
        int n = topo.nodeCount();
        int[] label = new int[n];
        java.util.Arrays.fill(label, -1);
        int[] stack = new int[n];
        for (int start = 0; start < n; start++) {
            if (label[start] >= 0) continue;
            label[start] = start;
            int top = 0;
            stack[top++] = start;
            while (top > 0) {
                int node = stack[--top];
                for (int pid = topo.firstPort(node), end = pid + topo.portsOf(node); pid < end; pid++) {
                    int peer = topo.peerNode(pid);
                    if (ports[pid].isUp() && label[peer] < 0) {
                        label[peer] = start;
                        stack[top++] = peer;
                    }
                }
            }
        }
        return label;
    }

    /** When the last serialisation on any link that has ended by now ended. */
    public long lastTransmissionEndPs() {
        long t = 0;
        for (Port p : ports) t = Math.max(t, p.lastTransmissionEndPs());
        return t;
    }

    /** Closes time-weighted counters at the end of a run. */
    public void finish() {
        for (Port p : ports) p.finish(sim.now());
    }
}

package lbsim.net;

import java.util.Arrays;

/**
 * A NIC endpoint: one port to its ToR and a scheduler over the active queue pairs, shaped by its
 * {@link NicConfig} ({@link NicConfig#IDEAL} until {@link #configureNic} is called).
 *
 * <p><b>Arbitration.</b> Active clients sit in a ring; only they are ever asked for a packet, so
 * a packet costs O(1) whatever the number of connections. The client at the head keeps its turn
 * until it has sent {@code arbitrationBytes} wire bytes in it (0, or anything up to one packet:
 * one packet per turn, plain round robin) or has nothing to send, which takes it out of the ring.
 *
 * <p><b>QP context cache</b> (when {@link NicConfig#contextMisses()}). The NIC holds at most
 * {@code qpCacheEntries} contexts (a random one is evicted when it is full); a QP's requester context lives at
 * its source host, its responder context at its destination. Transmit and receive are two serial
 * pipelines that share the cache and stall independently:
 * <ul>
 * <li>TX: a packet pulled from a client whose context is not held waits {@code qpMissPs} before
 * its serialisation may start, and no other client's packet starts meanwhile. Control packets
 * queued on the port ({@link #sendControl}, {@link #sendAtDataPriority}) do not wait.</li>
 * <li>RX: an arriving DATA or PROBE packet uses the responder context, an ACK, NACK, CNP or
 * PROBE_ACK the requester context. A miss delays its delivery to the transport by
 * {@code qpMissPs}; packets that arrive meanwhile wait behind it in arrival order (head of line)
 * and each one that misses in turn adds its own stall. With nothing waiting, a hit is delivered
 * at once.</li>
 * </ul>
 * <b>Receive buffer.</b> What waits in the receive pipeline (the stalled head included) is held in
 * the NIC's receive buffer of {@code rxBufferBytes} (0: unbounded). With PFC the NIC pauses its ToR
 * when the held bytes reach XOFF, the buffer less the headroom that can still arrive once the pause
 * is sent (a switch's headroom and one packet more), and resumes it at XON; an arrival that does not fit is dropped
 * (Mellanox WinOF user manual §8.13 "Lossless TCP": pause at the XOFF threshold, drop when full).
 * With every packet missing, TX sends one packet per serialisation + miss time; RX needs one miss
 * time per packet, which is shorter, so the RX stall overlaps the next TX stall and adds latency
 * only: throughput is serialisation / (serialisation + miss) of line rate. RX limits the rate
 * only when the sender does not miss (line rate at most serialisation / miss). Contexts are
 * looked up when a packet reaches the head of its pipeline, so the cache sees the order the NIC
 * processes them in.
 */
public final class Host extends Node implements TrafficSource {
    static final int TX_READY = 1;
    static final int RX_READY = 2;

    // one check on each per-packet path: false for the ideal NIC, and for a context cache that has
    // not lost a context yet (until then every look-up hits, and the plain paths do the same thing)
    private boolean modelled;   // arbitration, or contexts that can miss: nextPacket takes the modelled path
    boolean rxContexts;         // arrivals go through the receive pipeline (read by Network.arrivedAtHost)

    private NicClient[] ring = new NicClient[8]; // power-of-two length
    private int head;
    private int size;

    private NicConfig nicConfig = NicConfig.IDEAL;
    private long arbitrationBytes;
    private long turnBytes;         // wire bytes the head client has sent in its current turn
    private boolean txContexts;
    private long missPs;

    // QP context cache (see Contexts)
    private int ctxCapacity;
    int[] held = new int[0];    // the contexts this NIC holds (Contexts), ctxCount of them
    int ctxCount;
    // every context is installed when its QP is created (installContext), so until this NIC has lost
    // one every context it uses is held: the per-packet look-up is skipped (it reads a large array)
    boolean contextsLost;
    private long victimState;   // xorshift state choosing which context a full cache evicts
    private long txMisses;
    private long rxMisses;

    private Packet txPending;       // pulled, waiting for its context until txReadyPs
    private long txReadyPs;
    private Packet rxHead;          // arrived, not yet delivered, waiting for its context (null: not stalled)
    private RxBacklog rxBacklog;    // arrived behind rxHead, in arrival order (made at the first stall)

    // the receive buffer holding rxHead and rxBacklog (see the class comment)
    private long rxBufferBytes;     // 0: unbounded
    private boolean rxLossless;     // PFC on and a bounded buffer: pause the ToR at XOFF
    private long rxXoff;
    private long rxResumeOffset;
    private Port torPort;           // the ToR's port toward this NIC, which a PAUSE stops
    private boolean rxPausing;      // a PAUSE is in force (no RESUME sent since)
    private long rxHeldBytes;
    private long rxMaxHeldBytes;
    private long rxPauseFrames;
    private long rxBufferDrops;

    Host(Network net, int id) {
        super(net, id);
        victimState = 0x9E3779B97F4A7C15L * (id + 1);
    }

    /** The index of the held context a full cache evicts: uniform over the ctxCount held (xorshift64*). */
    int nextVictim() {
        long x = victimState;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        victimState = x;
        return (int) Long.remainderUnsigned(x * 0x2545F4914F6CDD1DL, ctxCount);
    }

    public Port nic() {
        return ports[0];
    }

    /**
     * Sets this NIC's behaviour; before the run, or while no packet waits in a NIC pipeline.
     * Contexts held beyond a smaller capacity are evicted.
     */
    public void configureNic(NicConfig cfg) {
        if (txPending != null || rxHead != null) throw new IllegalStateException("a packet waits for its QP context at " + name());
        nicConfig = cfg;
        arbitrationBytes = cfg.arbitrationBytes();
        boolean contexts = cfg.contextMisses();
        txContexts = contexts;
        missPs = cfg.qpMissPs();
        ctxCapacity = contexts ? cfg.qpCacheEntries() : 0;
        configureRxBuffer(cfg.rxBufferBytes());
        Contexts table = net.contexts();
        while (ctxCount > ctxCapacity) table.evict(this);
        choosePaths();
    }

    /**
     * XOFF is the buffer less the PFC headroom on this link ({@code switch.headroom_bytes}, or 2 x
     * link BDP + 3 packets); XON is XOFF less the switches' resume offset.
     */
    private void configureRxBuffer(long bytes) {
        rxBufferBytes = bytes;
        SwitchConfig sw = net.switchConfig();
        rxLossless = bytes > 0 && sw != null && sw.pfc() && ports[0] != null;
        if (!rxLossless) return;
        Port p = ports[0];
        // one packet more than a switch reserves: the arrival that crosses XOFF is already held when the
        // PAUSE leaves, and ACKs (high priority, never paused) keep arriving meanwhile
        long headroom = sw.headroomBytes() >= 0 ? sw.headroomBytes()
                : 2 * lbsim.engine.Simulation.bytesAtRate(p.latencyPs(), p.nominalRateBps()) + 3 * sw.packetBytes();
        rxXoff = Math.max(1, bytes - headroom);
        rxResumeOffset = sw.resumeOffsetBytes() >= 0 ? sw.resumeOffsetBytes() : 2 * sw.packetBytes();
        torPort = net.port(p.id, true);
    }

    /** This NIC lost a context (evicted, or moved to another NIC): from now on its look-ups can miss. */
    private void contextLost() {
        contextsLost = true;
        choosePaths();
    }

    /**
     * The per-packet paths: the modelled ones only when they can differ from the plain ones. A
     * cache that has not lost a context finds every one (all are installed when their QPs are
     * created), so the plain paths send and deliver exactly as the pipelines would, with fewer
     * instructions per packet (the 65 280-QP bench all-to-all, docs/speed.md).
     */
    private void choosePaths() {
        boolean canMiss = txContexts && contextsLost;
        modelled = arbitrationBytes > 0 || canMiss;
        rxContexts = canMiss;
    }

    public NicConfig nicConfig() {
        return nicConfig;
    }

    /**
     * A QP was created with this NIC at one end: its context is installed in the cache as the most
     * recently used one (the driver's modify_qp commands write it through the NIC), so its first
     * packet finds it; later contexts may evict it. {@code responder}: the receiving end's context.
     */
    public void installContext(int qpContext, boolean responder) {
        if (ctxCapacity > 0) net.contexts().use(this, 2 * qpContext + (responder ? 1 : 0));
    }

    /** QP context misses at this NIC so far, transmit and receive. */
    public long contextMisses() {
        return txMisses + rxMisses;
    }

    public long txContextMisses() {
        return txMisses;
    }

    public long rxContextMisses() {
        return rxMisses;
    }

    /** PFC PAUSE frames this NIC sent because its receive buffer reached XOFF. */
    public long rxPauseFrames() {
        return rxPauseFrames;
    }

    /** Packets dropped because the receive buffer could not hold them. */
    public long rxBufferDrops() {
        return rxBufferDrops;
    }

    /** The most bytes the receive buffer has held at once. */
    public long rxMaxHeldBytes() {
        return rxMaxHeldBytes;
    }

    /** Puts a client with data into the round-robin ring and starts the NIC if idle. */
    public void activate(NicClient c) {
        if (!c.inRing) {
            c.inRing = true;
            if (size == ring.length) grow();
            ring[(head + size) & (ring.length - 1)] = c;
            size++;
        }
        ports[0].kick();
    }

    /** Sends a control packet (ACK, NACK, CNP) at high priority. */
    public void sendControl(Packet p) {
        p.priority = Packet.PRIO_HIGH;
        net.countInjected(p);
        ports[0].enqueue(p);
    }

    /** Sends a host-generated packet (a path probe) in the data class, so it queues behind data like data does. */
    public void sendAtDataPriority(Packet p) {
        p.priority = Packet.PRIO_DATA;
        net.countInjected(p);
        ports[0].enqueue(p);
    }

    @Override
    public Packet nextPacket() {
        if (modelled) return nextPacketModelled();
        int tries = size;
        while (tries-- > 0) {
            NicClient c = ring[head];
            ring[head] = null;
            head = (head + 1) & (ring.length - 1);
            size--;
            Packet p = c.pull();
            if (p != null) {
                ring[(head + size) & (ring.length - 1)] = c;
                size++;
                return p;
            }
            c.inRing = false;
        }
        return null;
    }

    /** {@link #nextPacket} with turns of {@code arbitrationBytes} and the context cache. */
    private Packet nextPacketModelled() {
        Packet p = txPending;
        if (p != null) {
            if (net.sim().now() < txReadyPs) return null;   // the pipeline is stalled
            txPending = null;
            return p;
        }
        int mask = ring.length - 1;
        int tries = size;
        while (tries-- > 0) {
            NicClient c = ring[head];
            p = c.pull();
            if (p == null) {
                ring[head] = null;
                head = (head + 1) & mask;
                size--;
                c.inRing = false;
                turnBytes = 0;
                continue;
            }
            turnBytes += p.wireBytes;
            if (turnBytes >= arbitrationBytes) {   // the turn ends: to the back of the ring
                turnBytes = 0;
                ring[head] = null;
                head = (head + 1) & mask;
                ring[(head + size - 1) & mask] = c;
            }
            if (txContexts) {
                int qp = c.contextId;
                if (qp >= 0 && contextsLost && !net.contexts().use(this, 2 * qp)) {
                    txMisses++;
                    txPending = p;
                    txReadyPs = net.sim().now() + missPs;
                    net.sim().scheduleAt(txReadyPs, this, TX_READY, 0, null);
                    return null;
                }
            }
            return p;
        }
        return null;
    }

    /**
     * True when no client is active. A packet waiting for its context keeps its client in the
     * ring (only a pull that returns null takes one out, and none happens meanwhile), so this is
     * false then too.
     */
    @Override
    public boolean idle() {
        return size == 0;
    }

    private void grow() {
        NicClient[] bigger = new NicClient[ring.length * 2];
        for (int i = 0; i < size; i++) bigger[i] = ring[(head + i) & (ring.length - 1)];
        Arrays.fill(ring, null);
        ring = bigger;
        head = 0;
    }

    @Override
    protected void receive(Packet p, int inPort) {
        net.arrivedAtHost(this, p);
    }

    /** A packet reached this NIC and the context cache is on: deliver it, or hold it behind a stall. */
    void rxArrive(Packet p) {
        p.next = null;
        if (rxHead != null || (rxBacklog != null && !rxBacklog.isEmpty())) {   // stalled: wait in line
            if (rxHold(p)) rxBacklog.add(p);
            return;
        }
        if (rxContextHeld(p)) {
            net.deliverToSink(this, p);
            return;
        }
        if (!rxHold(p)) return;
        rxHead = p;
        if (rxBacklog == null) rxBacklog = new RxBacklog(net.pool());
        net.sim().schedule(missPs, this, RX_READY, 0, null);
    }

    /** Looks up (and on a miss fetches) the context an arriving packet uses; counts the miss. */
    private boolean rxContextHeld(Packet p) {
        int qp = p.ctx;
        if (qp < 0 || !contextsLost) return true;
        boolean responder = p.kind == Packet.DATA || p.kind == Packet.PROBE;
        if (net.contexts().use(this, 2 * qp + (responder ? 1 : 0))) return true;
        rxMisses++;
        return false;
    }

    /** Takes {@code p} into the receive buffer (true), or drops it when it does not fit. */
    private boolean rxHold(Packet p) {
        long held = rxHeldBytes + p.wireBytes;
        if (rxBufferBytes > 0 && held > rxBufferBytes) {
            rxBufferDrops++;
            net.droppedAtNic(p);
            return false;
        }
        rxHeldBytes = held;
        if (held > rxMaxHeldBytes) rxMaxHeldBytes = held;
        if (rxLossless && !rxPausing && held >= rxXoff) {
            rxPausing = true;
            rxPauseFrames++;
            ports[0].sendPfc(true, torPort);
        }
        return true;
    }

    /** The head packet's context has arrived: deliver it and what follows until the next miss. */
    private void rxStallEnded() {
        Packet p = rxHead;
        rxHead = null;
        rxHeldBytes -= p.wireBytes;   // read before the transport may recycle the packet
        net.deliverToSink(this, p);
        while (!rxBacklog.isEmpty()) {   // meanwhile the packets still in line keep the pipeline stalled
            p = rxBacklog.poll();
            if (!rxContextHeld(p)) {
                rxHead = p;
                net.sim().schedule(missPs, this, RX_READY, 0, null);
                break;
            }
            rxHeldBytes -= p.wireBytes;
            net.deliverToSink(this, p);
        }
        // XON as at a switch: the held bytes fell the resume offset below XOFF, or to nothing
        if (rxPausing && (rxHeldBytes + rxResumeOffset <= rxXoff || rxHeldBytes == 0)) {
            rxPausing = false;
            ports[0].sendPfc(false, torPort);
        }
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == TX_READY) ports[0].kick();
        else if (kind == RX_READY) rxStallEnded();
        else super.onEvent(kind, arg, obj);
    }

    /**
     * The QP contexts every NIC holds, {@code 2 x qp} for a requester context and {@code 2 x qp + 1}
     * for a responder context. A full cache evicts a context chosen at random (a per-host
     * generator seeded by the host id, so runs repeat): NIC caches are not exact LRU, and under a
     * round-robin schedule over more contexts than entries random replacement still hits about as
     * often as the cache is large relative to them, so throughput falls gradually past the cache
     * size as RDMA QP-scaling measurements show, where LRU would miss on every packet at once. A
     * hit is one array read; the arrays grow with the context ids. A context is held by at most
     * one host ({@code owner}).
     */
    static final class Contexts {
        private final Network net;
        // per context e: [2e] the host holding it (-1 if none), [2e+1] its index in that host's held
        // array; side by side so that a miss, which reads and writes both, touches one cache line
        private int[] entries = new int[0];

        Contexts(Network net) {
            this.net = net;
        }

        /** Context {@code e} is used at {@code h}: true if it was held there, else it is fetched (and held now). */
        boolean use(Host h, int e) {
            int at = 2 * e;
            if (at >= entries.length) grow(e);
            int[] en = entries;
            int o = en[at];
            if (o == h.id) return true;
            if (o >= 0) remove(net.host(o), e);   // the id was last used at another NIC: it moves here
            if (h.ctxCount >= h.ctxCapacity) {
                int victim = h.held[h.nextVictim()];
                remove(h, victim);
            }
            if (h.ctxCount == h.held.length) h.held = Arrays.copyOf(h.held, Math.min(h.ctxCapacity, Math.max(8, 2 * h.held.length)));
            h.held[h.ctxCount] = e;
            en[at + 1] = h.ctxCount++;
            en[at] = h.id;
            return false;
        }

        /** Drops one of {@code h}'s contexts (the cache shrank). */
        void evict(Host h) {
            remove(h, h.held[h.ctxCount - 1]);
        }

        /** Whether {@code h} holds context {@code e} (tests). */
        boolean holds(Host h, int e) {
            return 2 * e < entries.length && entries[2 * e] == h.id;
        }

        private void remove(Host h, int e) {
            if (!h.contextsLost) h.contextLost();
            int[] en = entries;
            int i = en[2 * e + 1];
            int last = h.held[--h.ctxCount];
            h.held[i] = last;
            en[2 * last + 1] = i;
            en[2 * e] = -1;
        }

        private void grow(int e) {
            int n = Math.max(e + 1, Math.max(64, entries.length));   // contexts: at least double
            int old = entries.length;
            entries = Arrays.copyOf(entries, 2 * n);
            for (int i = old; i < entries.length; i += 2) entries[i] = -1;
        }
    }
}

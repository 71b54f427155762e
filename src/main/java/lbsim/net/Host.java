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
 * {@code qpCacheEntries} contexts, least recently used evicted; a QP's requester context lives at
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

    // one check on each per-packet path: false for the ideal NIC
    private boolean modelled;   // arbitration or context misses: nextPacket takes the modelled path
    boolean rxContexts;         // arrivals go through the receive pipeline (read by Network.arrivedAtHost)

    private NicClient[] ring = new NicClient[8]; // power-of-two length
    private int head;
    private int size;

    private NicConfig nicConfig = NicConfig.IDEAL;
    private long arbitrationBytes;
    private long turnBytes;         // wire bytes the head client has sent in its current turn
    private boolean txContexts;
    private long missPs;

    // QP context cache: an LRU list through the network's shared arrays (see Contexts); -1 = none
    private int ctxCapacity;
    int ctxHead = -1;           // most recently used
    int ctxTail = -1;           // least recently used, evicted next
    int ctxCount;
    private long txMisses;
    private long rxMisses;

    private Packet txPending;       // pulled, waiting for its context until txReadyPs
    private long txReadyPs;
    private Packet rxHead;          // arrived, not yet delivered: the first one waits for its context
    private Packet rxTail;

    Host(Network net, int id) {
        super(net, id);
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
        rxContexts = contexts;
        missPs = cfg.qpMissPs();
        ctxCapacity = contexts ? cfg.qpCacheEntries() : 0;
        modelled = arbitrationBytes > 0 || contexts;
        Contexts table = net.contexts();
        while (ctxCount > ctxCapacity) table.evict(this);
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
                int qp = c.contextId();
                if (qp >= 0 && !net.contexts().use(this, 2 * qp)) {
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
        if (rxHead != null) {   // stalled: wait in line
            rxTail.next = p;
            rxTail = p;
            return;
        }
        if (rxContextHeld(p)) {
            net.deliverToSink(this, p);
            return;
        }
        rxHead = p;
        rxTail = p;
        net.sim().schedule(missPs, this, RX_READY, 0, null);
    }

    /** Looks up (and on a miss fetches) the context an arriving packet uses; counts the miss. */
    private boolean rxContextHeld(Packet p) {
        int qp = p.ctx;
        if (qp < 0) return true;
        boolean responder = p.kind == Packet.DATA || p.kind == Packet.PROBE;
        if (net.contexts().use(this, 2 * qp + (responder ? 1 : 0))) return true;
        rxMisses++;
        return false;
    }

    /** The head packet's context has arrived: deliver it and what follows until the next miss. */
    private void rxStallEnded() {
        Packet p = rxHead;
        rxHead = p.next;
        if (rxHead == null) rxTail = null;
        p.next = null;
        net.deliverToSink(this, p);
        while ((p = rxHead) != null) {
            if (!rxContextHeld(p)) {
                net.sim().schedule(missPs, this, RX_READY, 0, null);
                return;
            }
            rxHead = p.next;
            if (rxHead == null) rxTail = null;
            p.next = null;
            net.deliverToSink(this, p);
        }
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == TX_READY) ports[0].kick();
        else if (kind == RX_READY) rxStallEnded();
        else super.onEvent(kind, arg, obj);
    }

    /**
     * The QP contexts every NIC holds: one LRU list per host threaded through arrays indexed by
     * context, {@code 2 x qp} for a requester context and {@code 2 x qp + 1} for a responder
     * context, so a look-up costs a few array accesses and no hashing. The arrays grow with the
     * QP ids. A context is held by at most one host ({@code owner}).
     */
    static final class Contexts {
        private final Network net;
        private int[] prev = new int[0];
        private int[] next = new int[0];
        private int[] owner = new int[0];   // host holding the context, -1 if none

        Contexts(Network net) {
            this.net = net;
        }

        /** Marks context {@code e} most recently used at {@code h}; false if it was not held there (it is now). */
        boolean use(Host h, int e) {
            if (e >= owner.length) grow(e);
            int o = owner[e];
            if (o == h.id) {
                if (h.ctxHead != e) {
                    unlink(h, e);
                    pushFront(h, e);
                }
                return true;
            }
            if (o >= 0) {   // the id was last used at another NIC: it moves here
                Host other = net.host(o);
                unlink(other, e);
                other.ctxCount--;
            }
            if (h.ctxCount >= h.ctxCapacity) evict(h);
            pushFront(h, e);
            owner[e] = h.id;
            h.ctxCount++;
            return false;
        }

        /** Drops {@code h}'s least recently used context. */
        void evict(Host h) {
            int t = h.ctxTail;
            unlink(h, t);
            owner[t] = -1;
            h.ctxCount--;
        }

        /** Whether {@code h} holds context {@code e} (tests). */
        boolean holds(Host h, int e) {
            return e < owner.length && owner[e] == h.id;
        }

        private void unlink(Host h, int e) {
            int p = prev[e];
            int n = next[e];
            if (p >= 0) next[p] = n;
            else h.ctxHead = n;
            if (n >= 0) prev[n] = p;
            else h.ctxTail = p;
        }

        private void pushFront(Host h, int e) {
            int first = h.ctxHead;
            prev[e] = -1;
            next[e] = first;
            if (first >= 0) prev[first] = e;
            else h.ctxTail = e;
            h.ctxHead = e;
        }

        private void grow(int e) {
            int n = Math.max(e + 1, Math.max(64, 2 * owner.length));
            int old = owner.length;
            prev = Arrays.copyOf(prev, n);
            next = Arrays.copyOf(next, n);
            owner = Arrays.copyOf(owner, n);
            Arrays.fill(owner, old, n, -1);
        }
    }
}

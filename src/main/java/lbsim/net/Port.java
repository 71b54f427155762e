package lbsim.net;

import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;

/**
 * Egress side of one link direction: a strict-priority output queue (control above data),
 * serialisation at line rate, propagation delay, PFC pause state for the data priority, and
 * the link's health (up/down, degraded rate, flaky loss). Counters feed links.csv.
 */
public final class Port implements EventHandler {
    static final int TX_DONE = 1;
    static final int PFC_FRAME = 2;
    static final int WIRE_HEAD_ARRIVES = 3;
    /** Bytes of a PFC frame on the wire (64 B minimum Ethernet frame). */
    public static final int PFC_FRAME_BYTES = 64;

    private final Network net;
    private final Simulation sim;
    public final Node owner;
    public final int local;
    public final int id;
    private Node peer;
    private int peerLocal;
    private final long nominalRateBps;
    private long rateBps;
    private final long latencyPs;

    private final PacketQueue[] queues = new PacketQueue[Packet.PRIORITIES];
    private final long[] queueBytes = new long[Packet.PRIORITIES];
    private boolean busy;
    private boolean dataPaused;
    private long pausedSincePs;
    private TrafficSource source;

    private boolean up = true;
    private LinkLoss loss;

    // Packets propagating on the wire, in departure order. Latency is constant per link, so
    // they arrive in that order: only the head has an event in the global queue, which keeps
    // the heap as small as the number of busy links instead of the number of packets in flight.
    private final PacketQueue onWire = new PacketQueue();
    private long[] wireArrival = new long[16];
    private int wireHead;

    // counters
    long txBytes;
    long txPackets;
    long txDataPackets;
    long maxQueueBytes;
    long bufferDrops;
    long wireDrops;
    long ecnMarks;
    long pauseFramesReceived;
    long pauseFramesSent;
    long pausedPs;

    Port(Network net, Node owner, int local, int id, long rateBps, long latencyPs) {
        this.net = net;
        this.sim = net.sim();
        this.owner = owner;
        this.local = local;
        this.id = id;
        this.nominalRateBps = rateBps;
        this.rateBps = rateBps;
        this.latencyPs = latencyPs;
        for (int i = 0; i < queues.length; i++) queues[i] = new PacketQueue();
    }

    void connect(Node peer, int peerLocal) {
        this.peer = peer;
        this.peerLocal = peerLocal;
    }

    void setSource(TrafficSource source) {
        this.source = source;
    }

    public Node peer() { return peer; }
    public long rateBps() { return rateBps; }
    public long nominalRateBps() { return nominalRateBps; }
    public long latencyPs() { return latencyPs; }
    public boolean isUp() { return up; }
    public boolean isBusy() { return busy; }
    public boolean isDataPaused() { return dataPaused; }

    /** Bytes waiting (all priorities), not counting the packet being serialised. */
    public long queuedBytes() {
        return queueBytes[0] + queueBytes[1];
    }

    public long queuedDataBytes() {
        return queueBytes[Packet.PRIO_DATA];
    }

    public long serializationPs(int bytes) {
        return bytes * 8_000_000_000_000L / rateBps;
    }

    public void enqueue(Packet p) {
        int prio = p.priority;
        queues[prio].add(p);
        queueBytes[prio] += p.wireBytes;
        long q = queueBytes[0] + queueBytes[1];
        if (q > maxQueueBytes) maxQueueBytes = q;
        if (!busy) startNext();
    }

    /** Starts transmitting if idle (e.g. a traffic source just became ready). */
    public void kick() {
        if (!busy) startNext();
    }

    private void startNext() {
        Packet p = queues[Packet.PRIO_HIGH].poll();
        if (p != null) {
            queueBytes[Packet.PRIO_HIGH] -= p.wireBytes;
        } else if (!dataPaused) {
            p = queues[Packet.PRIO_DATA].poll();
            if (p != null) {
                queueBytes[Packet.PRIO_DATA] -= p.wireBytes;
            } else if (source != null) {
                p = source.nextPacket();
                if (p != null) net.countInjected(p);
            }
        }
        if (p == null) return;
        busy = true;
        sim.schedule(serializationPs(p.wireBytes), this, TX_DONE, 0, p);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == TX_DONE) {
            Packet p = (Packet) obj;
            busy = false;
            txBytes += p.wireBytes;
            txPackets++;
            if (p.kind == Packet.DATA) txDataPackets++;
            owner.onTransmitted(this, p);
            if (!up || (loss != null && loss.drops(sim.now()))) {
                wireDrops++;
                net.dropped(p);
            } else {
                putOnWire(p);
            }
            startNext();
        } else if (kind == WIRE_HEAD_ARRIVES) {
            Packet p = onWire.poll();
            wireHead = (wireHead + 1) & (wireArrival.length - 1);
            if (!onWire.isEmpty()) sim.scheduleAt(wireArrival[wireHead], this, WIRE_HEAD_ARRIVES, 0, null);
            peer.receive(p, peerLocal);
        } else if (kind == PFC_FRAME) {
            pauseFramesReceived += arg != 0 ? 1 : 0;
            setDataPaused(arg != 0);
        }
    }

    private void putOnWire(Packet p) {
        int n = onWire.size();
        if (n == wireArrival.length) {
            long[] bigger = new long[n * 2];
            for (int i = 0; i < n; i++) bigger[i] = wireArrival[(wireHead + i) & (n - 1)];
            wireArrival = bigger;
            wireHead = 0;
        }
        long at = sim.now() + latencyPs;
        wireArrival[(wireHead + n) & (wireArrival.length - 1)] = at;
        onWire.add(p);
        if (n == 0) sim.scheduleAt(at, this, WIRE_HEAD_ARRIVES, 0, null);
    }

    private void setDataPaused(boolean pause) {
        if (pause == dataPaused) return;
        dataPaused = pause;
        if (pause) {
            pausedSincePs = sim.now();
        } else {
            pausedPs += sim.now() - pausedSincePs;
            kick();
        }
    }

    /** Sends a PFC PAUSE (or RESUME) for the data priority to the node at the other end. */
    void sendPfc(boolean pause, Port upstream) {
        if (pause) pauseFramesSent++;
        long delay = serializationPs(PFC_FRAME_BYTES) + latencyPs;
        sim.schedule(delay, upstream, PFC_FRAME, pause ? 1 : 0, null);
    }

    void setUp(boolean up) {
        this.up = up;
    }

    void setLoss(LinkLoss loss) {
        this.loss = loss;
    }

    /** Partial capacity loss: the port serialises at fraction x nominal rate. */
    void setCapacityFraction(double fraction) {
        this.rateBps = Math.max(1L, Math.round(nominalRateBps * fraction));
    }

    void countEcnMark() {
        ecnMarks++;
    }

    void countBufferDrop() {
        bufferDrops++;
    }

    /** Closes the paused-time account at the end of a run. */
    void finish(long nowPs) {
        if (dataPaused) {
            pausedPs += nowPs - pausedSincePs;
            pausedSincePs = nowPs;
        }
    }

    public PortStats stats() {
        return new PortStats(txBytes, txPackets, txDataPackets, maxQueueBytes, bufferDrops, wireDrops, ecnMarks,
                pauseFramesReceived, pauseFramesSent, pausedPs);
    }
}

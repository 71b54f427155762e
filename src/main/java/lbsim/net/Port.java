package lbsim.net;

/**
 * Egress side of one link direction: a strict-priority output queue (control above data),
 * serialisation at line rate, propagation delay, PFC pause state for the data priority, and
 * the link's health (up/down, degraded rate, flaky loss). Counters feed links.csv.
 *
 * <p>A packet is dequeued when its serialisation starts: its bytes leave the switch buffer then
 * (as in the HPCC/ConWeave ns-3 switch, which releases buffer and checks PFC resume at dequeue,
 * before TransmitStart), and it goes on the wire at once, arriving at end of serialisation plus
 * latency. Nothing else happens at the end of serialisation, so that event is scheduled only
 * when another packet waits to start then; an idle link costs one event per packet (its
 * arrival).
 */
public final class Port extends PortQueueState {
    static final int TX_DONE = 1;
    static final int PFC_FRAME = 2;
    static final int WIRE_HEAD_ARRIVES = 3;
    /** Bytes of a PFC frame on the wire (64 B minimum Ethernet frame). */
    public static final int PFC_FRAME_BYTES = 64;

    public final int local;
    public final int id;
    private final long nominalRateBps;
    private long rateBps;
    private long pausedSincePs;
    // the packet in serialisation when the rate last changed: its end and its start (see txBytesSerialisedBy)
    private long rateChangeTxEndPs = Long.MIN_VALUE;
    private long rateChangeTxStartPs;

    // the owning switch's buffer accounting read only on a PFC pause or at build time
    long ingressHeadroom;       // PFC headroom the receiving switch reserves for this link (see ingressHeld)
    long ecnKmax;               // RED upper threshold on this egress data queue

    // counters of rare events
    long bufferDrops;
    long wireDrops;
    long ecnMarks;
    long txCnps;                // CNPs started on this link (link_series.csv)
    long deadTxBytes;           // bytes serialised into the link while it was down: lost, not carried (link_series.csv)
    private boolean txDead;     // the packet in serialisation went into a down link
    long pauseFramesReceived;
    long pauseFramesSent;
    long pausedPs;

    Port(Network net, Node owner, int local, int id, long rateBps, long latencyPs) {
        super(WIRE_HEAD_ARRIVES, TX_DONE, net, owner, latencyPs);
        this.local = local;
        this.id = id;
        this.nominalRateBps = rateBps;
        this.rateBps = rateBps;
        this.psPerByte = exactPsPerByte(rateBps);
    }

    void connect(Node peer, int peerLocal) {
        this.peer = peer;
        this.peerLocal = peerLocal;
    }

    void setSource(TrafficSource source) {
        this.source = source;
        this.hasSource = source != null;
    }

    public Node peer() { return peer; }
    public long rateBps() { return rateBps; }
    public long nominalRateBps() { return nominalRateBps; }
    public long latencyPs() { return latencyPs; }
    public boolean isUp() { return up; }
    /** A packet is in serialisation. */
    public boolean isBusy() { return txEndPs > sim.now(); }

    /** Bytes of the packet in serialisation now, 0 if none. */
    int bytesInSerialisation() {
        return txEndPs > sim.now() ? txBytesInProgress : 0;
    }
    public boolean isDataPaused() { return dataPaused; }

    /** Bytes waiting (all priorities), not counting the packet being serialised. */
    public long queuedBytes() {
        return hiBytes + dataBytes;
    }

    public long queuedDataBytes() {
        return dataBytes;
    }

    public long serializationPs(int bytes) {
        long k = psPerByte;
        return k != 0 ? bytes * k : bytes * 8_000_000_000_000L / rateBps;
    }

    /** 8e12 / rate when that is an integer (then bytes x it equals the division), else 0. */
    private static long exactPsPerByte(long rateBps) {
        return 8_000_000_000_000L % rateBps == 0 ? 8_000_000_000_000L / rateBps : 0;
    }

    public void enqueue(Packet p) {
        int bytes = p.wireBytes;
        p.next = null;
        if (p.priority == Packet.PRIO_HIGH) {
            Packet t = hiTail;
            if (t == null) hiHead = p;
            else t.next = p;
            hiTail = p;
            hiBytes += bytes;
        } else {
            Packet t = dataTail;
            if (t == null) dataHead = p;
            else t.next = p;
            dataTail = p;
            dataBytes += bytes;
        }
        long q = hiBytes + dataBytes;
        if (q > maxQueueBytes) maxQueueBytes = q;
        if (!busy) wake();
    }

    /** Starts transmitting if idle (e.g. a traffic source just became ready). */
    public void kick() {
        if (!busy) wake();
    }

    /** Not busy, and a packet may be ready: start it now, or when the serialisation in progress ends. */
    private void wake() {
        if (txEndPs > sim.now()) {
            busy = true;
            sim.scheduleOwned(txDone, txEndPs);
        } else {
            startNext();
        }
    }

    private void startNext() {
        Packet p = hiHead;
        if (p != null) {
            Packet n = p.next;
            hiHead = n;
            if (n == null) hiTail = null;
            hiBytes -= p.wireBytes;
        } else if (!dataPaused) {
            p = dataHead;
            if (p != null) {
                Packet n = p.next;
                dataHead = n;
                if (n == null) dataTail = null;
                dataBytes -= p.wireBytes;
            } else if (hasSource) {
                p = source.nextPacket();
                if (p != null) net.countInjected(p);
            }
        }
        if (p == null) return;
        owner.onDequeued(this, p);
        transmit(p);
    }

    /**
     * Whether {@code p}, enqueued now, would start serialisation at once: the link is free, no
     * packet waits and the data priority is not paused (for data). Then a switch may skip the
     * queue and its buffer accounting and call {@link #transmitNow} (see Switch.receive).
     */
    boolean startsAtOnce(Packet p) {
        return !busy && hiHead == null && dataHead == null && txEndPs <= sim.now()
                && (p.priority == Packet.PRIO_HIGH || !dataPaused);
    }

    /**
     * What {@link #enqueue} does when {@link #startsAtOnce} holds, minus the buffer accounting,
     * which the caller skips: the packet's bytes would enter and leave the buffer at this instant.
     * The queue maximum still counts it, as the queue held it for that instant.
     */
    void transmitNow(Packet p) {
        int bytes = p.wireBytes;
        if (bytes > maxQueueBytes) maxQueueBytes = bytes;
        transmit(p);
    }

    /** Starts serialising {@code p} now (the link is free and p has left the queue and the buffer). */
    private void transmit(Packet p) {
        int bytes = p.wireBytes;
        long end = sim.now() + serializationPs(bytes);
        txEndPs = end;
        txBytesInProgress = bytes;
        boolean data = p.kind == Packet.DATA;
        txDataInProgress = data;
        txBytes += bytes;
        txPackets++;
        if (data) txDataPackets++;
        else if (p.kind == Packet.CNP) txCnps++;
        if (!up || (loss != null && loss.drops(end))) {
            wireDrops++;
            txLost = true;
            txDead = !up;
            if (!up) deadTxBytes += bytes;
            net.dropped(p);
        } else {
            txLost = false; // txDead is false here: only a down link sets it, and setUp(true) clears it
            putOnWire(p, end);
        }
        if (hiHead != null || dataHead != null || (hasSource && !source.idle())) {
            busy = true;
            sim.scheduleOwned(txDone, end);
        }
    }

    /**
     * A wire-head arrival will read the arriving packet and the node it reaches, an end of
     * serialisation the next packet to send: this writes a scratch field of each, so their cache
     * lines are requested now. A store, not a load: a load that misses holds up every instruction
     * behind it once the reorder buffer is full, a store waits in the store buffer while the
     * current event runs (k=32 +10-14 %, k=16 +5 % against the loads; docs/speed.md, session 12).
     */
    @Override
    public void prefetch(int kind) {
        if (kind == WIRE_HEAD_ARRIVES) {
            Packet h = wireHead;
            if (h != null) {
                h.touch = 0;
                peer.touch = 0;
            }
        } else if (kind == TX_DONE) {
            Packet h = hiHead != null ? hiHead : dataHead;
            if (h != null) h.touch = 0;
        }
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == WIRE_HEAD_ARRIVES) {   // one per packet-hop: tested first
            Packet p = wireHead;
            Packet n = p.next;
            if (n != null) {
                wireHead = n;
                sim.scheduleOwned(this, p.nextArrivalPs);
            } else {
                // stores of a literal null need no GC card mark: an emptied wire (every hop on an idle link) stores only those
                wireHead = null;
                wireTail = null;
            }
            if (p == doomed) {
                doomed = null;
                wireDrops++;
                net.dropped(p);
                return;
            }
            peer.receive(p, peerLocal);
        } else if (kind == TX_DONE) {
            busy = false;
            startNext();
        } else if (kind == PFC_FRAME) {
            pauseFramesReceived += arg != 0 ? 1 : 0;
            setDataPaused(arg != 0);
        }
    }

    private void putOnWire(Packet p, long endPs) {
        long at = endPs + latencyPs;
        p.next = null;
        Packet t = wireTail;
        wireTail = p;
        if (t == null) {
            wireHead = p;
            sim.scheduleOwned(this, at);
        } else {
            t.next = p;
            t.nextArrivalPs = at;
        }
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
        long now = sim.now();
        // a packet still in serialisation ends on a dead link (lost when it would arrive) or a live one
        if (txEndPs > now) {
            doomed = up || txLost ? null : wireTail;
            // the link carries none of its bytes from the failure on (and all of them again from a repair)
            long unsent = txBytes - txBytesSerialisedBy(now);
            if (!up && !txDead) {
                txDead = true;
                deadTxBytes += unsent;
            } else if (up && txDead) {
                deadTxBytes -= unsent;
            }
        }
        if (up) txDead = false;
    }

    void setLoss(LinkLoss loss) {
        this.loss = loss;
    }

    /** Partial capacity loss: the port serialises at fraction x nominal rate. */
    void setCapacityFraction(double fraction) {
        long end = txEndPs;
        if (end > sim.now() && end != rateChangeTxEndPs) {
            // the packet in serialisation keeps the start and end of its old rate; remember its start
            rateChangeTxEndPs = end;
            rateChangeTxStartPs = end - serializationPs(txBytesInProgress);
        }
        this.rateBps = Math.max(1L, Math.round(nominalRateBps * fraction));
        this.psPerByte = exactPsPerByte(rateBps);
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

    /** When the last serialisation that has ended by now ended (0 if none): the end of this link's traffic so far. */
    public long lastTransmissionEndPs() {
        long now = sim.now();
        if (txEndPs <= now) return Math.max(0, txEndPs);
        return txPackets > 1 ? now : 0;   // one in progress: the earlier ones ended by now
    }

    /** CNPs this port has started sending so far (link_series.csv {@code cnps}). */
    public long cnpsSoFar() {
        return txCnps;
    }

    /** ECN marks this port has made so far. */
    public long ecnMarksSoFar() {
        return ecnMarks;
    }

    /** Time the data priority has been paused by {@code atPs} (not before the last event), the pause in progress included. */
    public long pausedPsBy(long atPs) {
        return dataPaused ? pausedPs + Math.max(0, atPs - pausedSincePs) : pausedPs;
    }

    /** Bytes transmitted by now, as {@link #stats()} counts them, without building the whole record (sampled every interval). */
    public long txBytesSoFar() {
        return txEndPs > sim.now() ? txBytes - txBytesInProgress : txBytes;
    }

    /**
     * Bytes serialised onto the link by {@code atPs}, which is not before the last event processed
     * (no packet has started after it): those of the packets whose serialisation ended by then, plus
     * the part of the packet in serialisation sent by then, pro rata over its serialisation time and
     * rounded down. So the count never grows faster than the line rate, and it equals
     * {@link #txBytesSoFar()} once that packet has ended. Read-only, for the throughput sampler; the
     * packet's start is its end minus its serialisation time at the current rate, or, if the rate
     * changed during it (a degrade failure), its start as recorded at the change, so the fraction
     * is exact and in [0, 1].
     */
    public long txBytesSerialisedBy(long atPs) {
        long end = txEndPs;
        if (end <= atPs) return txBytes;
        long bytes = txBytesInProgress;
        long done = txBytes - bytes;
        long start = end == rateChangeTxEndPs ? rateChangeTxStartPs : end - serializationPs(txBytesInProgress);
        long elapsed = atPs - start;
        long duration = end - start;
        if (elapsed <= 0 || duration <= 0) return done;   // cannot happen (start <= atPs < end); kept in [0, 1] anyway
        // bytes < 2^31 and elapsed < duration: the product fits a long unless the packet lasts over 2^32 ps (4.3 ms)
        long sent = elapsed < (1L << 32) ? bytes * elapsed / duration
                : java.math.BigInteger.valueOf(bytes).multiply(java.math.BigInteger.valueOf(elapsed))
                        .divide(java.math.BigInteger.valueOf(duration)).longValueExact();
        return done + sent;
    }

    /**
     * The part of {@link #txBytesSerialisedBy} that went into the link while it was down (a failure before its
     * detection: the switch still sends, the packets are lost): what the link did not carry.
     */
    public long deadTxBytesSerialisedBy(long atPs) {
        if (txEndPs <= atPs || !txDead) return deadTxBytes;
        // the packet in serialisation is dead from some point on: its bytes not yet serialised by atPs are not yet counted
        return deadTxBytes - (txBytes - txBytesSerialisedBy(atPs));
    }

    /** Counters as of now: a packet counts as transmitted once its serialisation has ended. */
    public PortStats stats() {
        long bytes = txBytesSoFar();
        long packets = txPackets;
        long dataPackets = txDataPackets;
        long lost = wireDrops;
        if (txEndPs > sim.now()) {
            packets--;
            if (txDataInProgress) dataPackets--;
            if (txLost) lost--;
        }
        return new PortStats(bytes, packets, dataPackets, maxQueueBytes, bufferDrops, lost, ecnMarks,
                pauseFramesReceived, pauseFramesSent, pausedPs);
    }
}

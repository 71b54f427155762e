package lbsim.transport;

import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.net.Host;
import lbsim.net.NicClient;
import lbsim.net.NicConfig;
import lbsim.net.Packet;

/**
 * One RoCE-style reliable connection carrying (part of) a flow: sender state (send and
 * acknowledgement pointers, congestion control, retransmission timer, pacing) and receiver
 * state (expected sequence, reorder bitmap, ACK/NACK/CNP generation). Sequence numbers count
 * packets; every packet carries a full MTU of payload except the last. The receiver keeps
 * packets beyond a gap as far as its NIC does ({@code nic.reorder}); the sender's NIC sets the
 * timers (one per QP or per packet) and the retry count after which the QP fails.
 */
public final class QueuePair extends NicClient implements EventHandler {
    private static final int EV_WAKE = 1;
    private static final int EV_RTO = 2;
    private static final int EV_CC_BASE = 16;

    private final Transport tr;
    private final Simulation sim;
    private final Flow flow;
    private final Host srcHost;
    private final Host dstHost;
    private final int mtu;
    private final int lastPayload;
    private final long lineRateBps;
    private CongestionControl cc;
    private boolean ccFeedback;     // cc.readsAckFeedback(), read per ACK
    private final LossRecovery recovery;
    private final PathPolicy policy;

    // contextId (NicClient): the NIC QP context, this QP's own or a message's long-lived QP's

    // routing identity
    private Object schemeState;     // per-QP state of the host load balancer (e.g. REPS's entropy cache)
    private int sport;
    private int pathId;
    private boolean sourceRouted;

    // sender
    private long sndUna;
    private long sndNxt;
    private long highestSent;
    private long nextSendPs;
    private boolean wakePending;
    private long rtoDeadline;
    private boolean rtoPending;
    private boolean timerRunning;   // RFC 6298: started by a send with none running, stopped when everything sent is ACKed
    private boolean senderDone;
    private int backoffs;           // timeouts in a row without progress (RtoBackoff)
    private long lastRttPs = -1;
    private long[] sackedBitmap;    // packets the receiver holds beyond a gap (allocated at the first SACK)
    private long sackedCount;
    private long rtoScheduledPs;    // when the pending timer event fires (a shorter RTO schedules an earlier one)
    private long rtoGen;            // only the newest timer event counts
    private final boolean coalescing; // the receiver coalesces ACKs (ack_every > 1): ask for them when blocked
    private final long[] sentAtPs;  // per-packet timers: when each packet was last sent (null with one timer per QP)
    private boolean ackReqPending;  // a packet with an ACK request is out and its ACK has not come back

    // selective repeat (LossRecovery.selective) and erasure coding (LossRecovery.codingOverhead)
    private final boolean selective;
    private final boolean coded;
    private final long ackTarget;   // packets the receiver acknowledges: the message, or ceil(packets x (1 + overhead)) coded ones

    // receiver
    private long[] oooBitmap;       // bit i set: packet i received beyond a gap (allocated at the first one kept)
    private final boolean coalesceOoo; // packets kept beyond a gap count towards ack_every, ACKs carry a SACK bitmap
    private boolean delivered;
    private int lastFwdPath = -1;   // source-routed: the reverse of this forward path ID is lastRevPath
    private int lastRevPath;
    private long rateCapBps = Long.MAX_VALUE; // host-imposed pacing ceiling on top of the CC (ParaLet: line rate / m)
    private long ccSeqBase;         // packets earlier messages of the same long-lived QP sent: its CC sees one sequence space
    private Cold cold;              // counters and loss-recovery state, allocated at first use (cold())
    // what the receiver reads per packet, declared last among the longs and first among the ints, so
    // that HotSpot lays it out next to the flags and references (JDK 15+ groups fields by size in
    // declaration order, references last) and a data packet's arrival touches fewer cache lines
    private final long packets;
    private long expected;
    public final int id;
    private int unackedPackets;
    private int unackedMarked;

    /**
     * The state a data packet and its ACK do not touch while nothing is lost or reordered:
     * counters, selective repeat, erasure coding, NACK and CNP pacing. Kept apart so the fields
     * every packet reads fit in fewer cache lines (65 280 QPs of an all-to-all far exceed the caches).
     */
    private static final class Cold {
        long retransmitted;
        long timeouts;
        int pathChanges;
        boolean failed;             // the retry count ran out: the QP is in the error state
        long ackReqSeq;             // the newest packet sent with an ACK request
        // selective repeat (LossRecovery.selective) and erasure coding (LossRecovery.codingOverhead)
        long[] lostBitmap;          // selective senders: packets to resend
        long lostCount;
        long lostLow = Long.MAX_VALUE; // no packet below this is marked lost
        long codedSeen;             // erasure: coded packets below this arrived or are presumed lost (out of the window)
        // receiver
        long oooHeld;               // packets held beyond the gap now
        boolean rxAckRequest;       // coalesced: an ACK request came while packets beyond a gap were held; ACK when none are
        long lastNackFor = -1;
        long lastNackPs;
        long lastCnpPs = Long.MIN_VALUE / 2;
        long cnpsSent;              // CNPs this QP's receiver sent (summary.json cnps)
        long outOfOrderArrivals;
        AdaptiveTimer adaptive;     // the sender NIC's adaptive retransmission (created with the QP), or null
    }

    private Cold cold() {
        Cold c = cold;
        if (c == null) cold = c = new Cold();
        return c;
    }

    /** Packets marked lost and not yet resent (selective recoveries); 0 without reading the cold state when there is none. */
    private long lostCount() {
        Cold c = cold;
        return c == null ? 0 : c.lostCount;
    }

    QueuePair(Transport tr, int id, Flow flow, long bytes, LossRecovery recovery, PathPolicy policy) {
        this.tr = tr;
        this.sim = tr.sim();
        this.id = id;
        this.flow = flow;
        this.srcHost = tr.network().host(flow.spec().src());
        this.dstHost = tr.network().host(flow.spec().dst());
        this.mtu = tr.config().mtuBytes();
        this.packets = Math.max(1, (bytes + mtu - 1) / mtu);
        this.lastPayload = (int) (bytes - (packets - 1) * mtu);
        this.lineRateBps = srcHost.nic().nominalRateBps();
        this.recovery = recovery;
        this.policy = policy;
        this.coalescing = tr.config().ackEvery() > 1;
        this.coalesceOoo = tr.config().recovery().coalesceOutOfOrder() && !recovery.nackOutOfOrder();
        double overhead = recovery.codingOverhead();
        this.coded = overhead >= 0;
        this.selective = recovery.selective() && !coded;
        // McClure §6: erasure coding completes once (1 + overhead) x the message has arrived
        this.ackTarget = coded ? Math.max(packets, (long) Math.ceil(packets * (1 + overhead) - 1e-9)) : packets;
        NicConfig senderNic = tr.configOf(srcHost.id).nic();
        if (selective) cold().lostBitmap = new long[bitmapWords()];
        // erasure coding keeps no per-packet state: its one timer already covers the oldest packet
        this.sentAtPs = senderNic.timer() == NicConfig.Timer.PER_PACKET && !coded ? new long[(int) packets] : null;
        // NVIDIA ADP: the first timeout is drawn once per QP from the run's seed and the QP's id; its no-progress
        // clock starts at the first send (restartAdaptiveClock)
        lbsim.net.AdaptiveRetransmission adp = senderNic.adaptive();
        if (adp != null) {
            cold().adaptive = new AdaptiveTimer(adp, tr.config().timeoutPs(), sim.random().derive("transport.adp.qp" + id), sim.now());
        }
    }

    private int bitmapWords() {
        return (int) ((packets + 63) >>> 6);
    }

    void setCongestionControl(CongestionControl cc) {
        this.cc = cc;
        this.ccFeedback = cc.readsAckFeedback();
    }

    // ---- accessors ------------------------------------------------------------------------

    public Flow flow() { return flow; }
    public int src() { return srcHost.id; }
    public int dst() { return dstHost.id; }
    public long packets() { return packets; }
    public long sndUna() { return sndUna; }
    public long sndNxt() { return sndNxt; }
    public int sport() { return sport; }
    public int pathId() { return pathId; }
    public boolean sourceRouted() { return sourceRouted; }
    public int pathChanges() { return cold == null ? 0 : cold.pathChanges; }
    public long retransmittedPackets() { return cold == null ? 0 : cold.retransmitted; }
    public long timeouts() { return cold == null ? 0 : cold.timeouts; }
    /** CNPs this QP's receiver sent its sender (summary.json {@code cnps}). */
    public long cnpsSent() { return cold == null ? 0 : cold.cnpsSent; }
    /** When the QP's pending retransmission timer expires, or -1 when none is running. */
    public long pendingTimeoutPs() {
        if (senderDone) return -1;
        if (sentAtPs != null) return rtoPending ? rtoScheduledPs : -1;
        return timerRunning ? rtoDeadline : -1;
    }

    /** The retransmission timeout the QP would arm now (after any backoff). */
    public long currentRtoPs() { return rtoPs(); }
    public long outOfOrderArrivals() { return cold == null ? 0 : cold.outOfOrderArrivals; }
    public long lastRttPs() { return lastRttPs; }
    public long highestSent() { return highestSent; }
    /** Packets the receiver must acknowledge: the message, or with erasure coding the coded packets it needs. */
    public long ackTarget() { return ackTarget; }
    public boolean isFinished() { return senderDone; }
    /** Whether the QP went to the error state: its NIC's retry count ran out (RoCE: IBV_WC_RETRY_EXC_ERR). */
    public boolean hasFailed() { return cold != null && cold.failed; }
    public boolean isDelivered() { return delivered; }
    public CongestionControl congestionControl() { return cc; }
    public long now() { return sim.now(); }
    public long lineRateBps() { return lineRateBps; }
    public int mtuBytes() { return mtu; }
    public Transport transport() { return tr; }

    /** Holds this QP's next data packet until {@code timePs} (Hopper's delayed path switch). */
    public void delaySendUntil(long timePs) {
        if (timePs > nextSendPs) nextSendPs = timePs;
    }

    /** Sends a small probe on source port {@code probeSport} at data priority; the receiver echoes it as PROBE_ACK. */
    public void sendProbe(int probeSport) {
        sendProbe(probeSport, 0, -1);
    }


    /** Moves this connection onto the probing QP with context {@code ctx} (Hopper §3.2: a switch starts using the probe QP). */
    public void adoptContext(int ctx) {
        contextId = ctx;
    }

    /** The NIC context this QP's packets use. */
    public int context() {
        return contextId;
    }

    /** A probe packet carrying {@code payloadBytes} (at most one MTU; 0 = ACK-sized) on the probing QP with NIC context {@code probeContext} (-1: none); echoed as an ACK-sized PROBE_ACK. */
    public void sendProbe(int probeSport, int payloadBytes, int probeContext) {
        if (payloadBytes < 0 || payloadBytes > mtu) throw new IllegalArgumentException("probe payload not in [0, MTU]: " + payloadBytes);
        Packet p = tr.network().newPacket();
        p.kind = Packet.PROBE;
        p.src = srcHost.id;
        p.dst = dstHost.id;
        p.qp = id;
        p.ctx = probeContext;
        p.seq = sndNxt;
        p.wireBytes = payloadBytes > 0 ? payloadBytes + tr.config().headerBytes() : tr.config().ackBytes();
        p.sentAtPs = sim.now();
        p.sport = probeSport;
        p.ecnCapable = false;
        srcHost.sendAtDataPriority(p);
    }

    void onProbe(Packet p) {
        sendControl(Packet.PROBE_ACK, expected, p);
    }

    void onProbeAck(Packet p) {
        if (!senderDone) policy.onProbeAck(this, p, sim.now() - p.sentAtPs);
    }

    /** Per-QP state a host load balancer keeps on the connection. */
    public Object schemeState() { return schemeState; }

    public void setSchemeState(Object state) { this.schemeState = state; }

    /** Sets the ECMP entropy (UDP source port); counts a path change after the first. */
    public void setSport(int port) {
        if (port < 0 || port > 0xFFFF) throw new IllegalArgumentException("UDP port out of range: " + port);
        if (highestSent > 0 && port != sport) cold().pathChanges++;   // after the first packet (sndNxt is back at 0 after a timeout that lost it)
        sport = port;
    }

    /**
     * Posts this message on the same long-lived QP as {@code previous} (ParaLet's slots, §5.1/5.3):
     * it continues that QP's congestion control (window or rate, alpha, pending CC timers) instead
     * of starting a fresh one, and the CC sees its packets numbered after the previous message's,
     * as a QP's PSNs run on from message to message. Call before it sends.
     */
    public void continueCongestionControlOf(QueuePair previous) {
        if (highestSent > 0) throw new IllegalStateException("QP " + id + " already sends with its own congestion control");
        cc = previous.cc;
        ccFeedback = previous.ccFeedback;
        cc.moveTo(this);
        ccSeqBase = previous.ccSeqBase + Math.max(previous.packets, previous.highestSent);
    }

    /** Caps this QP's pacing rate; the congestion control still applies below the cap (ParaLet §5.1: 1/m of line rate). */
    public void setRateCap(long bps) {
        if (bps < 1) throw new IllegalArgumentException("rate cap must be positive: " + bps);
        rateCapBps = bps;
    }

    /**
     * Counts the packets this QP sent that its data, posted again on other QPs from its first
     * unacknowledged byte (CTCCL §3.3), will send once more: they are retransmissions of the
     * flow even though the other QPs send them as new packets.
     */
    public void countReposted() {
        cold().retransmitted += Math.max(0, Math.min(highestSent, packets) - sndUna);
    }

    /**
     * Stops this QP for good because the host re-posts its data on other QPs (CTCCL §3.3): it sends
     * nothing more and counts as sent, delivered and acknowledged.
     */
    public void abandon() {
        if (senderDone) return;
        senderDone = true;
        if (highestSent < ackTarget) tr.qpSent(this); // it sends nothing more
        if (!delivered) {
            delivered = true;
            tr.qpDelivered(this);
        }
        tr.qpFinished(this);   // after the delivery, as for a QP that finishes normally
    }

    /** Sets a source route (Ethereal path ID); counts a path change after the first. */
    public void setSourceRoute(int id) {
        if (highestSent > 0 && (!sourceRouted || id != pathId)) cold().pathChanges++;
        pathId = id;
        sourceRouted = true;
    }

    private int payloadOf(long seq) {
        return seq == packets - 1 ? lastPayload : mtu;
    }

    /**
     * Bytes in flight up to {@code toSeq}, less {@code leftPackets} packets known to have left the
     * network (SACKed, or judged lost) counted at a full MTU. Never negative: when the short last
     * packet is among those left, a full MTU overcounts it, and a negative count once kept a window
     * below one packet (Swift after timeouts) from ever allowing the resend, a stall for good.
     */
    private long inflightBytes(long toSeq, long leftPackets) {
        return Math.max(0, bytesOf(sndUna, toSeq) - leftPackets * mtu);
    }

    private long bytesOf(long fromSeq, long toSeq) {
        if (toSeq <= fromSeq) return 0;
        long b = (toSeq - fromSeq) * (long) mtu;
        if (toSeq == packets) b -= mtu - lastPayload;
        return b;
    }

    // ---- sender ---------------------------------------------------------------------------

    void start() {
        srcHost.activate(this);
    }

    /** The NIC context a message shares with the long-lived QP it is posted on (Transport.openMessage). */
    void setContextId(int ctx) {
        contextId = ctx;
    }

    @Override
    protected Packet pull() {
        if (selective) return pullSelective();
        if (coded) return pullCoded();
        if (sackedBitmap != null) {
            while (sndNxt < packets && isSet(sackedBitmap, sndNxt)) sndNxt++; // the receiver has it: resend only holes
        }
        if (senderDone || sndNxt >= packets) return null;
        int payload = payloadOf(sndNxt);
        int wire = payload + tr.config().headerBytes();
        // SACKed packets have left the network, so they do not count against the window
        long inflight = inflightBytes(sndNxt, sackedCount);
        if (!cc.windowAllows(inflight, wire) && !ackRequestOwed(inflight)) return null;
        if (nextSendPs > sim.now()) {
            if (!wakePending) {
                wakePending = true;
                sim.scheduleAt(nextSendPs, this, EV_WAKE, 0, null);
            }
            return null;
        }
        if (sndNxt < highestSent) {
            cold().retransmitted++;
        } else {
            highestSent = sndNxt + 1;
            if (highestSent == ackTarget) tr.qpSent(this);
        }
        return emit(sndNxt++, payload, wire, false);
    }

    private void armRto() {
        timerRunning = true;
        setRtoDeadline(sim.now() + rtoPs());
    }

    private long rtoPs() {
        AdaptiveTimer a = adaptiveTimer();
        if (a != null) return a.timeoutPs();
        return tr.config().rtoBackoff().timeoutPs(recovery.timeoutPs(this, tr.config().timeoutPs()), backoffs);
    }

    /** The sender NIC's adaptive retransmission timer (NVIDIA ADP, made with the QP); null when the NIC runs a fixed timer. */
    private AdaptiveTimer adaptiveTimer() {
        Cold c = cold;
        return c == null ? null : c.adaptive;
    }

    /** Moves the timer deadline; the pending event is checked lazily unless the deadline moved earlier. */
    private void setRtoDeadline(long deadline) {
        rtoDeadline = deadline;
        if (!rtoPending || deadline < rtoScheduledPs) {
            rtoPending = true;
            rtoScheduledPs = deadline;
            sim.scheduleAt(deadline, this, EV_RTO, ++rtoGen, null);
        }
    }

    /** A send with no timer running: nothing is outstanding, so adaptive retransmission's no-progress clock starts now. */
    private void restartAdaptiveClock(long now) {
        Cold c = cold;
        if (c != null && c.adaptive != null) c.adaptive.onRestart(now);
    }

    /** Resends from {@code seq} (Go-Back-N and timeouts). */
    public void goBackTo(long seq) {
        if (seq < sndUna) seq = sndUna;
        if (seq < sndNxt) sndNxt = seq;
    }

    void onAck(Packet ack) {
        if (senderDone) return;
        long now = sim.now();
        long rtt = now - ack.sentAtPs;
        lastRttPs = rtt;
        long cum = Math.min(ack.seq, ackTarget);
        if (ackReqPending && (ack.sackSeq == cold.ackReqSeq || ack.seq > cold.ackReqSeq)) ackReqPending = false; // the request was answered
        long newly = 0;
        long previousUna = sndUna;
        int hdr = tr.config().headerBytes();
        long deliveredWire = 0;     // packets this ACK newly reports received, cumulatively or selectively (NSCC)
        if (!coded && !ack.trimmed) {
            deliveredWire += sack(ack.sackSeq, cum, hdr);
            // a coalescing receiver's bitmap of the packets it holds beyond the gap (uet-htsim's SACK bitmap)
            for (long bits = ack.sackBits; bits != 0; bits &= bits - 1) {
                deliveredWire += sack(ack.sackBase + Long.numberOfTrailingZeros(bits), cum, hdr);
            }
        }
        if (cum > sndUna) {
            long reported = 0;      // payload of packets SACKed before: already counted as delivered
            long reportedCount = 0;
            if (sackedBitmap != null) {
                for (long q = sndUna; q < cum; q++) {
                    if (isSet(sackedBitmap, q)) {
                        sackedBitmap[(int) (q >>> 6)] &= ~(1L << (q & 63));
                        sackedCount--;
                        reported += payloadOf(q);
                        reportedCount++;
                    }
                }
            }
            if (lostCount() > 0) clearLostBelow(cum);
            newly = bytesOf(sndUna, cum);
            deliveredWire += newly - reported + (cum - sndUna - reportedCount) * hdr;
            sndUna = cum;
            if (sndNxt < sndUna) sndNxt = sndUna;
            backoffs = 0; // forward progress ends a backoff
            if (cold != null && cold.adaptive != null) cold.adaptive.onProgress(now);
            if (sentAtPs == null) rtoDeadline = now + rtoPs();
            if (rtoPending && rtoDeadline < rtoScheduledPs) setRtoDeadline(rtoDeadline); // a shorter RTO now (IRN)
            if (sndUna >= highestSent) timerRunning = false; // RFC 6298 §5.2: all outstanding data acknowledged
        }
        long marked = (long) ack.ecnEchoCount * mtu;
        if (newly > 0 || marked > 0) cc.onAck(newly, marked, rtt, ccSeqBase + sndUna, ccSeqBase + sndNxt);
        if (ack.trimmed) trimmedAck(ack, deliveredWire, rtt, hdr);
        else if (ccFeedback) ackFeedback(ack, deliveredWire, rtt);
        // erasure: a coded packet was ACKed, so those sent before it arrived or were lost
        if (coded && ack.sackSeq >= cold().codedSeen) cold.codedSeen = ack.sackSeq + 1;
        if (ack.kind == Packet.NACK) recovery.onNack(this, ack.seq);
        recovery.onAck(this, ack, previousUna);
        if (ack.trimmed) recovery.onTrimmed(this, ack.sackSeq);
        policy.onAck(this, ack, rtt);
        if (sndUna >= ackTarget) {
            senderDone = true;
            tr.qpFinished(this);
            return;
        }
        srcHost.activate(this);
    }

    /** NSCC's per-ACK feedback (out of onAck, which every other congestion control runs without it). */
    private void ackFeedback(Packet ack, long deliveredWire, long rtt) {
        boolean fullSample = ack.sackSeq != packets - 1 || lastPayload == mtu;   // not the short last packet's
        cc.onAckFeedback(deliveredWire, ack.ecnEchoCount > 0, rtt, fullSample, inflightWireBytes());
    }

    /** The receiver NACKed a trimmed packet: a congestion signal, once per outstanding packet (rare: out of onAck). */
    private void trimmedAck(Packet ack, long deliveredWire, long rtt, int hdr) {
        if (deliveredWire > 0 && ccFeedback) cc.onAckFeedback(deliveredWire, false, -1, true, 0);
        if (outstanding(ack.sackSeq)) cc.onTrimmed(payloadOf(ack.sackSeq) + hdr, rtt, inflightWireBytes());
    }

    /** Records packet {@code q} as selectively acknowledged; its wire bytes if that is news, else 0. */
    private long sack(long q, long cum, int hdr) {
        if (q < cum || q >= packets || isSacked(q)) return 0;
        if (sackedBitmap == null) sackedBitmap = new long[bitmapWords()];
        sackedBitmap[(int) (q >>> 6)] |= 1L << (q & 63);
        sackedCount++;
        if (lostCount() > 0) clearLost(q);
        return payloadOf(q) + hdr;
    }

    void onCnp() {
        if (!senderDone) cc.onCnp();
    }

    /** Lets a congestion control schedule its own timer; delivered to {@code cc.onTimer}. */
    public void scheduleCcTimer(int kind, long delayPs, long token) {
        sim.schedule(delayPs, this, EV_CC_BASE + kind, token, null);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == EV_WAKE) {
            wakePending = false;
            if (!senderDone) srcHost.activate(this);
        } else if (kind == EV_RTO) {
            if (arg == rtoGen) onRtoEvent();
        } else if (kind >= EV_CC_BASE) {
            cc.onTimer(kind - EV_CC_BASE, arg);
        }
    }

    private void onRtoEvent() {
        rtoPending = false;
        if (sentAtPs != null) {
            onPacketTimers();
            return;
        }
        if (senderDone || sndNxt <= sndUna) {
            timerRunning = false;
            return;
        }
        long now = sim.now();
        if (now < rtoDeadline) {
            setRtoDeadline(rtoDeadline);
            return;
        }
        cold().timeouts++;
        if (backoffs < Integer.MAX_VALUE) backoffs++;
        if (retryExhausted()) {
            fail();
            return;
        }
        if (cold.adaptive != null) cold.adaptive.onTimeout();
        ackReqPending = false; // presumed lost with the rest: the resent packets ask again
        logTimeout(now, 1);
        recovery.onTimeout(this);
        cc.onTimeout();
        int sportBefore = sport, pathBefore = sourceRouted ? pathId : -1;
        policy.onTimeout(this);
        logReroute(now, sportBefore, pathBefore);
        armRto();
        srcHost.activate(this);
    }

    /**
     * Per-packet timers (Ethereal §4.1's spraying baselines, UET): every outstanding packet sent
     * one timeout ago or earlier has expired. Each counts as a timeout; a selective recovery
     * resends exactly those, Go-Back-N goes back once. One event stands for all the timers: it
     * is re-armed at the earliest deadline still pending.
     */
    private void onPacketTimers() {
        if (senderDone) return;
        long now = sim.now();
        long rto = rtoPs();
        long end = selective ? highestSent : sndNxt;   // Go-Back-N: packets above sndNxt will be sent again
        long next = Long.MAX_VALUE;
        int expired = 0;
        for (long s = sndUna; s < end; s++) {
            if (isSacked(s) || (lostCount() > 0 && isSet(cold.lostBitmap, s))) continue;   // arrived, or already queued to resend
            long deadline = sentAtPs[(int) s] + rto;
            if (deadline > now) {
                next = Math.min(next, deadline);
                continue;
            }
            if (expired++ == 0) {
                if (backoffs < Integer.MAX_VALUE) backoffs++;
                if (retryExhausted()) {
                    cold().timeouts++;
                    fail();
                    return;
                }
                if (cold().adaptive != null) cold.adaptive.onTimeout();
                ackReqPending = false;
            }
            cold().timeouts++;
            recovery.onPacketTimeout(this, s);
            if (!selective) break;   // gone back to sndUna: every packet will be sent again
        }
        if (expired > 0) {
            logTimeout(now, expired);
            cc.onTimeout();
            int sportBefore = sport, pathBefore = sourceRouted ? pathId : -1;
            policy.onTimeout(this);
            logReroute(now, sportBefore, pathBefore);
            srcHost.activate(this);
        }
        if (next != Long.MAX_VALUE && !senderDone) setRtoDeadline(next);
    }

    /**
     * Whether the timeouts in a row without progress exceed the sender NIC's retry count (0 = no limit); with
     * adaptive retransmission, whether the QP made no progress for its ACK timeout x the retry count (NVIDIA ADP's
     * qp_total_timeout). Read rarely: not a field.
     */
    private boolean retryExhausted() {
        int limit = tr.configOf(srcHost.id).nic().retryCount();
        Cold c = cold;
        if (c != null && c.adaptive != null) return c.adaptive.exhausted(sim.now(), limit);
        return limit > 0 && backoffs > limit;
    }

    /** How far beyond the expected packet the receiver's NIC keeps packets; read on out-of-order arrivals only. */
    private long keptBeyond() {
        return coded ? 0 : tr.configOf(dstHost.id).nic().keptBeyondExpected();
    }

    /** events.csv {@code timeout}: one row per timer expiry ({@code packets} expired at once with per-packet timers). */
    private void logTimeout(long now, int packets) {
        lbsim.engine.EventLog log = sim.log();
        if (!log.room("timeout", now)) return;
        log.add(now, "timeout", "qp " + id, "flow " + flow.spec().id() + " host " + srcHost.id + " -> host " + dstHost.id
                + ": " + (packets == 1 ? "" : packets + " packets, ") + backoffs + " in a row without progress");
    }

    /** events.csv {@code reroute}: the host load balancer moved this QP to another path in answer to a timeout. */
    private void logReroute(long now, int sportBefore, int pathBefore) {
        int pathAfter = sourceRouted ? pathId : -1;
        if (sport == sportBefore && pathAfter == pathBefore) return;
        lbsim.engine.EventLog log = sim.log();
        if (!log.room("reroute", now)) return;
        log.add(now, "reroute", "qp " + id, "flow " + flow.spec().id() + " after a timeout: "
                + (pathAfter != pathBefore ? "path " + pathBefore + " -> " + pathAfter : "UDP source port " + sportBefore + " -> " + sport));
    }

    /** The retry count ran out: the QP stops for good and the transport reports the failure. */
    private void fail() {
        sim.log().record(sim.now(), "qp-failed", "qp " + id, "flow " + flow.spec().id() + " host " + srcHost.id + " -> host "
                + dstHost.id + ": " + backoffs + " timeouts in a row, more than the NIC's retry count");
        cold().failed = true;
        senderDone = true;
        tr.qpFailed(this);
    }

    // ---- receiver -------------------------------------------------------------------------

    void onData(Packet p) {
        long seq = p.seq;
        if (p.ecnMarked && tr.sendsCnp() && sim.now() - cold().lastCnpPs >= tr.cnpIntervalPs()) {
            cold.lastCnpPs = sim.now();
            cold.cnpsSent++;
            sendControl(Packet.CNP, expected, p);
        }
        if (coded) {
            onCodedData(p);
            return;
        }
        if (seq == expected) {
            expected++;
            if (oooBitmap != null) {
                while (expected < packets && testAndClear(expected)) expected++;
            }
            unackedPackets++;
            if (p.ecnMarked) unackedMarked++;
            boolean done = expected >= packets;
            if (done && !delivered) {
                delivered = true;
                tr.qpDelivered(this);
            }
            boolean drained = false; // uet-htsim UecSink: a request answered while packets were held is answered again when none are
            if (coalesceOoo && (p.ackReq || (cold != null && cold.rxAckRequest))) {
                Cold c = cold();
                drained = c.oooHeld == 0;
                c.rxAckRequest = !drained;
            }
            if (unackedPackets >= tr.config().ackEvery() || done || p.ecnMarked || p.ackReq || drained) sendAck(p);
        } else if (seq > expected) {
            cold().outOfOrderArrivals++;
            if (seq - expected <= keptBeyond()) {
                if (oooBitmap == null) oooBitmap = new long[bitmapWords()];
                if (coalesceOoo) {
                    onKeptCoalesced(p);
                    return;
                }
                if (p.ecnMarked) unackedMarked++;
                set(seq);
                sendAck(recovery.nackOutOfOrder() ? Packet.NACK : Packet.ACK, p);
            } else {
                long now = sim.now();
                Cold c = cold();
                if (c.lastNackFor != expected || now - c.lastNackPs >= tr.config().nackIntervalPs()) {
                    c.lastNackFor = expected;
                    c.lastNackPs = now;
                    sendControl(Packet.NACK, expected, p).sackSeq = -1; // discarded: nothing selectively acknowledged
                }
            }
        } else {
            sendAck(p); // duplicate: re-ACK so a sender that went back learns where we are
        }
    }

    /**
     * A packet kept beyond a gap under {@code ack_out_of_order: coalesced} (uet-htsim UecSink::processData): it
     * counts towards {@code ack_every} as an in-order one; a copy already held is ACKed at once.
     */
    private void onKeptCoalesced(Packet p) {
        if (isSet(oooBitmap, p.seq)) {
            sendAck(p);
            return;
        }
        set(p.seq);
        Cold c = cold();
        c.oooHeld++;
        unackedPackets++;
        if (p.ecnMarked) unackedMarked++;
        if (p.ackReq) c.rxAckRequest = true;
        if (unackedPackets >= tr.config().ackEvery() || p.ecnMarked || p.ackReq) sendAck(p);
    }

    private void sendAck(Packet data) {
        sendAck(Packet.ACK, data);
    }

    private void sendAck(int kind, Packet data) {
        Packet a = sendControl(kind, expected, data);
        a.ecnEchoCount = unackedMarked;
        a.ackedCount = unackedPackets;
        unackedMarked = 0;
        unackedPackets = 0;
        if (coalesceOoo && cold != null && cold.oooHeld > 0) {
            // uet-htsim UecSink::sackBitmapBase: the 64 packets up to this one, none at or below the cumulative point
            a.sackBase = Math.max(data.seq - 63, expected + 1);
            a.sackBits = bitsFrom(oooBitmap, a.sackBase);
        }
    }

    /** The 64 bits of {@code bitmap} from bit {@code base} on (bits past its end read 0). */
    static long bitsFrom(long[] bitmap, long base) {
        int w = (int) (base >>> 6);
        int shift = (int) (base & 63);
        if (w >= bitmap.length) return 0;
        long bits = bitmap[w] >>> shift;
        if (shift != 0 && w + 1 < bitmap.length) bits |= bitmap[w + 1] << (64 - shift);
        return bits;
    }

    private Packet sendControl(int kind, long seq, Packet data) {
        Packet a = tr.network().newPacket();
        a.kind = kind;
        a.src = dstHost.id;
        a.dst = srcHost.id;
        a.qp = id;
        a.ctx = data.ctx;   // the responder answers on the same connection
        a.seq = seq;
        a.sackSeq = data.seq;
        a.wireBytes = tr.config().ackBytes();
        a.sentAtPs = data.sentAtPs;
        a.sport = data.sport;
        a.dscp = data.dscp; // the responder answers in the same traffic class
        a.ecnCapable = false;
        if (data.sourceRouted) {
            if (data.pathId != lastFwdPath) {
                lastFwdPath = data.pathId;
                lastRevPath = tr.network().topology().routing().reversePathId(srcHost.id, dstHost.id, data.pathId,
                        tr.network().pathControl());
            }
            a.sourceRouted = true;
            a.pathId = lastRevPath;
        }
        dstHost.sendControl(a);
        return a;
    }

    // ---- selective repeat, trimming and erasure coding (see the LossRecovery implementations) ----

    /** Selective senders: resends packets marked lost, lowest first, then new data; never goes back. */
    private Packet pullSelective() {
        if (senderDone) return null;
        long seq = lostCount() > 0 ? nextLost() : -1;
        boolean fresh = seq < 0;
        if (fresh) {
            if (sndNxt >= packets) return null;
            seq = sndNxt;
            long cap = recovery.inflightCapBytes();
            if (cap > 0 && sndNxt > sndUna && bytesOf(sndUna, sndNxt) + payloadOf(seq) > cap) return null;
        }
        int payload = payloadOf(seq);
        int wire = payload + tr.config().headerBytes();
        // SACKed packets and packets known lost have left the network (the "pipe" of RFC 6675)
        long inflight = inflightBytes(sndNxt, sackedCount + lostCount());
        if ((!cc.windowAllows(inflight, wire) && !ackRequestOwed(inflight)) || mustWait()) return null;
        if (fresh) {
            sndNxt++;
            highestSent = sndNxt;
            if (highestSent == ackTarget) tr.qpSent(this);
        } else {
            clearLost(seq);
            cold.retransmitted++;
        }
        return emit(seq, payload, wire, !fresh);
    }

    /** Erasure coding: every packet is a fresh coded one; nothing is ever resent. */
    private Packet pullCoded() {
        if (senderDone) return null;
        long seq = sndNxt;
        int payload = seq < packets ? payloadOf(seq) : mtu;
        int wire = payload + tr.config().headerBytes();
        long inflight = (sndNxt - cold().codedSeen) * mtu;
        if ((!cc.windowAllows(inflight, wire) && !ackRequestOwed(inflight)) || mustWait()) return null;
        sndNxt++;
        highestSent = sndNxt;
        if (highestSent == ackTarget) tr.qpSent(this); // the message and its coding overhead
        return emit(seq, payload, wire, false);
    }

    /** Pacing: whether the next packet must wait, with a wake-up scheduled. */
    private boolean mustWait() {
        if (nextSendPs <= sim.now()) return false;
        if (!wakePending) {
            wakePending = true;
            sim.scheduleAt(nextSendPs, this, EV_WAKE, 0, null);
        }
        return true;
    }

    /** {@code hole}: a selective retransmission, whose ACK the sender needs to move its cumulative pointer on. */
    private Packet emit(long seq, int payload, int wire, boolean hole) {
        long now = sim.now();
        Packet p = tr.network().newPacket();
        p.kind = Packet.DATA;
        p.priority = Packet.PRIO_DATA;
        p.src = srcHost.id;
        p.dst = dstHost.id;
        p.qp = id;
        p.ctx = contextId;
        p.seq = seq;
        p.payloadBytes = payload;
        p.wireBytes = wire;
        p.sentAtPs = now;
        long rate = Math.min(cc.rateBps(), rateCapBps); // a scheme's per-QP cap (ParaLet: line rate / m) holds on every path
        nextSendPs = rate < lineRateBps ? now + cc.pacingGapPs(wire * 8_000_000_000_000L / rate, wire * 8_000_000_000_000L / lineRateBps) : now;
        policy.beforeSend(this, p);
        // RFC 6298 §5.1/5.3: the timer starts when a packet leaves with none running and restarts
        // on forward progress (onAck), not on every send: restarted per send it never expired
        // while a rate-based sender kept sending into a dead path (erasure coding with dcqcn)
        if (sentAtPs != null) {
            sentAtPs[(int) seq] = now;
            if (!rtoPending) {
                restartAdaptiveClock(now);
                setRtoDeadline(now + rtoPs());
            }
        } else if (!timerRunning) {
            restartAdaptiveClock(now);
            armRto();
        }
        if (coalescing && (hole || blockedAfterSend())) {
            p.ackReq = true;
            ackReqPending = true;
            cold().ackReqSeq = seq;
        }
        return p;
    }

    /**
     * ACK coalescing (ack_every > 1) needs the sender to ask for the ACK it waits on, or a window
     * smaller than ack_every packets stalls until the timeout. As the InfiniBand requester sets
     * the BTH AckReq bit (IBA vol. 1 ch. 9: the responder acknowledges such a packet at once,
     * whatever its coalescing), the sender asks on a packet after which it cannot send more: its window or IRN's in-flight
     * cap is full, or all its data is sent. Pacing never blocks for good, so it does not count.
     */
    private boolean blockedAfterSend() {
        int hdr = tr.config().headerBytes();
        if (coded) return sndNxt >= ackTarget || !cc.windowAllows((sndNxt - cold().codedSeen) * mtu, mtu + hdr);
        if (selective) {
            long seq = lostCount() > 0 ? nextLost() : -1;
            if (seq < 0) {
                if (sndNxt >= packets) return true;
                seq = sndNxt;
                long cap = recovery.inflightCapBytes();
                if (cap > 0 && bytesOf(sndUna, sndNxt) + payloadOf(seq) > cap) return true;
            }
            return !cc.windowAllows(inflightBytes(sndNxt, sackedCount + lostCount()), payloadOf(seq) + hdr);
        }
        long next = sndNxt;
        if (sackedBitmap != null) {
            while (next < packets && isSet(sackedBitmap, next)) next++;
        }
        return next >= packets || !cc.windowAllows(inflightBytes(next, sackedCount), payloadOf(next) + hdr);
    }

    /**
     * A window that shrinks under packets already sent without an ACK request (DCTCP's cut,
     * Swift's decrease) leaves the sender blocked on ACKs the receiver coalesces away: with no
     * request outstanding it sends one packet past the window, carrying the request.
     */
    private boolean ackRequestOwed(long inflightBytes) {
        return coalescing && !ackReqPending && inflightBytes > 0;
    }

    /** Whether packet {@code seq} was sent and is neither acknowledged, SACKed nor already marked lost. */
    private boolean outstanding(long seq) {
        return !coded && seq >= sndUna && seq < highestSent && seq < packets && !isSacked(seq)
                && !(lostCount() > 0 && isSet(cold.lostBitmap, seq));
    }

    /** Bytes on the wire (payload and a header per packet) sent and not yet acknowledged, SACKed or marked lost. */
    private long inflightWireBytes() {
        long pkts;
        long payload;
        if (coded) {
            pkts = sndNxt - cold().codedSeen;
            payload = pkts * mtu;
        } else {
            long gone = sackedCount + (selective ? lostCount() : 0);
            pkts = sndNxt - sndUna - gone;
            payload = bytesOf(sndUna, sndNxt) - gone * mtu;
        }
        return Math.max(0, payload + Math.max(0, pkts) * tr.config().headerBytes());
    }

    /** Selective recoveries: resend {@code seq} unless it is acknowledged, SACKed or already queued. */
    public void markLost(long seq) {
        Cold c = cold();
        if (seq < sndUna || seq >= highestSent || isSacked(seq) || isSet(c.lostBitmap, seq)) return;
        c.lostBitmap[(int) (seq >>> 6)] |= 1L << (seq & 63);
        c.lostCount++;
        if (seq < c.lostLow) c.lostLow = seq;
    }

    /** Selective recoveries after a timeout: resend every outstanding packet the receiver has not SACKed. */
    public void markOutstandingLost() {
        for (long s = sndUna; s < highestSent; s++) markLost(s);
    }

    /** Whether the receiver reported holding {@code seq} beyond a gap. */
    public boolean isSacked(long seq) {
        return sackedBitmap != null && seq < packets && isSet(sackedBitmap, seq);
    }

    /** Erasure coding after a timeout: the outstanding coded packets are presumed lost. */
    void writeOffOutstanding() {
        cold().codedSeen = sndNxt;
    }

    private void clearLost(long seq) {
        int w = (int) (seq >>> 6);
        long bit = 1L << (seq & 63);
        Cold c = cold;
        if ((c.lostBitmap[w] & bit) == 0) return;
        c.lostBitmap[w] &= ~bit;
        if (--c.lostCount == 0) c.lostLow = Long.MAX_VALUE;
    }

    private void clearLostBelow(long cum) {
        for (long s = cold.lostLow; s < cum && cold.lostCount > 0; s++) clearLost(s);
    }

    /** The lowest packet marked lost that still needs resending, or -1 (clears stale marks). */
    private long nextLost() {
        Cold c = cold;
        for (int w = (int) (c.lostLow >>> 6); w < c.lostBitmap.length && c.lostCount > 0; w++) {
            long bits = c.lostBitmap[w];
            while (bits != 0) {
                long s = ((long) w << 6) + Long.numberOfTrailingZeros(bits);
                if (s >= sndUna && !isSacked(s)) {
                    c.lostLow = s;
                    return s;
                }
                clearLost(s);
                bits &= bits - 1;
            }
        }
        return -1;
    }

    /**
     * A trimmed packet's header (McClure §4, NDP): at the receiver it is answered with a NACK
     * for exactly that packet; returned to the sender (RTS) it reports the loss directly.
     */
    void onTrimmedHeader(Packet p) {
        if (p.dst == srcHost.id) {
            if (!senderDone) {
                if (outstanding(p.seq)) {
                    cc.onTrimmed(payloadOf(p.seq) + tr.config().headerBytes(), sim.now() - p.sentAtPs, inflightWireBytes());
                }
                recovery.onTrimmed(this, p.seq);
                srcHost.activate(this);
            }
            return;
        }
        long seq = p.seq;
        if (seq < expected || (oooBitmap != null && isSet(oooBitmap, seq))) {
            sendAck(p); // a copy already arrived
            return;
        }
        Packet n = sendControl(Packet.NACK, expected, p);
        n.trimmed = true;
    }

    /** Erasure coding: no per-packet state, the receiver counts the coded packets (each is distinct). */
    private void onCodedData(Packet p) {
        expected++;
        unackedPackets++;
        if (p.ecnMarked) unackedMarked++;
        boolean done = expected >= ackTarget;
        if (done && !delivered) {
            delivered = true;
            tr.qpDelivered(this);
        }
        if (unackedPackets >= tr.config().ackEvery() || done || p.ecnMarked || p.ackReq) sendAck(p);
    }

    private static boolean isSet(long[] bitmap, long seq) {
        return (bitmap[(int) (seq >>> 6)] & (1L << (seq & 63))) != 0;
    }

    private boolean testAndClear(long seq) {
        int w = (int) (seq >>> 6);
        long bit = 1L << (seq & 63);
        if ((oooBitmap[w] & bit) == 0) return false;
        oooBitmap[w] &= ~bit;
        if (coalesceOoo) cold().oooHeld--;
        return true;
    }

    private void set(long seq) {
        oooBitmap[(int) (seq >>> 6)] |= 1L << (seq & 63);
    }
}

package lbsim.transport;

import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.net.Host;
import lbsim.net.NicClient;
import lbsim.net.Packet;

/**
 * One RoCE-style reliable connection carrying (part of) a flow: sender state (send and
 * acknowledgement pointers, congestion control, retransmission timer, pacing) and receiver
 * state (expected sequence, reorder bitmap, ACK/NACK/CNP generation). Sequence numbers count
 * packets; every packet carries a full MTU of payload except the last.
 */
public final class QueuePair extends NicClient implements EventHandler {
    private static final int EV_WAKE = 1;
    private static final int EV_RTO = 2;
    private static final int EV_CC_BASE = 16;

    private final Transport tr;
    private final Simulation sim;
    public final int id;
    private final Flow flow;
    private final Host srcHost;
    private final Host dstHost;
    private final long packets;
    private final int mtu;
    private final int lastPayload;
    private final long lineRateBps;
    private CongestionControl cc;
    private final LossRecovery recovery;
    private final PathPolicy policy;

    // routing identity
    private Object schemeState;     // per-QP state of the host load balancer (e.g. REPS's entropy cache)
    private int sport;
    private int pathId;
    private boolean sourceRouted;
    private int pathChanges;

    // sender
    private long sndUna;
    private long sndNxt;
    private long highestSent;
    private long nextSendPs;
    private boolean wakePending;
    private long rtoDeadline;
    private boolean rtoPending;
    private boolean senderDone;
    private long retransmitted;
    private long timeouts;
    private long lastRttPs = -1;
    private long[] sackedBitmap;    // spraying senders: packets the receiver holds beyond a gap
    private long sackedCount;

    // receiver
    private long expected;
    private long[] oooBitmap;       // bit i set: packet i received beyond a gap (selective receivers only)
    private long lastNackFor = -1;
    private long lastNackPs;
    private long lastCnpPs = Long.MIN_VALUE / 2;
    private int unackedPackets;
    private int unackedMarked;
    private boolean delivered;
    private long outOfOrderArrivals;
    private int lastFwdPath = -1;
    private int lastRevPath;
    private long rateCapBps = Long.MAX_VALUE; // host-imposed pacing ceiling on top of the CC (ParaLet: line rate / m)

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
        if (recovery.receiverKeepsOutOfOrder() || policy.spraysPackets()) {
            oooBitmap = new long[(int) ((packets + 63) >>> 6)];
            sackedBitmap = new long[oooBitmap.length];
        }
    }

    void setCongestionControl(CongestionControl cc) {
        this.cc = cc;
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
    public int pathChanges() { return pathChanges; }
    public long retransmittedPackets() { return retransmitted; }
    public long timeouts() { return timeouts; }
    public long outOfOrderArrivals() { return outOfOrderArrivals; }
    public long lastRttPs() { return lastRttPs; }
    public boolean isFinished() { return senderDone; }
    public boolean isDelivered() { return delivered; }
    public CongestionControl congestionControl() { return cc; }
    public long now() { return sim.now(); }
    public long lineRateBps() { return lineRateBps; }

    /** Per-QP state a host load balancer keeps on the connection. */
    public Object schemeState() { return schemeState; }

    public void setSchemeState(Object state) { this.schemeState = state; }

    /** Sets the ECMP entropy (UDP source port); counts a path change after the first. */
    public void setSport(int port) {
        if (port < 0 || port > 0xFFFF) throw new IllegalArgumentException("UDP port out of range: " + port);
        if (sndNxt > 0 && port != sport) pathChanges++;
        sport = port;
    }

    /** Caps this QP's pacing rate; the congestion control still applies below the cap (ParaLet §5.1: 1/m of line rate). */
    public void setRateCap(long bps) {
        if (bps < 1) throw new IllegalArgumentException("rate cap must be positive: " + bps);
        rateCapBps = bps;
    }

    /**
     * Stops this QP for good because the host re-posts its data on other QPs (CTCCL §3.3): it sends
     * nothing more and counts as delivered and acknowledged.
     */
    public void abandon() {
        if (senderDone) return;
        senderDone = true;
        tr.qpFinished(this);
        if (!delivered) {
            delivered = true;
            tr.qpDelivered(this);
        }
    }

    /** Sets a source route (Ethereal path ID); counts a path change after the first. */
    public void setSourceRoute(int id) {
        if (sndNxt > 0 && (!sourceRouted || id != pathId)) pathChanges++;
        pathId = id;
        sourceRouted = true;
    }

    private int payloadOf(long seq) {
        return seq == packets - 1 ? lastPayload : mtu;
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

    @Override
    protected Packet pull() {
        if (sackedBitmap != null) {
            while (sndNxt < packets && isSet(sackedBitmap, sndNxt)) sndNxt++; // the receiver has it: resend only holes
        }
        if (senderDone || sndNxt >= packets) return null;
        int payload = payloadOf(sndNxt);
        int wire = payload + tr.config().headerBytes();
        // SACKed packets have left the network, so they do not count against the window
        long inflight = bytesOf(sndUna, sndNxt) - sackedCount * mtu;
        if (!cc.windowAllows(inflight, wire)) return null;
        long now = sim.now();
        if (nextSendPs > now) {
            if (!wakePending) {
                wakePending = true;
                sim.scheduleAt(nextSendPs, this, EV_WAKE, 0, null);
            }
            return null;
        }
        Packet p = tr.network().newPacket();
        p.kind = Packet.DATA;
        p.priority = Packet.PRIO_DATA;
        p.src = srcHost.id;
        p.dst = dstHost.id;
        p.qp = id;
        p.seq = sndNxt;
        p.payloadBytes = payload;
        p.wireBytes = wire;
        p.sentAtPs = now;
        if (sndNxt < highestSent) {
            retransmitted++;
        } else {
            highestSent = sndNxt + 1;
        }
        sndNxt++;
        long rate = Math.min(cc.rateBps(), rateCapBps);
        nextSendPs = rate < lineRateBps ? now + wire * 8_000_000_000_000L / rate : now;
        policy.beforeSend(this, p);
        armRto();
        return p;
    }

    private void armRto() {
        rtoDeadline = sim.now() + tr.config().timeoutPs();
        if (!rtoPending) {
            rtoPending = true;
            sim.scheduleAt(rtoDeadline, this, EV_RTO, 0, null);
        }
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
        long cum = Math.min(ack.seq, packets);
        long newly = 0;
        if (sackedBitmap != null && ack.sackSeq >= cum && ack.sackSeq < packets && !isSet(sackedBitmap, ack.sackSeq)) {
            sackedBitmap[(int) (ack.sackSeq >>> 6)] |= 1L << (ack.sackSeq & 63);
            sackedCount++;
        }
        if (cum > sndUna) {
            if (sackedBitmap != null) {
                for (long q = sndUna; q < cum; q++) {
                    if (isSet(sackedBitmap, q)) {
                        sackedBitmap[(int) (q >>> 6)] &= ~(1L << (q & 63));
                        sackedCount--;
                    }
                }
            }
            newly = bytesOf(sndUna, cum);
            sndUna = cum;
            if (sndNxt < sndUna) sndNxt = sndUna;
            rtoDeadline = now + tr.config().timeoutPs();
        }
        long marked = (long) ack.ecnEchoCount * mtu;
        if (newly > 0 || marked > 0) cc.onAck(newly, marked, rtt, sndUna, sndNxt);
        if (ack.kind == Packet.NACK) recovery.onNack(this, ack.seq);
        policy.onAck(this, ack, rtt);
        if (sndUna >= packets) {
            senderDone = true;
            tr.qpFinished(this);
            return;
        }
        srcHost.activate(this);
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
            onRtoEvent();
        } else if (kind >= EV_CC_BASE) {
            cc.onTimer(kind - EV_CC_BASE, arg);
        }
    }

    private void onRtoEvent() {
        rtoPending = false;
        if (senderDone || sndNxt <= sndUna) return;
        long now = sim.now();
        if (now < rtoDeadline) {
            rtoPending = true;
            sim.scheduleAt(rtoDeadline, this, EV_RTO, 0, null);
            return;
        }
        timeouts++;
        recovery.onTimeout(this);
        cc.onTimeout();
        policy.onTimeout(this);
        armRto();
        srcHost.activate(this);
    }

    // ---- receiver -------------------------------------------------------------------------

    void onData(Packet p) {
        long seq = p.seq;
        if (p.ecnMarked && tr.sendsCnp() && sim.now() - lastCnpPs >= tr.cnpIntervalPs()) {
            lastCnpPs = sim.now();
            sendControl(Packet.CNP, expected, p);
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
            if (unackedPackets >= tr.config().ackEvery() || done || p.ecnMarked) sendAck(p);
        } else if (seq > expected) {
            outOfOrderArrivals++;
            if (oooBitmap != null) {
                if (p.ecnMarked) unackedMarked++;
                set(seq);
                sendAck(p);
            } else {
                long now = sim.now();
                if (lastNackFor != expected || now - lastNackPs >= tr.config().nackIntervalPs()) {
                    lastNackFor = expected;
                    lastNackPs = now;
                    sendControl(Packet.NACK, expected, p);
                }
            }
        } else {
            sendAck(p); // duplicate: re-ACK so a sender that went back learns where we are
        }
    }

    private void sendAck(Packet data) {
        Packet a = sendControl(Packet.ACK, expected, data);
        a.ecnEchoCount = unackedMarked;
        a.ackedCount = unackedPackets;
        unackedMarked = 0;
        unackedPackets = 0;
    }

    private Packet sendControl(int kind, long seq, Packet data) {
        Packet a = tr.network().newPacket();
        a.kind = kind;
        a.src = dstHost.id;
        a.dst = srcHost.id;
        a.qp = id;
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
                lastRevPath = tr.network().topology().routing().reversePathId(srcHost.id, dstHost.id, data.pathId);
            }
            a.sourceRouted = true;
            a.pathId = lastRevPath;
        }
        dstHost.sendControl(a);
        return a;
    }

    private static boolean isSet(long[] bitmap, long seq) {
        return (bitmap[(int) (seq >>> 6)] & (1L << (seq & 63))) != 0;
    }

    private boolean testAndClear(long seq) {
        int w = (int) (seq >>> 6);
        long bit = 1L << (seq & 63);
        if ((oooBitmap[w] & bit) == 0) return false;
        oooBitmap[w] &= ~bit;
        return true;
    }

    private void set(long seq) {
        oooBitmap[(int) (seq >>> 6)] |= 1L << (seq & 63);
    }
}

package lbsim.net;

/**
 * The one packet class: every header field any scheme needs, mutable and pooled. Kinds are
 * int constants so the hot path switches on a field instead of casting header classes. The fields
 * every hop touches are declared in {@link PacketHead}, which places them first in memory.
 */
public final class Packet extends PacketHead {
    public static final int DATA = 0;
    public static final int ACK = 1;
    public static final int NACK = 2;
    public static final int CNP = 3;
    public static final int PROBE = 4;
    public static final int PROBE_ACK = 5;
    /** Switch-to-switch control of a load balancer (ConWeave REPLY/NOTIFY), consumed by a switch. */
    public static final int LB_CONTROL = 6;

    public static final int PRIO_HIGH = 0;
    public static final int PRIO_DATA = 1;
    public static final int PRIORITIES = 2;

    /** RoCEv2 UDP destination port. */
    public static final int ROCE_DPORT = 4791;
    public static final int PROTO_UDP = 17;

    public int qp;              // sender-side queue-pair id
    public int ctx = -1;        // the NIC QP context it uses (a message's: its long-lived QP's), -1 = none
    public long seq;            // packet sequence number within the QP (DATA) or the ACK's cumulative next-expected
    public long sackSeq;        // sequence that triggered an ACK/NACK (selective schemes), -1 if none
    public int payloadBytes;
    public int pathId;          // source-route path ID (Ethereal §3)
    public byte routeShift;     // bits of pathId already consumed en route (0-32: a byte keeps a packet at 120 bytes)
    public int dscp;
    public int ecnEchoCount;    // marked packets covered by this ACK
    public int ackedCount;      // data packets covered by this ACK
    public long sackBase;       // ACK with coalesced out-of-order packets: bit i of sackBits = packet sackBase + i received
    public long sackBits;
    public long sentAtPs;       // sender timestamp, echoed by ACKs for RTT
    public boolean ackReq;      // DATA: the receiver must ACK it at once, whatever its ACK coalescing (IBA BTH AckReq bit)
    private LbHeader lb;        // switch load balancers' header fields (CONGA, ConWeave), created on first use

    void reset() {
        kind = DATA;
        priority = PRIO_DATA;
        src = dst = qp = 0;
        ctx = -1;
        seq = 0;
        sackSeq = -1;
        payloadBytes = wireBytes = 0;
        sport = 0;
        pathId = routeShift = 0;
        sourceRouted = false;
        dscp = 0;
        ecnCapable = true;
        ecnMarked = false;
        ecnEchoCount = ackedCount = 0;
        sackBase = sackBits = 0;
        trimmed = false;
        sentAtPs = 0;
        ackReq = false;
        ingressPort = -1;
        if (lb != null) lb.reset();
    }

    /**
     * The header fields of in-network load balancers. Kept out of the packet proper so the
     * fields every hop reads share fewer cache lines; a pooled packet keeps its header object.
     */
    public LbHeader lb() {
        LbHeader h = lb;
        if (h == null) {
            h = new LbHeader();
            lb = h;
        }
        return h;
    }

    /** Whether a switch load balancer's header was ever made for this packet object. */
    boolean hasLbHeader() {
        return lb != null;
    }

    public boolean isData() {
        return kind == DATA;
    }
}

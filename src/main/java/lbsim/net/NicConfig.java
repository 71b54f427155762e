package lbsim.net;

/**
 * What a host's RDMA NIC does, resolved from the scenario's {@code nic} section (a named profile
 * plus any field set beside it; profiles and the sources of their values are in docs/scenario.md).
 * The transport reads the receiver and timer behaviour; the host reads the scheduling and the
 * QP context cache.
 *
 * @param profile              the profile's name ({@code roce}, {@code irn}, {@code multipath}), as reported
 * @param reorder              what the receiver does with a packet beyond the one it expects next
 * @param reorderWindowPackets {@link Reorder#WINDOW}: how many packets beyond the expected one it keeps
 * @param timer                one retransmission timer per QP, or one per packet
 * @param retryCount           consecutive timeouts without progress after which the QP goes to the error
 *                             state and the job fails (InfiniBand retry_cnt); 0 = never
 * @param qpCacheEntries       QP contexts the NIC holds on chip; 0 = unlimited (no context misses)
 * @param qpMissPs             time the NIC's pipeline stalls to fetch a context it does not hold (over PCIe)
 * @param arbitrationBytes     bytes a QP may send in its turn before the NIC serves the next active QP;
 *                             0 = one packet per turn (per-packet round robin)
 * @param adaptive             NVIDIA's adaptive retransmission in place of the fixed QP timer, or null (off)
 * @param rxBufferBytes        the receive (port) buffer that holds packets behind a context miss; 0 = unbounded
 */
public record NicConfig(String profile, Reorder reorder, int reorderWindowPackets, Timer timer, int retryCount,
                        int qpCacheEntries, long qpMissPs, long arbitrationBytes, AdaptiveRetransmission adaptive,
                        long rxBufferBytes) {

    /** Without adaptive retransmission, with an unbounded receive buffer. */
    public NicConfig(String profile, Reorder reorder, int reorderWindowPackets, Timer timer, int retryCount,
                     int qpCacheEntries, long qpMissPs, long arbitrationBytes) {
        this(profile, reorder, reorderWindowPackets, timer, retryCount, qpCacheEntries, qpMissPs, arbitrationBytes, null);
    }

    /** With an unbounded receive buffer. */
    public NicConfig(String profile, Reorder reorder, int reorderWindowPackets, Timer timer, int retryCount,
                     int qpCacheEntries, long qpMissPs, long arbitrationBytes, AdaptiveRetransmission adaptive) {
        this(profile, reorder, reorderWindowPackets, timer, retryCount, qpCacheEntries, qpMissPs, arbitrationBytes, adaptive, 0);
    }

    /** The receiver's treatment of a packet beyond the expected sequence. */
    public enum Reorder {
        /** Discarded, and the first gap NACKed (RoCE go-back-N): the sender goes back. */
        IN_ORDER("in-order"),
        /** Kept in a bitmap of {@code reorderWindowPackets} beyond the expected packet (IRN); later ones are discarded. */
        WINDOW("window"),
        /** Always kept (an idealised multipath NIC that places any packet directly in memory). */
        UNBOUNDED("unbounded");

        public final String key;

        Reorder(String key) {
            this.key = key;
        }
    }

    /** Retransmission timers. */
    public enum Timer {
        /** One timer per QP (RoCE's local ACK timer, RFC 6298): restarted on progress. */
        PER_QP("per-qp"),
        /** One per packet: a packet unacknowledged one timeout after it was sent is resent on its own. */
        PER_PACKET("per-packet");

        public final String key;

        Timer(String key) {
            this.key = key;
        }
    }

    public NicConfig {
        if (reorderWindowPackets < 0) throw new IllegalArgumentException("reorder window must be >= 0: " + reorderWindowPackets);
        if (retryCount < 0) throw new IllegalArgumentException("retry count must be >= 0: " + retryCount);
        if (qpCacheEntries < 0) throw new IllegalArgumentException("QP cache entries must be >= 0: " + qpCacheEntries);
        if (qpMissPs < 0) throw new IllegalArgumentException("QP context miss time must be >= 0: " + qpMissPs);
        if (arbitrationBytes < 0) throw new IllegalArgumentException("arbitration bytes must be >= 0: " + arbitrationBytes);
        if (rxBufferBytes < 0) throw new IllegalArgumentException("receive buffer bytes must be >= 0: " + rxBufferBytes);
    }

    /**
     * The idealised NIC lbsim modelled before NIC profiles (tests of other parts that must not
     * depend on NIC costs): keeps every out-of-order packet, per-QP timers, no retry limit, no
     * context misses, per-packet round robin.
     */
    public static final NicConfig IDEAL = new NicConfig("ideal", Reorder.UNBOUNDED, 0, Timer.PER_QP, 0, 0, 0, 0);

    /** How many packets beyond the expected one the receiver keeps. */
    public long keptBeyondExpected() {
        return switch (reorder) {
            case IN_ORDER -> 0;
            case WINDOW -> reorderWindowPackets;
            case UNBOUNDED -> Long.MAX_VALUE;
        };
    }

    /** Whether QP contexts can miss (a finite cache with a non-zero fetch time). */
    public boolean contextMisses() {
        return qpCacheEntries > 0 && qpMissPs > 0;
    }
}

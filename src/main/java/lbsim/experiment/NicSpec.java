package lbsim.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.net.AdaptiveRetransmission;
import lbsim.net.NicConfig;
import lbsim.net.NicConfig.Reorder;
import lbsim.net.NicConfig.Timer;

/**
 * The scenario's {@code nic} section: a named profile of what a real RDMA NIC does (receiver
 * reordering, retransmission timers and retry count, QP context cache, arbitration between QPs,
 * and the loss recovery it runs), with any field set beside {@code profile} overriding that
 * profile's value. Without a {@code nic} section the profile follows {@code transport.loss_recovery}
 * (a transport needs a NIC that can run it), and without either it is {@code roce}.
 * Every value and its source is in docs/scenario.md, section "nic".
 *
 * @param localAckTimeout the InfiniBand local ACK timeout exponent t: the QP's timer is 4.096 us x 2^t
 *                        (the default of {@code transport.timeout_us} under this profile; 0 = use 1000 us)
 * @param cc              the congestion control the NIC ships with: the default of {@code transport.cc}
 * @param adaptive        NVIDIA's adaptive retransmission ({@code adaptive_retransmission: true}), or null: off
 * @param rxBufferBytes   the receive (port) buffer that holds packets behind a QP-context miss; 0 = unbounded
 */
public record NicSpec(String profile, Reorder reorder, int reorderWindowPackets, Timer timer, int retryCount,
                      int qpCacheEntries, long qpMissNs, long arbitrationBytes, String lossRecovery, int localAckTimeout,
                      String cc, AdaptiveRetransmission adaptive, long rxBufferBytes) {

    /** One profile's defaults. */
    record Profile(Reorder reorder, int reorderWindowPackets, Timer timer, int retryCount, int qpCacheEntries,
                   long qpMissNs, long arbitrationBytes, String lossRecovery, int localAckTimeout, String cc,
                   long rxBufferBytes) {}

    static final Map<String, Profile> PROFILES = new LinkedHashMap<>();

    static {
        PROFILES.put("roce", new Profile(Reorder.IN_ORDER, 0, Timer.PER_QP, NicDefaults.RETRY_COUNT,
                NicDefaults.QP_CACHE_ENTRIES, NicDefaults.QP_MISS_NS, NicDefaults.ARBITRATION_BYTES, "go-back-n",
                NicDefaults.LOCAL_ACK_TIMEOUT, "dcqcn", NicDefaults.RX_BUFFER_BYTES));   // ConnectX's RoCE congestion control is DCQCN (Zhu et al. 2015)
        PROFILES.put("irn", new Profile(Reorder.WINDOW, 0, Timer.PER_QP, NicDefaults.RETRY_COUNT,
                NicDefaults.QP_CACHE_ENTRIES, NicDefaults.QP_MISS_NS, NicDefaults.ARBITRATION_BYTES, "irn", 0,
                "dcqcn", NicDefaults.RX_BUFFER_BYTES));   // IRN keeps the NIC's DCQCN (Mittal et al. 2018 §4; Hopper §4.1.1 and ConWeave run it so)
        PROFILES.put("multipath", new Profile(Reorder.UNBOUNDED, 0, Timer.PER_PACKET, 0,
                NicDefaults.QP_CACHE_ENTRIES, NicDefaults.QP_MISS_NS, NicDefaults.ARBITRATION_BYTES, "sack", 0,
                "uec", NicDefaults.RX_BUFFER_BYTES));   // a NIC built for multipath runs the Ultra Ethernet transport's NSCC (docs/uec.md)
        PROFILES.put("ideal", new Profile(Reorder.UNBOUNDED, 0, Timer.PER_QP, 0, 0, 0, 0, "go-back-n", 0, "dctcp", 0));
    }

    static final List<String> REORDER = List.of("in-order", "window", "unbounded");
    static final List<String> TIMERS = List.of("per-qp", "per-packet");
    /** Loss recoveries whose sender relies on the receiver keeping packets beyond a gap. */
    static final List<String> SELECTIVE = List.of("irn", "tcp", "trim", "trim-rts", "sack");

    /** The profile a NIC section left unset takes from the transport's loss recovery. */
    static String profileFor(String lossRecovery) {
        return switch (lossRecovery) {
            case "go-back-n" -> "roce";
            case "irn" -> "irn";
            default -> "multipath";
        };
    }

    /**
     * @param givenLossRecovery {@code transport.loss_recovery} as the user gave it, or null
     */
    static NicSpec from(Section s, String givenLossRecovery) {
        String profile = s.choice("profile", givenLossRecovery == null ? "roce" : profileFor(givenLossRecovery),
                List.copyOf(PROFILES.keySet()));
        Profile p = PROFILES.get(profile);
        Reorder reorder = reorderOf(s.choice("reorder", p.reorder().key, REORDER));
        int window = s.intValue("reorder_window_packets", p.reorderWindowPackets(), 0, 1 << 30);
        Timer timer = s.choice("timer", p.timer().key, TIMERS).equals("per-qp") ? Timer.PER_QP : Timer.PER_PACKET;
        int retry = s.intValue("retry_count", p.retryCount(), 0, 1_000_000);
        int cache = s.intValue("qp_cache_entries", p.qpCacheEntries(), 0, 1 << 30);
        long missNs = s.longValue("qp_miss_ns", p.qpMissNs(), 0, 1_000_000_000L);
        long arb = s.longValue("arbitration_bytes", p.arbitrationBytes(), 0, 1L << 40);
        int ackTimeout = s.intValue("local_ack_timeout", p.localAckTimeout(), 0, 31);
        long rxBuffer = s.longValue("rx_buffer_bytes", p.rxBufferBytes(), 0, 1L << 40);
        String recovery = givenLossRecovery != null ? givenLossRecovery : p.lossRecovery();
        if (reorder == Reorder.IN_ORDER && SELECTIVE.contains(recovery)) {
            throw s.error("reorder", "in-order cannot run transport.loss_recovery " + recovery + ", whose sender resends only"
                    + " the packets the receiver lacks: its receiver must keep packets beyond a gap. Allowed: nic.reorder window"
                    + " or unbounded (profiles irn, multipath), or loss_recovery go-back-n or erasure");
        }
        AdaptiveRetransmission adaptive = adaptive(s, recovery);
        s.finish();
        return new NicSpec(profile, reorder, window, timer, retry, cache, missNs, arb, recovery, ackTimeout, p.cc(), adaptive,
                rxBuffer);
    }

    /** The {@code adp_*} keys: read only with {@code adaptive_retransmission: true}, so that they stay out of other runs' resolved scenarios. */
    static final List<String> ADP_KEYS = List.of("adp_first_timeout_min_us", "adp_first_timeout_max_us",
            "adp_retries_per_timeout", "adp_decrement");

    /**
     * NVIDIA's adaptive retransmission (docs.nvidia.com "Adaptive Retransmission: Parameters Control"), off unless
     * {@code adaptive_retransmission: true}; the key is not written when absent, so existing runs resolve as before.
     * NVIDIA does not publish its default profile's values: the defaults here are lbsim's (docs/scenario.md).
     */
    private static AdaptiveRetransmission adaptive(Section s, String recovery) {
        boolean on = s.has("adaptive_retransmission") && s.bool("adaptive_retransmission", false);
        if (!on) {
            for (String k : ADP_KEYS) {
                if (s.has(k)) throw s.error(k, "is read only with nic.adaptive_retransmission: true");
            }
            return null;
        }
        if (recovery.equals("irn")) {
            throw s.error("adaptive_retransmission", "loss_recovery irn has its own timers (RTO_low and RTO_high);"
                    + " allowed with: go-back-n, sack, tcp, trim, trim-rts, erasure");
        }
        long minUs = s.longValue("adp_first_timeout_min_us", ADP_FIRST_MIN_US, 4, 100_000_000L);
        long maxUs = s.longValue("adp_first_timeout_max_us", Math.max(minUs, ADP_FIRST_MAX_US), 4, 100_000_000L);
        int choices = 1;
        while ((minUs << (choices - 1)) < maxUs && choices < 16) choices++;
        if ((minUs << (choices - 1)) != maxUs) {
            throw s.error("adp_first_timeout_max_us", maxUs + " is not adp_first_timeout_min_us (" + minUs + ") x a power of 2"
                    + " up to 2^15 (ADP draws the first timeout among powers of two); allowed: " + minUs + ", " + 2 * minUs
                    + ", " + 4 * minUs + ", ...");
        }
        int retries = s.intValue("adp_retries_per_timeout", 1, 1, 1000);
        String dec = s.choice("adp_decrement", "reset", AdaptiveRetransmission.Decrement.KEYS);
        return new AdaptiveRetransmission(minUs * 1_000_000L, choices, retries, AdaptiveRetransmission.Decrement.of(dec));
    }

    /** ADP's smallest and largest first timeout when not given: lbsim's choice, NVIDIA's default profile is not published. */
    static final long ADP_FIRST_MIN_US = 16;
    static final long ADP_FIRST_MAX_US = 128;

    private static Reorder reorderOf(String key) {
        for (Reorder r : Reorder.values()) if (r.key.equals(key)) return r;
        throw new IllegalArgumentException(key);
    }

    /** The NIC configuration every host runs with (the reorder window still 0 = one BDP, resolved per host by the transport). */
    public NicConfig config() {
        return new NicConfig(profile, reorder, reorderWindowPackets, timer, retryCount, qpCacheEntries,
                qpMissNs * lbsim.engine.Simulation.PS_PER_NS, arbitrationBytes, adaptive, rxBufferBytes);
    }

    /** The QP timer this profile's local ACK timeout gives, in microseconds (rounded up), or 0 if none. */
    long localAckTimeoutUs() {
        if (localAckTimeout == 0) return 0;
        return (long) Math.ceil(4.096 * (1L << localAckTimeout));   // IBA vol. 1 §9.7.6.1.3: 4.096 us x 2^t
    }

    /** What this NIC idealises, each as a phrase for reports; empty for a NIC as deployed. */
    public List<String> idealisations() {
        List<String> out = new ArrayList<>();
        if (reorder == Reorder.UNBOUNDED) out.add("receiver keeps every out-of-order packet (unbounded reorder)");
        if (qpCacheEntries == 0 || qpMissNs == 0) out.add("QP contexts never miss (unlimited context cache)");
        // without misses nothing waits in the receive buffer, so its size cannot matter
        else if (rxBufferBytes == 0) out.add("unbounded receive buffer (packets behind a context miss never pause or drop)");
        if (retryCount == 0) out.add("no retry limit (a QP never fails)");
        return out;
    }

    /**
     * summary.json {@code nic}: the profile and every field in force, with the reorder window as
     * host 0 resolved it and the QP timer the transport uses.
     */
    public Map<String, Object> summary(NicConfig resolved, long timeoutUs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("profile", profile);
        m.put("description", describe());
        m.put("reorder", reorder.key);
        m.put("reorder_window_packets", reorder == Reorder.WINDOW ? resolved.reorderWindowPackets() : null);
        m.put("timer", timer.key);
        m.put("timeout_us", timeoutUs);
        m.put("retry_count", retryCount);
        m.put("loss_recovery", lossRecovery);
        m.put("qp_cache_entries", qpCacheEntries);
        m.put("qp_miss_ns", qpMissNs);
        m.put("arbitration_bytes", arbitrationBytes);
        m.put("rx_buffer_bytes", rxBufferBytes);
        if (adaptive != null) m.put("adaptive_retransmission", adaptiveSummary());   // absent when off: summaries stay as they were
        m.put("idealisations", idealisations());
        return m;
    }

    /** One line for consoles and reports: the profile and its fields. */
    public String describe() {
        StringBuilder b = new StringBuilder("NIC ").append(profile).append(": ").append(reorder.key);
        if (reorder == Reorder.WINDOW) {
            b.append(' ').append(reorderWindowPackets == 0 ? "BDP" : reorderWindowPackets + "-packet").append(" window");
        }
        b.append(" receiver, ").append(timer.key).append(" timer, loss recovery ").append(lossRecovery);
        b.append(", retry count ").append(retryCount == 0 ? "unlimited" : Integer.toString(retryCount));
        b.append(", QP cache ").append(qpCacheEntries == 0 ? "unlimited" : qpCacheEntries + " contexts (" + qpMissNs + " ns a miss)");
        b.append(", arbitration ").append(arbitrationBytes == 0 ? "per packet" : arbitrationBytes + " B");
        b.append(", receive buffer ").append(rxBufferBytes == 0 ? "unbounded" : rxBufferBytes + " B");
        if (adaptive != null) {
            b.append(", adaptive retransmission (first timeout ").append(adaptive.firstMinPs() / 1_000_000L);
            if (adaptive.firstChoices() > 1) b.append('-').append(adaptive.firstMaxPs() / 1_000_000L);
            b.append(" us, doubling)");
        }
        return b.toString();
    }

    /** summary.json {@code nic.adaptive_retransmission}: the ADP settings in force. */
    private Map<String, Object> adaptiveSummary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("first_timeout_min_us", adaptive.firstMinPs() / 1_000_000L);
        m.put("first_timeout_max_us", adaptive.firstMaxPs() / 1_000_000L);
        m.put("retries_per_timeout", adaptive.retriesPerTimeout());
        m.put("decrement", adaptive.decrement().key);
        return m;
    }
}

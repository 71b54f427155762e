package lbsim.experiment;

import lbsim.topology.Fabric;

import java.util.ArrayList;
import java.util.List;
import lbsim.transport.CongestionControls;
import lbsim.transport.LossRecoveries;
import lbsim.transport.NsccVersion;
import lbsim.transport.RecoveryParams;
import lbsim.transport.RtoBackoff;
import lbsim.transport.TransportConfig;

/** The scenario's {@code transport} section. */
public record TransportSpec(String cc, String lossRecovery, boolean pfc, long timeoutUs, int ackEvery, int headerBytes,
                            int ackBytes, long nackIntervalUs, long initCwndBytes, double dctcpG, double dctcpAlpha0,
                            double rateCoefficient, double swiftBaseTargetUs, RecoveryParams recovery,
                            RtoBackoff rtoBackoff, NicSpec nic, String dctcpVariant, double uecTargetQdelayUs,
                            double pacingJitter, String dcqcnParams, int uecQaGate, String uecNscc) {

    /** {@code dctcp_variant}: RFC 8257's window, or the HPCC/ConWeave ns-3 model's rate (algorithms.md §2.1). */
    static final List<String> DCTCP_VARIANTS = List.of("window", "rate");

    /** {@code irn_nack}: NACK every out-of-order arrival (IRN) or only those beyond the window (Hopper §4.1.1). */
    static final List<String> IRN_NACK = List.of("every", "beyond-window");

    /** {@code ack_out_of_order}: ACK a packet kept beyond a gap at once (TCP) or when ack_every packets have arrived (uet-htsim). */
    static final List<String> ACK_OUT_OF_ORDER = List.of("at-once", "coalesced");

    /** {@code transport.loss_recovery} as given (checked against the allowed values), or null: the NIC profile's default. */
    static String givenLossRecovery(Section s) {
        return s.has("loss_recovery") ? s.choice("loss_recovery", null, LossRecoveries.IMPLEMENTED) : null;
    }

    /** @param nic the NIC, whose profile gives the loss recovery and the QP timer when they are not set here */
    static TransportSpec from(Section s, NicSpec nic) {
        List<String> ccs = new ArrayList<>(CongestionControls.NAMES);
        String cc = s.choice("cc", nic.cc(), ccs);   // the NIC's own congestion control unless given
        String lr = s.choice("loss_recovery", nic.lossRecovery(), LossRecoveries.IMPLEMENTED);
        boolean pfc = s.bool("pfc", true);
        if (s.has("irn_window_packets")) {
            throw s.error("irn_window_packets", "the receiver's reorder window is the NIC's: set nic.reorder_window_packets"
                    + " (with nic.reorder: window, the irn profile's default)");
        }
        long timeoutUs = baseTimeoutUs(s, lr, nic);
        // whose NSCC (uet-htsim's current one or commit c009cb77's): read first, it sets uec_qa_gate's default
        String nscc = s.choice("uec_nscc", NsccVersion.CURRENT.key(), NsccVersion.NAMES);
        TransportSpec t = new TransportSpec(cc, lr, pfc, timeoutUs,
                s.intValue("ack_every", 1, 1, 1_000_000),
                s.intValue("header_bytes", 64, 0, 65536),
                s.intValue("ack_bytes", 64, 1, 65536),
                s.longValue("nack_interval_us", 500, 0, 100_000_000L),
                s.longValue("init_cwnd_bytes", 0, 0, 1L << 40),
                s.doubleValue("dctcp_g", 1.0 / 16, 1e-9, 1),
                s.doubleValue("dctcp_alpha0", 1.0, 0, 1),
                s.doubleValue("rate_coefficient", 1.0, 1e-6, 1e6),
                s.doubleValue("swift_base_target_us", 0, 0, 1e6),
                new RecoveryParams(s.longValue("irn_rto_low_us", 100, 1, 100_000_000L) * 1_000_000L,
                        s.intValue("dupack_threshold", 3, 1, 1 << 20),
                        s.doubleValue("erasure_overhead", 0.0, 0, 10), 0,
                        s.choice("irn_nack", "every", IRN_NACK).equals("every"),
                        // uet-htsim's UecSink counts out-of-order packets towards its ACK threshold; TCP ACKs them at once
                        s.choice("ack_out_of_order", "at-once", ACK_OUT_OF_ORDER).equals("coalesced")),
                backoff(s, timeoutUs, lr, nic.adaptive()), nic, s.choice("dctcp_variant", "window", DCTCP_VARIANTS),
                // uet-htsim -target_q_delay: 0 = its default, 0.75 x the base RTT with trimming, 1 x without
                s.doubleValue("uec_target_qdelay_us", 0, 0, 1e6),
                // 0: strictly periodic, as McClure §3.3's fixed-rate senders; up to 1: each gap uniform in (1 +- j) x the mean
                s.doubleValue("pacing_jitter", 0, 0, 1),
                // DCQCN's rates: HPCC ns-3 run.py (default) or conweave-ns3 run.py (Hopper §4.1's base)
                s.choice("dcqcn_params", "hpcc", lbsim.transport.DcqcnParams.SETS),
                // uet-htsim -qa_gate (3); 0: none, as at commits where the gate was opt-in (c009cb77 without -enable_qa_gate)
                s.intValue("uec_qa_gate", NsccVersion.of(nscc).defaultQaGate(), 0, 30), nscc);
        s.finish();
        return t;
    }

    /**
     * The timeout (before backoff): {@code timeout_us}; with IRN, RTO_high, which is {@code irn_rto_high_us}
     * if set, else an explicit {@code timeout_us}, else IRN's 320 us. Unset, {@code timeout_us} is the NIC's local ACK
     * timeout (4.096 us x 2^t, profile roce), or 1000 us when the profile has none.
     */
    private static long baseTimeoutUs(Section s, String lossRecovery, NicSpec nic) {
        boolean explicit = s.has("timeout_us");
        long nicUs = nic.localAckTimeoutUs();
        long timeoutUs = s.longValue("timeout_us", nicUs > 0 ? nicUs : 1000, 1, 100_000_000L);
        // IRN (Mittal et al. 2018; conweave-ns3 network-load-balance.cc): RTO_high = 320 us
        long rtoHighUs = s.longValue("irn_rto_high_us", explicit ? timeoutUs : 320, 1, 100_000_000L);
        return lossRecovery.equals("irn") ? rtoHighUs : timeoutUs;
    }

    /** {@code timeout_backoff} and {@code timeout_max_us}: the timeout grows over consecutive timeouts, up to the cap. */
    private static RtoBackoff backoff(Section s, long timeoutUs, String lossRecovery, lbsim.net.AdaptiveRetransmission adaptive) {
        String base = lossRecovery.equals("irn") ? "irn_rto_high_us" : "timeout_us";
        double factor = s.doubleValue("timeout_backoff", 1.0, 1.0, 1000);
        long capUs = s.longValue("timeout_max_us", 0, 0, 100_000_000L);
        if (adaptive != null && (factor != 1.0 || capUs != 0)) {
            throw s.error(factor != 1.0 ? "timeout_backoff" : "timeout_max_us", "not with nic.adaptive_retransmission, which"
                    + " doubles the timeout itself up to timeout_us (the QP's ACK timeout); allowed: timeout_backoff 1, timeout_max_us 0");
        }
        if (adaptive != null && timeoutUs * 1_000_000L < adaptive.firstMaxPs()) {
            throw s.error("timeout_us", timeoutUs + " is below nic.adp_first_timeout_max_us (" + adaptive.firstMaxPs() / 1_000_000L
                    + "): the QP's ACK timeout caps every adaptive timeout; allowed: at least " + adaptive.firstMaxPs() / 1_000_000L);
        }
        if (capUs > 0 && capUs < timeoutUs) {
            throw s.error("timeout_max_us", capUs + " is below " + base + " (" + timeoutUs + "); allowed: 0 (no cap) or at least " + base);
        }
        return new RtoBackoff(factor, capUs * 1_000_000L);
    }

    /**
     * Resolves fabric-dependent defaults: the initial window is one BDP of the longest path
     * when 0; fixed-rate pacing uses rate_coefficient x the fair-share rate; Swift's base target is the
     * fabric's unloaded RTT when 0.
     *
     * @param baseRttPs     the longest path's RTT with store-and-forward at the NIC's rate
     * @param unloadedRttPs an upper bound on any path's unloaded RTT (Fabric.maxUnloadedRttPs)
     */
    public TransportConfig resolve(int mtuBytes, long bdpBytes, long fairShareBps, long baseRttPs, long unloadedRttPs,
                                   int switchHops) {
        long cwnd = initCwndBytes > 0 ? initCwndBytes : Math.max(bdpBytes, 2L * (mtuBytes + headerBytes));
        // NSCC (uet-htsim initNscc) starts at its largest window, 1.5 BDP, unless a window is given
        if (cc.equals("uec")) cwnd = initCwndBytes;
        // Swift §3.2: the base target covers the fabric's unloaded delay; 0 derives it from the topology.
        // It must cover the slowest links too, or an idle path's RTT exceeds it and the window falls to its minimum
        long swiftTarget = swiftBaseTargetUs > 0 ? Math.round(swiftBaseTargetUs * 1_000_000) : unloadedRttPs;
        long fixed = cc.equals("fixed-rate") ? Math.max(1, Math.round(rateCoefficient * fairShareBps)) : 0;
        // NSCC's network RTT (uet-htsim main_uec.cpp calculate_rtt, at the host rate on a fabric of one rate): the
        // bound over the slowest links, so that a fabric slower than its NICs does not look congested when idle
        long rtt = cc.equals("uec") ? Math.max(baseRttPs, unloadedRttPs) : baseRttPs;
        return new TransportConfig(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutUs * 1_000_000L,
                nackIntervalUs * 1_000_000L, cwnd, dctcpG, dctcpAlpha0, fixed, swiftTarget, switchHops, rtt,
                recovery.withBdp(Math.max(bdpBytes, 2L * (mtuBytes + headerBytes))), rtoBackoff,
                nicConfig(Math.max(bdpBytes, 2L * (mtuBytes + headerBytes)), mtuBytes), dctcpVariant.equals("rate"),
                Math.round(uecTargetQdelayUs * 1_000_000), pacingJitter, dcqcnParams, uecQaGate, NsccVersion.of(uecNscc));
    }

    /** The NIC's configuration on a host with this BDP: a reorder window of 0 packets is one BDP (IRN §3.2's bitmap). */
    private lbsim.net.NicConfig nicConfig(long bdpBytes, int mtuBytes) {
        lbsim.net.NicConfig c = nic.config();
        if (c.reorder() != lbsim.net.NicConfig.Reorder.WINDOW || c.reorderWindowPackets() > 0) return c;
        int packets = (int) Math.min(1 << 30, Math.max(1, (bdpBytes + mtuBytes - 1) / mtuBytes));
        return new lbsim.net.NicConfig(c.profile(), c.reorder(), packets, c.timer(), c.retryCount(), c.qpCacheEntries(),
                c.qpMissPs(), c.arbitrationBytes(), c.adaptive(), c.rxBufferBytes());
    }
}

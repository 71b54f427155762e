package lbsim.experiment;

import java.util.ArrayList;
import java.util.List;
import lbsim.transport.CongestionControls;
import lbsim.transport.LossRecoveries;
import lbsim.transport.RecoveryParams;
import lbsim.transport.RtoBackoff;
import lbsim.transport.TransportConfig;

/** The scenario's {@code transport} section. */
public record TransportSpec(String cc, String lossRecovery, boolean pfc, long timeoutUs, int ackEvery, int headerBytes,
                            int ackBytes, long nackIntervalUs, long initCwndBytes, double dctcpG, double dctcpAlpha0,
                            double rateCoefficient, double swiftBaseTargetUs, RecoveryParams recovery,
                            RtoBackoff rtoBackoff) {

    /** {@code irn_nack}: NACK every out-of-order arrival (IRN) or only those beyond the window (Hopper §4.1.1). */
    static final List<String> IRN_NACK = List.of("every", "beyond-window");

    static TransportSpec from(Section s) {
        List<String> ccs = new ArrayList<>(CongestionControls.NAMES);
        String cc = s.string("cc", "dctcp");
        s.choice("cc", "dctcp", ccs);
        String lr = s.string("loss_recovery", "go-back-n");
        s.choice("loss_recovery", "go-back-n", LossRecoveries.IMPLEMENTED);
        boolean pfc = s.bool("pfc", true);
        long timeoutUs = baseTimeoutUs(s, lr);
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
                new RecoveryParams(s.intValue("irn_window_packets", 30, 0, 1 << 30),
                        s.longValue("irn_rto_low_us", 100, 1, 100_000_000L) * 1_000_000L,
                        s.intValue("dupack_threshold", 3, 1, 1 << 20),
                        s.doubleValue("erasure_overhead", 0.0, 0, 10), 0,
                        s.choice("irn_nack", "every", IRN_NACK).equals("every")),
                backoff(s, timeoutUs, lr));
        s.finish();
        return t;
    }

    /**
     * The timeout (before backoff): {@code timeout_us}; with IRN, RTO_high, which is {@code irn_rto_high_us}
     * if set, else an explicit {@code timeout_us}, else IRN's 320 us.
     */
    private static long baseTimeoutUs(Section s, String lossRecovery) {
        boolean explicit = s.has("timeout_us");
        long timeoutUs = s.longValue("timeout_us", 1000, 1, 100_000_000L);
        // IRN (Mittal et al. 2018; conweave-ns3 network-load-balance.cc): RTO_high = 320 us
        long rtoHighUs = s.longValue("irn_rto_high_us", explicit ? timeoutUs : 320, 1, 100_000_000L);
        return lossRecovery.equals("irn") ? rtoHighUs : timeoutUs;
    }

    /** {@code timeout_backoff} and {@code timeout_max_us}: the timeout grows over consecutive timeouts, up to the cap. */
    private static RtoBackoff backoff(Section s, long timeoutUs, String lossRecovery) {
        String base = lossRecovery.equals("irn") ? "irn_rto_high_us" : "timeout_us";
        double factor = s.doubleValue("timeout_backoff", 1.0, 1.0, 1000);
        long capUs = s.longValue("timeout_max_us", 0, 0, 100_000_000L);
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
        // Swift §3.2: the base target covers the fabric's unloaded delay; 0 derives it from the topology.
        // It must cover the slowest links too, or an idle path's RTT exceeds it and the window falls to its minimum
        long swiftTarget = swiftBaseTargetUs > 0 ? Math.round(swiftBaseTargetUs * 1_000_000) : unloadedRttPs;
        long fixed = cc.equals("fixed-rate") ? Math.max(1, Math.round(rateCoefficient * fairShareBps)) : 0;
        return new TransportConfig(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutUs * 1_000_000L,
                nackIntervalUs * 1_000_000L, cwnd, dctcpG, dctcpAlpha0, fixed, swiftTarget, switchHops, baseRttPs,
                recovery.withBdp(Math.max(bdpBytes, 2L * (mtuBytes + headerBytes))), rtoBackoff);
    }
}

package lbsim.transport;

import lbsim.net.NicConfig;

/**
 * Resolved transport settings of a run (the scenario's {@code transport} section after
 * defaults that depend on the fabric, such as the initial window, are filled in).
 *
 * @param cc                 dctcp | dcqcn | swift | fixed-rate | uec
 * @param lossRecovery       go-back-n (others as they are built)
 * @param mtuBytes           payload bytes per data packet
 * @param headerBytes        per-packet header bytes on the wire (RoCEv2 ~ 64)
 * @param ackBytes           wire size of ACK, NACK and CNP packets
 * @param ackEvery           receiver ACKs every this many in-order packets (and at the end, on CE and on the sender's ACK requests)
 * @param timeoutPs          per-QP retransmission timeout
 * @param nackIntervalPs     receiver repeats a NACK for the same sequence only after this
 * @param initCwndBytes      initial window of dctcp and swift (one BDP when not set); of uec when set, else 0
 *                           (NSCC starts at its largest window, 1.5 BDP)
 * @param dctcpG             DCTCP EWMA gain
 * @param dctcpAlpha0        DCTCP initial alpha
 * @param fixedRateBps       pacing rate for fixed-rate (0 = line rate)
 * @param swiftBaseTargetPs  Swift base target delay
 * @param switchHops         switches on the fabric's longest path (Swift's per-hop target allowance)
 * @param baseRttPs          unloaded RTT of the fabric's longest path (with uec: at the slowest link rate on every hop
 *                           if that is longer, NSCC's network RTT)
 * @param recovery           settings of irn, tcp and erasure
 * @param rtoBackoff         growth of the timeout over consecutive timeouts of a QP (every recovery)
 * @param nic                the host NIC's receiver, timers and retry count (its reorder window resolved)
 * @param dctcpRate          dctcp: the rate-based variant of the HPCC/ConWeave ns-3 model instead of the window one
 * @param uecTargetQdelayPs  NSCC (cc uec) target queueing delay; 0 = uet-htsim's default from the base RTT
 * @param pacingJitter       fixed-rate: each gap between two packets of a QP is drawn uniformly in (1 +- this) x the
 *                           mean gap (0 = strictly periodic)
 * @param uecQaGate          NSCC quick adapt runs only when less than the largest window / 2^this was delivered in its
 *                           period; 0 = no such condition
 * @param uecNscc            whose NSCC rules and defaults cc uec follows: the current uet-htsim's or commit c009cb77's
 */
public record TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                              int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                              double dctcpG, double dctcpAlpha0, long fixedRateBps,
                              long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                              RtoBackoff rtoBackoff, NicConfig nic, boolean dctcpRate, long uecTargetQdelayPs,
                              double pacingJitter, String dcqcnParams, int uecQaGate, NsccVersion uecNscc) {

    /** NSCC's default quick-adapt gate (uet-htsim's {@code -qa_gate} default, 3). */
    public static final int UEC_QA_GATE = Nscc.QA_GATE;

    /** The current NSCC. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                           int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                           double dctcpG, double dctcpAlpha0, long fixedRateBps,
                           long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                           RtoBackoff rtoBackoff, NicConfig nic, boolean dctcpRate, long uecTargetQdelayPs,
                           double pacingJitter, String dcqcnParams, int uecQaGate) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, nic, dctcpRate,
                uecTargetQdelayPs, pacingJitter, dcqcnParams, uecQaGate, NsccVersion.CURRENT);
    }

    /** DCQCN with the HPCC parameter set, NSCC's default quick-adapt gate. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                           int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                           double dctcpG, double dctcpAlpha0, long fixedRateBps,
                           long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                           RtoBackoff rtoBackoff, NicConfig nic, boolean dctcpRate, long uecTargetQdelayPs,
                           double pacingJitter) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, nic, dctcpRate,
                uecTargetQdelayPs, pacingJitter, "hpcc", UEC_QA_GATE);
    }

    /** Without pacing jitter. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                           int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                           double dctcpG, double dctcpAlpha0, long fixedRateBps,
                           long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                           RtoBackoff rtoBackoff, NicConfig nic, boolean dctcpRate, long uecTargetQdelayPs) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, nic, dctcpRate,
                uecTargetQdelayPs, 0);
    }

    /** The window DCTCP, NSCC's default target delay. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                           int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                           double dctcpG, double dctcpAlpha0, long fixedRateBps,
                           long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                           RtoBackoff rtoBackoff, NicConfig nic) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, nic, false, 0);
    }

    /** On the idealised NIC (receivers keep every out-of-order packet, no retry limit): unit tests of other parts. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes,
                           int ackEvery, long timeoutPs, long nackIntervalPs, long initCwndBytes,
                           double dctcpG, double dctcpAlpha0, long fixedRateBps,
                           long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery,
                           RtoBackoff rtoBackoff) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, NicConfig.IDEAL);
    }

    /** The same settings on another NIC. */
    public TransportConfig withNic(NicConfig n) {
        return new TransportConfig(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs,
                initCwndBytes, dctcpG, dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, rtoBackoff, n,
                dctcpRate, uecTargetQdelayPs, pacingJitter, dcqcnParams, uecQaGate, uecNscc);
    }

    /** Without a timeout backoff. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes, int ackEvery,
                           long timeoutPs, long nackIntervalPs, long initCwndBytes, double dctcpG, double dctcpAlpha0,
                           long fixedRateBps, long swiftBaseTargetPs, int switchHops, long baseRttPs, RecoveryParams recovery) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, swiftBaseTargetPs, switchHops, baseRttPs, recovery, RtoBackoff.NONE);
    }

    /** Without Swift or recovery settings: the defaults, with the initial window as the BDP. */
    public TransportConfig(String cc, String lossRecovery, int mtuBytes, int headerBytes, int ackBytes, int ackEvery,
                           long timeoutPs, long nackIntervalPs, long initCwndBytes, double dctcpG, double dctcpAlpha0,
                           long fixedRateBps) {
        this(cc, lossRecovery, mtuBytes, headerBytes, ackBytes, ackEvery, timeoutPs, nackIntervalPs, initCwndBytes, dctcpG,
                dctcpAlpha0, fixedRateBps, 0, 3, 0, RecoveryParams.defaults().withBdp(initCwndBytes));
    }
}

package lbsim.transport;

import java.util.List;

/** Registry of congestion controls by scenario name. */
public final class CongestionControls {
    private CongestionControls() {}

    public static final List<String> NAMES = List.of("dctcp", "dcqcn", "swift", "fixed-rate", "uec");

    /**
     * A flow split over several QPs (subflows, MP-RDMA, Ethereal splits) keeps the flow's fair-share
     * rate in total: each QP paces at the share of the flow's packets it carries (McClure §3.3 paces
     * flows, not connections).
     */
    private static long fixedShare(TransportConfig cfg, QueuePair qp) {
        long flowPackets = Math.max(1, (qp.flow().spec().sizeBytes() + cfg.mtuBytes() - 1) / cfg.mtuBytes());
        double share = Math.min(1.0, (double) qp.packets() / flowPackets);
        return Math.max(1, Math.round(cfg.fixedRateBps() * share));
    }

    static CongestionControl create(TransportConfig cfg, QueuePair qp) {
        long line = qp.lineRateBps();
        return switch (cfg.cc()) {
            case "dctcp" -> cfg.dctcpRate() ? new DctcpRate(cfg.initCwndBytes(), cfg.dctcpG(), cfg.dctcpAlpha0(), line)
                    : new Dctcp(cfg.initCwndBytes(), cfg.dctcpG(), cfg.dctcpAlpha0(), cfg.mtuBytes() + cfg.headerBytes(), line);
            case "dcqcn" -> new Dcqcn(qp, DcqcnParams.forLineRate(line, cfg.dcqcnParams()), line);
            case "swift" -> new Swift(cfg.initCwndBytes(), cfg.mtuBytes() + cfg.headerBytes(), line, cfg.swiftBaseTargetPs(),
                    cfg.switchHops(), cfg.baseRttPs(), qp::now);
            // uet-htsim NSCC: the window starts at its maximum (1.5 BDP) unless init_cwnd_bytes is given
            case "uec" -> new Nscc(cfg.initCwndBytes(), cfg.mtuBytes(), cfg.headerBytes(), line, cfg.baseRttPs(),
                    cfg.uecTargetQdelayPs(), LossRecoveries.trimMode(cfg.lossRecovery()) != 0, cfg.uecQaGate(), cfg.uecNscc(),
                    qp::now);
            case "fixed-rate" -> new FixedRate(cfg.fixedRateBps() > 0 ? Math.min(fixedShare(cfg, qp), line) : line, cfg.pacingJitter(),
                    cfg.pacingJitter() > 0 ? qp.transport().sim().random().stream("transport.pacing.qp" + qp.id) : null);
            default -> throw new IllegalArgumentException("unknown cc " + cfg.cc());
        };
    }
}

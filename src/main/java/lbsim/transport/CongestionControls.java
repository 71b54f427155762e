package lbsim.transport;

import java.util.List;

/** Registry of congestion controls by scenario name. */
public final class CongestionControls {
    private CongestionControls() {}

    public static final List<String> NAMES = List.of("dctcp", "dcqcn", "swift", "fixed-rate");
    public static final List<String> PLANNED = List.of();

    static CongestionControl create(TransportConfig cfg, QueuePair qp) {
        long line = qp.lineRateBps();
        return switch (cfg.cc()) {
            case "dctcp" -> new Dctcp(cfg.initCwndBytes(), cfg.dctcpG(), cfg.dctcpAlpha0(), cfg.mtuBytes() + cfg.headerBytes(), line);
            case "dcqcn" -> new Dcqcn(qp, DcqcnParams.forLineRate(line), line);
            case "swift" -> new Swift(cfg.initCwndBytes(), cfg.mtuBytes() + cfg.headerBytes(), line, cfg.swiftBaseTargetPs(),
                    cfg.switchHops(), cfg.baseRttPs(), qp::now);
            case "fixed-rate" -> new FixedRate(cfg.fixedRateBps() > 0 ? Math.min(cfg.fixedRateBps(), line) : line);
            default -> throw new IllegalArgumentException("unknown cc " + cfg.cc());
        };
    }
}

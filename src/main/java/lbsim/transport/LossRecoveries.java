package lbsim.transport;

import java.util.List;
import java.util.function.Supplier;

/** Registry of loss-recovery schemes by scenario name. */
public final class LossRecoveries {
    private LossRecoveries() {}

    /** Names accepted in {@code transport.loss_recovery}. */
    public static final List<String> IMPLEMENTED = List.of("go-back-n", "irn", "sack", "tcp", "trim", "trim-rts", "erasure");

    public static Supplier<LossRecovery> byName(String name) {
        return byName(name, RecoveryParams.defaults());
    }

    /** A fresh recovery object per QP (the selective schemes keep per-QP state in it); go-back-n keeps none, so its QPs share one. */
    public static Supplier<LossRecovery> byName(String name, RecoveryParams params) {
        return switch (name) {
            case "go-back-n" -> {
                GoBackN shared = new GoBackN();
                yield () -> shared;
            }
            case "irn" -> () -> new Irn(params);
            case "sack" -> SackRecovery::new;
            case "tcp" -> () -> new TcpRecovery(params.dupackThreshold());
            case "trim", "trim-rts" -> TrimRecovery::new;
            case "erasure" -> () -> new ErasureRecovery(params.erasureOverhead());
            default -> null;
        };
    }

    /** Whether switches trim instead of dropping data packets (0 = no, 1 = to the receiver, 2 = return to sender). */
    public static int trimMode(String name) {
        return switch (name) {
            case "trim" -> 1;
            case "trim-rts" -> 2;
            default -> 0;
        };
    }
}

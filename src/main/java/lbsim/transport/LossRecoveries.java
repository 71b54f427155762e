package lbsim.transport;

import java.util.List;
import java.util.function.Supplier;

/** Registry of loss-recovery schemes by scenario name. */
public final class LossRecoveries {
    private LossRecoveries() {}

    /** Names accepted in {@code transport.loss_recovery}; the ones not built yet are refused. */
    public static final List<String> IMPLEMENTED = List.of("go-back-n");
    public static final List<String> PLANNED = List.of("irn", "tcp", "trim", "trim-rts", "erasure");

    public static Supplier<LossRecovery> byName(String name) {
        return switch (name) {
            case "go-back-n" -> GoBackN::new;
            default -> null;
        };
    }
}

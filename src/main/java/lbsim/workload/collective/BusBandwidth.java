package lbsim.workload.collective;

/** NCCL-tests algorithm and bus bandwidth (reference/algorithms.md §6.5; used by CTCCL §4.2). */
public final class BusBandwidth {
    private BusBandwidth() {}

    /** busbw / algbw: all-reduce 2(n-1)/n; reduce-scatter, all-gather, all-to-all (n-1)/n; broadcast, reduce, send-recv 1. */
    public static double factor(String op, int n) {
        if (n < 1) throw new IllegalArgumentException("n must be >= 1");
        return switch (Op.of(op)) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL -> (double) (n - 1) / n;
            case BROADCAST, REDUCE, SEND_RECV -> 1.0;
        };
    }

    /** algbw = S / t in GB/s (10^9 bytes per second), S as NCCL-tests defines it per op (see {@link Op}). */
    public static double algBwGBps(long sizeBytes, long timePs) {
        if (timePs <= 0) throw new IllegalArgumentException("time must be > 0");
        return sizeBytes * 1000.0 / timePs;
    }

    public static double busBwGBps(String op, int n, long sizeBytes, long timePs) {
        return algBwGBps(sizeBytes, timePs) * factor(op, n);
    }
}

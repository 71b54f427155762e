package lbsim.transport;

/**
 * DCQCN reaction-point parameters (NIC variant of the HPCC / ConWeave ns-3 code bases,
 * algorithms.md §2.2). Rates scale with the line rate as in HPCC's run.py.
 *
 * @param alphaResumeIntervalPs  alpha update period (1 us)
 * @param rateDecreaseIntervalPs minimum period between rate cuts (4 us)
 * @param rpTimerPs              rate-increase timer (300 us)
 * @param fastRecoveryTimes      F: fast-recovery stages before additive increase (1)
 * @param g                      alpha EWMA gain (1/256)
 * @param raiBps                 additive increase step
 * @param rhaiBps                hyper increase step
 * @param minRateBps             rate floor (1000 Mbps)
 * @param cnpIntervalPs          receiver: at most one CNP per QP per interval; 0 = a CNP for every
 *                               CE-marked data packet, as in the HPCC / ConWeave ns-3 code
 */
public record DcqcnParams(long alphaResumeIntervalPs, long rateDecreaseIntervalPs, long rpTimerPs,
                          int fastRecoveryTimes, double g, long raiBps, long rhaiBps, long minRateBps,
                          long cnpIntervalPs) {

    /** Values of {@code transport.dcqcn_params}: the HPCC ns-3 run.py set (default) or conweave-ns3 run.py's. */
    public static final java.util.List<String> SETS = java.util.List.of("hpcc", "conweave");

    /** The named parameter set at this line rate ({@link #SETS}). */
    public static DcqcnParams forLineRate(long lineRateBps, String set) {
        return switch (set) {
            case "hpcc" -> forLineRate(lineRateBps);
            case "conweave" -> conweave(lineRateBps);
            default -> throw new IllegalArgumentException("unknown DCQCN parameter set " + set);
        };
    }

    /**
     * conweave-ns3 run.py (the base of Hopper §4.1): R_AI 10 Mbps and R_HAI 25 Mbps per 25 Gbps of line rate, MIN_RATE
     * 100 Mb/s; its alpha resume interval (1 us), rate decrease interval (4 us), RP timer (300 us), F = 1 and g = 1/256
     * are the HPCC set's.
     */
    static DcqcnParams conweave(long lineRateBps) {
        long per25g = Math.max(1, lineRateBps / 25_000_000_000L);
        return new DcqcnParams(1_000_000L, 4_000_000L, 300_000_000L, 1, 1.0 / 256,
                10_000_000L * per25g, 25_000_000L * per25g, 100_000_000L, 0);
    }

    /** HPCC run.py "dcqcn" values: R_AI 5 Mbps and R_HAI 50 Mbps per 25 Gbps of line rate. */
    public static DcqcnParams forLineRate(long lineRateBps) {
        long per25g = Math.max(1, lineRateBps / 25_000_000_000L);
        // HPCC simulation/run.py config template: MIN_RATE 1000Mb/s (100 Mb/s is mix/config.txt's and ConWeave's)
        long minRateBps = 1_000_000_000L;
        // no NP gate: HPCC/ConWeave rdma-hw.cc set the CNP flag on the ACK of every CE-marked packet
        long cnpIntervalPs = 0;
        return new DcqcnParams(1_000_000L, 4_000_000L, 300_000_000L, 1, 1.0 / 256,
                5_000_000L * per25g, 50_000_000L * per25g, minRateBps, cnpIntervalPs);
    }
}

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

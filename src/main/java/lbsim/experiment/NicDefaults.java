package lbsim.experiment;

/**
 * The deployed values the NIC profiles share, each with its source; docs/scenario.md "NIC
 * profiles" gives the same table and says how far each value is supported.
 */
final class NicDefaults {
    private NicDefaults() {}

    /** NCCL_IB_RETRY_CNT's default, 7 (NCCL environment variables documentation): the RC QP's retry_cnt. */
    static final int RETRY_COUNT = 7;
    /** NCCL_IB_TIMEOUT's default since NCCL 2.23, 20: a local ACK timeout of 4.096 us x 2^20 = 4.3 s (NCCL env docs; IBA 12.7.34). */
    static final int LOCAL_ACK_TIMEOUT = 20;
    /**
     * QP contexts held on chip. No vendor publishes it: an estimate from the measured decline of RC
     * throughput past hundreds (ConnectX-3) to thousands (ConnectX-4/5) of QPs (FaRM NSDI'14, FaSST
     * OSDI'16, eRPC NSDI'19) and the ~2 MB of on-chip memory Hopper §2 cites for ConnectX-5.
     */
    static final int QP_CACHE_ENTRIES = 1024;
    /** A context fetch over PCIe: about one PCIe read round trip (0.5-1 us; Neugebauer et al. SIGCOMM'18). An estimate. */
    static final long QP_MISS_NS = 500;
    /**
     * One packet per turn: the HPCC ns-3 RDMA model (qbb-net-device.cc, GetNextQindex) that ConWeave and
     * Hopper build on. ConnectX's own granularity is not published.
     */
    static final long ARBITRATION_BYTES = 0;
}

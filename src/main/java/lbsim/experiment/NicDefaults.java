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
     * QP contexts held on chip, calibrated to the knee of published RNIC QP sweeps: StaR (ICNP'21 §I, Fig. 1)
     * measured that the then-latest RNIC keeps its peak performance only below about 450 concurrent
     * connections. No vendor publishes the cache size (QpScalingRunTest checks the sweep).
     */
    static final int QP_CACHE_ENTRIES = 450;
    /**
     * The pipeline stall a context miss costs, calibrated so that 4096 QPs at 100 Gbit/s (4 KiB packets) run at
     * half line rate: PipeDevice (CoNEXT'22 §1) measured commodity RNICs losing ~50 % at 4096 connections.
     */
    static final long QP_MISS_NS = 330;
    /**
     * One packet per turn: the HPCC ns-3 RDMA model (qbb-net-device.cc, GetNextQindex) that ConWeave and
     * Hopper build on. ConnectX's own granularity is not published.
     */
    static final long ARBITRATION_BYTES = 0;

    /**
     * ConnectX's receive (port) buffer, 262 016 B: its "Port buffer size" (NVIDIA/Mellanox community DOC-2933
     * "HowTo Tune Receive Buffers on Mellanox Adapter Cards", /sys/class/net/IF/qos/buffer_size). It holds the
     * packets that arrive while the receive pipeline waits for a QP context; with PFC the NIC pauses its ToR before
     * it fills (Mellanox "Lossless TCP"), without PFC it drops. 0 (unbounded) is the idealisation, named as such.
     */
    static final long RX_BUFFER_BYTES = 262_016;
}

package lbsim.workload.collective;

/**
 * One collective to append to a flow graph. Build with {@link #builder}; every field but the
 * first four has a default (see docs/collectives.md).
 *
 * @param op               one of {@link Collectives#OPS}
 * @param algorithm        one of {@link Collectives#ALGORITHMS}, allowed for the op
 * @param sizeBytes        S in the NCCL-tests sense (see {@link Op}), > 0
 * @param rankToHost       host (NIC) id of each rank; at least 2 ranks; ranks sharing a host
 *                         exchange data over the intra-server link, not the fabric
 * @param root             root rank of broadcast / reduce (default 0)
 * @param channels         NCCL channels: the buffer is split over this many independent
 *                         instances with their own connections (default 1)
 * @param chunkBytes       pipeline piece and QP message size; 0 = NCCL-like default per algorithm
 * @param qpsPerConnection NCCL_IB_QPS_PER_CONNECTION; 0 = leave it to the load-balancing scheme (default)
 * @param splitDataOnQps   NCCL_IB_SPLIT_DATA_ON_QPS (default true: NCCL 2.18/2.19, as in CTCCL §4)
 * @param reduceGBps       reduction compute rate in GB/s (bytes, not Gbit/s; scenario key reduce_gbps); 0 = reduction time not modelled (default)
 * @param startPs          earliest start of every flow (default 0)
 * @param after            flows that must be delivered before the collective starts (default none)
 * @param afterGapPs       delay after {@code after} is met (e.g. compute before the collective; default 0)
 * @param label            group name; empty = generated from op, algorithm, size and ranks
 * @param ranksPerServer   hierarchical: consecutive ranks per server (default 8)
 * @param intraServerGBps  NVLink-like intra-server bandwidth per GPU and direction (default 450, H100 NVLink 4)
 * @param innerAlgorithm   hierarchical: algorithm of the inter-server phase (default "ring")
 */
public record CollectiveSpec(String op, String algorithm, long sizeBytes, int[] rankToHost, int root, int channels,
                             long chunkBytes, int qpsPerConnection, boolean splitDataOnQps, double reduceGBps,
                             long startPs, int[] after, long afterGapPs, String label, int ranksPerServer,
                             double intraServerGBps, String innerAlgorithm) {

    public static final int DEFAULT_CHANNELS = 1;
    public static final int DEFAULT_RANKS_PER_SERVER = 8;
    public static final double DEFAULT_INTRA_SERVER_GBPS = 450.0;
    /** NCCL accepts 1..128 QPs per connection (reference/algorithms.md §6.6). */
    public static final int MAX_QPS_PER_CONNECTION = 128;

    public CollectiveSpec {
        if (op == null || algorithm == null) throw new IllegalArgumentException("op and algorithm are required");
        if (sizeBytes <= 0) throw new IllegalArgumentException("sizeBytes must be > 0, got " + sizeBytes);
        if (rankToHost == null || rankToHost.length < 2) throw new IllegalArgumentException("a collective needs at least 2 ranks");
        for (int h : rankToHost) if (h < 0) throw new IllegalArgumentException("host ids must be >= 0, got " + h);
        if (root < 0 || root >= rankToHost.length) throw new IllegalArgumentException("root " + root + " is not a rank (0.." + (rankToHost.length - 1) + ")");
        if (channels < 1) throw new IllegalArgumentException("channels must be >= 1, got " + channels);
        if (chunkBytes < 0) throw new IllegalArgumentException("chunkBytes must be >= 0 (0 = default), got " + chunkBytes);
        if (qpsPerConnection < 0 || qpsPerConnection > MAX_QPS_PER_CONNECTION) {
            throw new IllegalArgumentException("qpsPerConnection must be 0 (scheme decides) or 1.." + MAX_QPS_PER_CONNECTION + ", got " + qpsPerConnection);
        }
        if (!(reduceGBps >= 0) || Double.isInfinite(reduceGBps)) throw new IllegalArgumentException("reduceGBps must be finite and >= 0");
        if (startPs < 0 || afterGapPs < 0) throw new IllegalArgumentException("startPs and afterGapPs must be >= 0");
        if (after == null) after = new int[0];
        if (label == null) label = "";
        if (ranksPerServer < 1) throw new IllegalArgumentException("ranksPerServer must be >= 1");
        if (!(intraServerGBps > 0) || Double.isInfinite(intraServerGBps)) throw new IllegalArgumentException("intraServerGBps must be finite and > 0");
        if (innerAlgorithm == null) innerAlgorithm = Algorithm.RING.scenarioName();
    }

    public int ranks() {
        return rankToHost.length;
    }

    public static Builder builder(String op, String algorithm, long sizeBytes, int[] rankToHost) {
        return new Builder(op, algorithm, sizeBytes, rankToHost);
    }

    public Builder toBuilder() {
        Builder b = new Builder(op, algorithm, sizeBytes, rankToHost);
        b.root = root;
        b.channels = channels;
        b.chunkBytes = chunkBytes;
        b.qpsPerConnection = qpsPerConnection;
        b.splitDataOnQps = splitDataOnQps;
        b.reduceGBps = reduceGBps;
        b.startPs = startPs;
        b.after = after;
        b.afterGapPs = afterGapPs;
        b.label = label;
        b.ranksPerServer = ranksPerServer;
        b.intraServerGBps = intraServerGBps;
        b.innerAlgorithm = innerAlgorithm;
        return b;
    }

    /** Fluent builder holding the defaults. */
    public static final class Builder {
        private String op;
        private String algorithm;
        private long sizeBytes;
        private int[] rankToHost;
        private int root = 0;
        private int channels = DEFAULT_CHANNELS;
        private long chunkBytes = 0;
        private int qpsPerConnection = 0;
        private boolean splitDataOnQps = true;
        private double reduceGBps = 0;
        private long startPs = 0;
        private int[] after = new int[0];
        private long afterGapPs = 0;
        private String label = "";
        private int ranksPerServer = DEFAULT_RANKS_PER_SERVER;
        private double intraServerGBps = DEFAULT_INTRA_SERVER_GBPS;
        private String innerAlgorithm = Algorithm.RING.scenarioName();

        private Builder(String op, String algorithm, long sizeBytes, int[] rankToHost) {
            this.op = op;
            this.algorithm = algorithm;
            this.sizeBytes = sizeBytes;
            this.rankToHost = rankToHost;
        }

        public Builder op(String v) { op = v; return this; }
        public Builder algorithm(String v) { algorithm = v; return this; }
        public Builder sizeBytes(long v) { sizeBytes = v; return this; }
        public Builder rankToHost(int[] v) { rankToHost = v; return this; }
        public Builder root(int v) { root = v; return this; }
        public Builder channels(int v) { channels = v; return this; }
        public Builder chunkBytes(long v) { chunkBytes = v; return this; }
        public Builder qpsPerConnection(int v) { qpsPerConnection = v; return this; }
        public Builder splitDataOnQps(boolean v) { splitDataOnQps = v; return this; }
        public Builder reduceGBps(double v) { reduceGBps = v; return this; }
        public Builder startPs(long v) { startPs = v; return this; }
        public Builder after(int[] v) { after = v; return this; }
        public Builder afterGapPs(long v) { afterGapPs = v; return this; }
        /** Start after {@code c} is met: its flows delivered plus its gap. */
        public Builder after(Completion c) { after = c.flowIds(); afterGapPs = c.extraGapPs(); return this; }
        public Builder label(String v) { label = v; return this; }
        public Builder ranksPerServer(int v) { ranksPerServer = v; return this; }
        public Builder intraServerGBps(double v) { intraServerGBps = v; return this; }
        public Builder innerAlgorithm(String v) { innerAlgorithm = v; return this; }

        public CollectiveSpec build() {
            return new CollectiveSpec(op, algorithm, sizeBytes, rankToHost, root, channels, chunkBytes, qpsPerConnection,
                    splitDataOnQps, reduceGBps, startPs, after, afterGapPs, label, ranksPerServer, intraServerGBps,
                    innerAlgorithm);
        }
    }
}

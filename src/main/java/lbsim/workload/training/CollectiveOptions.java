package lbsim.workload.training;

import lbsim.workload.collective.CollectiveSpec;

/**
 * The NCCL knobs every collective of an iteration shares (see CollectiveSpec for meanings and
 * defaults): channels, chunkBytes, QPs per connection, split-data-on-QPs, reduction rate,
 * intra-server bandwidth and GPUs per server.
 */
public record CollectiveOptions(int channels, long chunkBytes, int qpsPerConnection, boolean splitDataOnQps,
                                double reduceGBps, double intraServerGBps, int ranksPerServer) {

    public static CollectiveOptions defaults() {
        return new CollectiveOptions(CollectiveSpec.DEFAULT_CHANNELS, 0, 0, true, 0,
                CollectiveSpec.DEFAULT_INTRA_SERVER_GBPS, CollectiveSpec.DEFAULT_RANKS_PER_SERVER);
    }

    public CollectiveOptions withQps(int qps) {
        return new CollectiveOptions(channels, chunkBytes, qps, splitDataOnQps, reduceGBps, intraServerGBps, ranksPerServer);
    }

    public CollectiveOptions withIntraServerGBps(double gBps) {
        return new CollectiveOptions(channels, chunkBytes, qpsPerConnection, splitDataOnQps, reduceGBps, gBps, ranksPerServer);
    }

    public CollectiveSpec.Builder applyTo(CollectiveSpec.Builder b) {
        return b.channels(channels).chunkBytes(chunkBytes).qpsPerConnection(qpsPerConnection).splitDataOnQps(splitDataOnQps)
                .reduceGBps(reduceGBps).intraServerGBps(intraServerGBps).ranksPerServer(ranksPerServer);
    }
}

package lbsim.workload.training;

/**
 * Data, tensor and pipeline parallel degrees. Ranks are numbered as Megatron-LM does: tensor
 * index fastest, then data, then pipeline: rank = p x (dp x tp) + d x tp + j, so a tensor group
 * is tp consecutive ranks (one server when tp <= GPUs per server).
 */
public record Parallelism(int dp, int tp, int pp) {

    public Parallelism {
        if (dp < 1 || tp < 1 || pp < 1) throw new IllegalArgumentException("dp, tp and pp must be >= 1");
    }

    public int gpus() {
        return dp * tp * pp;
    }

    public int rank(int stage, int replica, int tensorIndex) {
        return stage * dp * tp + replica * tp + tensorIndex;
    }

    /** Ranks of the tensor-parallel group of pipeline stage p in data-parallel replica d. */
    public int[] tensorGroup(int stage, int replica) {
        int[] out = new int[tp];
        for (int j = 0; j < tp; j++) out[j] = rank(stage, replica, j);
        return out;
    }

    /** Ranks of the data-parallel group of stage p holding tensor shard j. */
    public int[] dataGroup(int stage, int tensorIndex) {
        int[] out = new int[dp];
        for (int d = 0; d < dp; d++) out[d] = rank(stage, d, tensorIndex);
        return out;
    }
}

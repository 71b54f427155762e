package lbsim.workload.training;

/**
 * Data, tensor, pipeline and expert parallel degrees. Ranks are numbered as Megatron-LM does:
 * tensor index fastest, then data, then pipeline: rank = p x (dp x tp) + d x tp + j, so a tensor
 * group is tp consecutive ranks (one server when tp <= GPUs per server). Expert parallelism is
 * carved out of data parallelism (Megatron-Core MoE): ep consecutive replicas form an
 * expert-parallel group, each holding experts / ep of every MoE layer's experts; the replicas at
 * the same position of every such block hold the same experts and all-reduce their gradients.
 */
public record Parallelism(int dp, int tp, int pp, int ep) {

    public Parallelism {
        if (dp < 1 || tp < 1 || pp < 1 || ep < 1) throw new IllegalArgumentException("dp, tp, pp and ep must be >= 1");
        if (dp % ep != 0) throw new IllegalArgumentException("ep (" + ep + ") must divide dp (" + dp + ")");
    }

    public Parallelism(int dp, int tp, int pp) {
        this(dp, tp, pp, 1);
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

    /** Ranks of expert-parallel block b (replicas b x ep .. b x ep + ep - 1) of stage p, tensor shard j. */
    public int[] expertGroup(int stage, int block, int tensorIndex) {
        int[] out = new int[ep];
        for (int e = 0; e < ep; e++) out[e] = rank(stage, block * ep + e, tensorIndex);
        return out;
    }

    /** Ranks holding the same experts as position e of every expert-parallel block (stage p, tensor shard j). */
    public int[] expertDataGroup(int stage, int position, int tensorIndex) {
        int[] out = new int[dp / ep];
        for (int b = 0; b < out.length; b++) out[b] = rank(stage, b * ep + position, tensorIndex);
        return out;
    }
}

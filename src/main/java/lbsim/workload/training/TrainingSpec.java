package lbsim.workload.training;

/**
 * One training iteration to generate. Build with {@link #builder}; see docs/collectives.md for
 * the defaults and the formulas they feed.
 *
 * @param model             model dimensions
 * @param parallelism       (DP, TP, PP); dp x tp x pp must equal the number of ranks
 * @param microBatch        samples per micro-batch per model replica
 * @param globalBatch       samples per iteration; a multiple of dp x microBatch
 * @param activationBytes   bytes per activation element (default 2: bf16)
 * @param gradBytesPerParam bytes per gradient element all-reduced (default 2: bf16)
 * @param bucketBytes       data-parallel gradient bucket (default 25 MiB, PyTorch DDP bucket_cap_mb)
 * @param gpuFlops          effective FLOP/s per GPU (default 150e12)
 * @param sequenceParallel  tensor parallel with sequence parallelism (all-gather + reduce-scatter)
 *                          or plain Megatron tensor parallel (all-reduce)
 * @param algorithm         collective algorithm for every collective (ring fallback, see AlgorithmChoice)
 * @param rankToHost        host (NIC) of each rank
 * @param options           NCCL knobs shared by all collectives
 * @param startPs           when the iteration starts
 */
public record TrainingSpec(ModelConfig model, Parallelism parallelism, int microBatch, int globalBatch, int activationBytes,
                           int gradBytesPerParam, long bucketBytes, double gpuFlops, boolean sequenceParallel,
                           String algorithm, int[] rankToHost, CollectiveOptions options, long startPs) {

    public static final long DEFAULT_BUCKET_BYTES = 25L << 20;
    public static final double DEFAULT_GPU_FLOPS = 150e12;

    public TrainingSpec {
        if (rankToHost.length != parallelism.gpus()) {
            throw new IllegalArgumentException("the model needs dp x tp x pp = " + parallelism.gpus() + " ranks but " + rankToHost.length + " are placed: set workload.ranks to " + parallelism.gpus() + " on a fabric with at least that many hosts");
        }
        if (microBatch < 1 || globalBatch % ((long) parallelism.dp() * microBatch) != 0 || globalBatch < 1) {
            throw new IllegalArgumentException("globalBatch (" + globalBatch + ") must be a positive multiple of dp x microBatch ("
                    + (long) parallelism.dp() * microBatch + ")");
        }
        if (model.layers() < parallelism.pp()) throw new IllegalArgumentException("fewer layers than pipeline stages");
        if (activationBytes < 1 || gradBytesPerParam < 1 || bucketBytes < 1 || !(gpuFlops > 0) || startPs < 0) {
            throw new IllegalArgumentException("byte sizes, bucket, FLOP rate must be positive and startPs >= 0");
        }
    }

    /** Micro-batches per iteration (gradient accumulation steps). */
    public int microBatches() {
        return globalBatch / (parallelism.dp() * microBatch);
    }

    /** Activation tensor of one micro-batch, b x s x h elements: the size of each tensor-parallel collective. */
    public long activationTensorBytes() {
        return (long) microBatch * model.seqLen() * model.hidden() * activationBytes;
    }

    public ComputeModel compute() {
        return new ComputeModel(model, microBatch, parallelism.tp(), gpuFlops);
    }

    public static Builder builder(ModelConfig model, Parallelism parallelism, int[] rankToHost) {
        return new Builder(model, parallelism, rankToHost);
    }

    /** Fluent builder holding the defaults. */
    public static final class Builder {
        private final ModelConfig model;
        private final Parallelism parallelism;
        private final int[] rankToHost;
        private int microBatch = 1;
        private int globalBatch = -1;
        private int activationBytes = 2;
        private int gradBytesPerParam = 2;
        private long bucketBytes = DEFAULT_BUCKET_BYTES;
        private double gpuFlops = DEFAULT_GPU_FLOPS;
        private boolean sequenceParallel = false;
        private String algorithm = "ring";
        private CollectiveOptions options = CollectiveOptions.defaults();
        private long startPs = 0;

        private Builder(ModelConfig model, Parallelism parallelism, int[] rankToHost) {
            this.model = model;
            this.parallelism = parallelism;
            this.rankToHost = rankToHost;
        }

        public Builder microBatch(int v) { microBatch = v; return this; }
        /** Default: dp x microBatch (one micro-batch per iteration). */
        public Builder globalBatch(int v) { globalBatch = v; return this; }
        public Builder activationBytes(int v) { activationBytes = v; return this; }
        public Builder gradBytesPerParam(int v) { gradBytesPerParam = v; return this; }
        public Builder bucketBytes(long v) { bucketBytes = v; return this; }
        public Builder gpuFlops(double v) { gpuFlops = v; return this; }
        public Builder sequenceParallel(boolean v) { sequenceParallel = v; return this; }
        public Builder algorithm(String v) { algorithm = v; return this; }
        public Builder options(CollectiveOptions v) { options = v; return this; }
        public Builder startPs(long v) { startPs = v; return this; }

        public TrainingSpec build() {
            int global = globalBatch > 0 ? globalBatch : parallelism.dp() * microBatch;
            return new TrainingSpec(model, parallelism, microBatch, global, activationBytes, gradBytesPerParam, bucketBytes,
                    gpuFlops, sequenceParallel, algorithm, rankToHost.clone(), options, startPs);
        }
    }
}

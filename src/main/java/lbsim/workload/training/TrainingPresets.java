package lbsim.workload.training;

/** The paper workloads, with the assumptions the papers leave open stated in docs/collectives.md. */
public final class TrainingPresets {
    private TrainingPresets() {}

    /**
     * Ethereal §4.1: one GPT-2 iteration, hybrid data-model parallel, local batch 4 per GPU,
     * global batch 4 x GPUs (1024 on the 256-GPU leaf-spine, 2048 on the 512-GPU fat-tree), the
     * same algorithm for AllGather, ReduceScatter and AllReduce. Assumed: GPT-2 124M, (DP, TP, PP)
     * = (GPUs/2, 2, 1) with sequence parallelism, micro-batch 4, so 2 micro-batches.
     */
    public static TrainingSpec etherealGpt2(int[] rankToHost, String algorithm) {
        int gpus = rankToHost.length;
        if (gpus % 2 != 0) throw new IllegalArgumentException("the GPT-2 preset needs an even number of GPUs");
        return TrainingSpec.builder(ModelConfig.gpt2(), new Parallelism(gpus / 2, 2, 1), rankToHost)
                .microBatch(4).globalBatch(4 * gpus).sequenceParallel(true).algorithm(algorithm).build();
    }

    /**
     * CTCCL §4.3: Llama2-7B, (DP, TP, PP) = (32, 2, 1) on 8 servers x 8 GPUs, global batch 32,
     * micro-batch 1, 8 QPs per connection, NCCL 2.19 (split data on QPs), L40S servers whose GPUs
     * talk over PCIe Gen4 (32 GB/s, §4.2). Megatron tensor parallel (all-reduce), DeepSpeed
     * gradient buckets of 5e8 elements.
     */
    public static TrainingSpec ctcclLlama2_7b(int[] rankToHost, String algorithm) {
        return TrainingSpec.builder(ModelConfig.llama2_7b(), new Parallelism(32, 2, 1), rankToHost)
                .microBatch(1).globalBatch(32).sequenceParallel(false).algorithm(algorithm)
                .bucketBytes(500_000_000L * 2)
                .options(CollectiveOptions.defaults().withQps(8).withIntraServerGBps(32))
                .build();
    }

    /**
     * Defaults of the current models (docs/models.md): pure data parallel for Llama 3 8B; tensor 8
     * x pipeline 2 for Llama 3 70B (too large for one GPU: 8-way tensor parallel inside a server as
     * Llama 3's own training, §3.3.2); expert parallel 8 for Mixtral (one expert per GPU). Sequence
     * length: Llama 3's pre-training context of 8192 (§3.4); 4096 for Mixtral (an lbsim assumption:
     * the paper gives its 32k context, not its training sequence length).
     */
    public record Defaults(int tp, int pp, int ep, int seqLen) {}

    public static Defaults defaults(String model) {
        return switch (model) {
            case "llama3-8b" -> new Defaults(1, 1, 1, 8192);
            case "llama3-70b" -> new Defaults(8, 2, 1, 8192);
            case "mixtral-8x7b" -> new Defaults(1, 1, 8, 4096);
            default -> throw new IllegalArgumentException("no defaults for model '" + model + "'");
        };
    }

    /** The shapes of a current model at sequence length {@code seqLen}. */
    public static ModelConfig model(String model, int seqLen) {
        return switch (model) {
            case "llama3-8b" -> ModelConfig.llama3_8b(seqLen);
            case "llama3-70b" -> ModelConfig.llama3_70b(seqLen);
            case "mixtral-8x7b" -> ModelConfig.mixtral8x7b(seqLen);
            default -> throw new IllegalArgumentException("unknown model '" + model + "'");
        };
    }
}

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
}

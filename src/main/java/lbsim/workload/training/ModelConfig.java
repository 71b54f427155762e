package lbsim.workload.training;

/**
 * Transformer dimensions that decide message sizes and compute. Parameters per layer are the
 * matrices only (layer norms and biases, under 0.1 %, are ignored): attention 4 h^2 (Q, K, V,
 * output), MLP mlpMatrices x h x ffnHidden (2 for GPT-2's GELU MLP, 3 for Llama's SwiGLU).
 *
 * @param layers           transformer blocks
 * @param hidden           model width h
 * @param ffnHidden        MLP inner width f
 * @param mlpMatrices      weight matrices of h x f in the MLP
 * @param vocab            vocabulary V
 * @param seqLen           sequence length s
 * @param tiedEmbeddings   output head shares the input embedding (GPT-2) or not (Llama)
 * @param learnedPositions a learned s x h position table (GPT-2) or rotary (Llama: none)
 */
public record ModelConfig(String name, int layers, int hidden, int ffnHidden, int mlpMatrices, int vocab, int seqLen,
                          boolean tiedEmbeddings, boolean learnedPositions) {

    public ModelConfig {
        if (layers < 1 || hidden < 1 || ffnHidden < 1 || mlpMatrices < 1 || vocab < 1 || seqLen < 1) {
            throw new IllegalArgumentException("model dimensions must be >= 1");
        }
    }

    /** GPT-2 (124M, HuggingFace "gpt2"): 12 layers, h 768, s 1024, V 50257. */
    public static ModelConfig gpt2() {
        return gpt2("gpt2", 12, 768);
    }

    public static ModelConfig gpt2Medium() {
        return gpt2("gpt2-medium", 24, 1024);
    }

    public static ModelConfig gpt2Large() {
        return gpt2("gpt2-large", 36, 1280);
    }

    /** GPT-2 1.5B: 48 layers, h 1600. */
    public static ModelConfig gpt2Xl() {
        return gpt2("gpt2-xl", 48, 1600);
    }

    private static ModelConfig gpt2(String name, int layers, int hidden) {
        return new ModelConfig(name, layers, hidden, 4 * hidden, 2, 50257, 1024, true, true);
    }

    /** Llama 2 7B (CTCCL §4.3): 32 layers, h 4096, SwiGLU f 11008, V 32000, s 4096, untied head. */
    public static ModelConfig llama2_7b() {
        return new ModelConfig("llama2-7b", 32, 4096, 11008, 3, 32000, 4096, false, false);
    }

    public long attentionParamsPerLayer() {
        return 4L * hidden * hidden;
    }

    public long mlpParamsPerLayer() {
        return (long) mlpMatrices * hidden * ffnHidden;
    }

    public long paramsPerLayer() {
        return attentionParamsPerLayer() + mlpParamsPerLayer();
    }

    /** Input embedding plus learned positions (held by the first pipeline stage). */
    public long embeddingParams() {
        return (long) vocab * hidden + (learnedPositions ? (long) seqLen * hidden : 0);
    }

    /** Separate output head (held by the last stage); 0 when tied to the embedding. */
    public long headParams() {
        return tiedEmbeddings ? 0 : (long) vocab * hidden;
    }

    public long totalParams() {
        return layers * paramsPerLayer() + embeddingParams() + headParams();
    }
}

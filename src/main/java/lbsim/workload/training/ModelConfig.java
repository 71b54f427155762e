package lbsim.workload.training;

/**
 * Transformer dimensions that decide message sizes and compute. Parameters per layer are the
 * matrices only (layer norms and biases, under 0.1 %, are ignored): attention Q and output h x h
 * each, K and V h x (kvHeads x h / heads) each (grouped-query attention; 4 h^2 when kvHeads =
 * heads), MLP mlpMatrices x h x ffnHidden per expert (2 for GPT-2's GELU MLP, 3 for SwiGLU), and
 * for a mixture of experts a router of h x experts.
 *
 * @param layers           transformer blocks
 * @param hidden           model width h
 * @param ffnHidden        MLP inner width f (of each expert)
 * @param mlpMatrices      weight matrices of h x f in the MLP
 * @param vocab            vocabulary V
 * @param seqLen           sequence length s
 * @param tiedEmbeddings   output head shares the input embedding (GPT-2) or not (Llama)
 * @param learnedPositions a learned s x h position table (GPT-2) or rotary (Llama: none)
 * @param heads            attention (query) heads
 * @param kvHeads          key/value heads (grouped-query attention; = heads for multi-head attention)
 * @param experts          MLP experts per layer (1: a dense model)
 * @param topK             experts each token is routed to
 */
public record ModelConfig(String name, int layers, int hidden, int ffnHidden, int mlpMatrices, int vocab, int seqLen,
                          boolean tiedEmbeddings, boolean learnedPositions, int heads, int kvHeads, int experts, int topK) {

    public ModelConfig {
        if (layers < 1 || hidden < 1 || ffnHidden < 1 || mlpMatrices < 1 || vocab < 1 || seqLen < 1) {
            throw new IllegalArgumentException("model dimensions must be >= 1");
        }
        if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0 || hidden % heads != 0) {
            throw new IllegalArgumentException("heads must divide hidden and kvHeads must divide heads");
        }
        if (experts < 1 || topK < 1 || topK > experts) throw new IllegalArgumentException("need 1 <= topK <= experts");
    }

    /** A dense model with multi-head attention. */
    public ModelConfig(String name, int layers, int hidden, int ffnHidden, int mlpMatrices, int vocab, int seqLen,
                       boolean tiedEmbeddings, boolean learnedPositions) {
        this(name, layers, hidden, ffnHidden, mlpMatrices, vocab, seqLen, tiedEmbeddings, learnedPositions, 1, 1, 1, 1);
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

    /**
     * Llama 3 8B (Dubey et al., "The Llama 3 Herd of Models", 2024, Table 3; Meta's model card):
     * 32 layers, h 4096, 32 heads, 8 KV heads, SwiGLU f 14336, V 128256, untied head; s 8192 (§3.4 pre-training context).
     */
    public static ModelConfig llama3_8b(int seqLen) {
        return new ModelConfig("llama3-8b", 32, 4096, 14336, 3, 128256, seqLen, false, false, 32, 8, 1, 1);
    }

    /** Llama 3 70B (same sources): 80 layers, h 8192, 64 heads, 8 KV heads, f 28672, V 128256. */
    public static ModelConfig llama3_70b(int seqLen) {
        return new ModelConfig("llama3-70b", 80, 8192, 28672, 3, 128256, seqLen, false, false, 64, 8, 1, 1);
    }

    /**
     * Mixtral 8x7B (Jiang et al., "Mixtral of Experts", 2024, Table 1): 32 layers, h 4096, 32 heads,
     * 8 KV heads, 8 SwiGLU experts of f 14336 with top-2 routing, V 32000, untied head.
     */
    public static ModelConfig mixtral8x7b(int seqLen) {
        return new ModelConfig("mixtral-8x7b", 32, 4096, 14336, 3, 32000, seqLen, false, false, 32, 8, 8, 2);
    }

    public boolean isMixtureOfExperts() {
        return experts > 1;
    }

    public long attentionParamsPerLayer() {
        long kv = (long) hidden / heads * kvHeads;
        return 2L * hidden * hidden + 2L * hidden * kv;
    }

    /** One expert's MLP (the dense MLP when experts = 1). */
    public long expertParams() {
        return (long) mlpMatrices * hidden * ffnHidden;
    }

    /** The router of a mixture of experts (h x experts); 0 for a dense model. */
    public long routerParamsPerLayer() {
        return experts > 1 ? (long) hidden * experts : 0;
    }

    /** Every MLP parameter of a layer: all experts and the router. */
    public long mlpParamsPerLayer() {
        return experts * expertParams() + routerParamsPerLayer();
    }

    /** MLP parameters a token passes through: its topK experts and the router (FLOPs per token are twice this). */
    public long activeMlpParamsPerLayer() {
        return topK * expertParams() + routerParamsPerLayer();
    }

    public long paramsPerLayer() {
        return attentionParamsPerLayer() + mlpParamsPerLayer();
    }

    /** Parameters every data-parallel rank holds whole: all but the experts of a mixture of experts. */
    public long denseParamsPerLayer() {
        return experts > 1 ? attentionParamsPerLayer() + routerParamsPerLayer() : paramsPerLayer();
    }

    /** Expert parameters of a layer (0 for a dense model), split over the expert-parallel group. */
    public long expertParamsPerLayer() {
        return experts > 1 ? experts * expertParams() : 0;
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

package lbsim.workload.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lbsim.transport.FlowSpec;
import lbsim.workload.FlowGraph;
import lbsim.workload.collective.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Llama 3 8B / 70B and Mixtral 8x7B: parameter counts against the published totals, and one
 * iteration's communication volume per collective kind against counts worked out here from the
 * published shapes (not from ModelConfig's formulas).
 */
class CurrentModelsTest {

    /** Published shapes (model cards / papers) and the published parameter total (HF safetensors count, norms included). */
    record Published(String name, int layers, long h, long heads, long kvHeads, long ffn, long vocab, long experts, long topK, long total) {
        /** Matrices only, from the shapes: Q, O h x h; K, V h x (h / heads x kvHeads); experts x 3 (SwiGLU) x h x ffn; router h x experts; embedding and head V x h. */
        long matrices() {
            long kv = h / heads * kvHeads;
            long perLayer = 2 * h * h + 2 * h * kv + experts * 3 * h * ffn + (experts > 1 ? h * experts : 0);
            return layers * perLayer + 2 * vocab * h;
        }

        /** RMSNorm weights: two per layer and a final one, h each (the only parameters lbsim leaves out). */
        long norms() {
            return (2L * layers + 1) * h;
        }
    }

    static final Published LLAMA3_8B = new Published("llama3-8b", 32, 4096, 32, 8, 14336, 128256, 1, 1, 8_030_261_248L);
    static final Published LLAMA3_70B = new Published("llama3-70b", 80, 8192, 64, 8, 28672, 128256, 1, 1, 70_553_706_496L);
    static final Published MIXTRAL = new Published("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 8, 2, 46_702_792_704L);

    static Published published(String name) {
        return switch (name) {
            case "llama3-8b" -> LLAMA3_8B;
            case "llama3-70b" -> LLAMA3_70B;
            default -> MIXTRAL;
        };
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"llama3-8b", "llama3-70b", "mixtral-8x7b"})
    void parameterCountsMatchThePublishedTotals(String name) {
        Published p = published(name);
        ModelConfig m = TrainingPresets.model(name, 4096);
        assertThat(m.totalParams()).isEqualTo(p.matrices());
        assertThat(m.totalParams() + p.norms()).isEqualTo(p.total());
    }

    /**
     * Per iteration (dp replicas, M micro-batches, activation A = b s h x 2 bytes), per collective kind:
     * tensor all-reduce: 4 per layer per micro-batch per replica (2 forward, 2 backward), S = A each;
     * with sequence parallelism 8 all-gathers/reduce-scatters instead; pipeline: (pp - 1) boundaries
     * x M x dp transfers each way, A in all (A / tp per tensor rank); expert all-to-all: 4 per layer
     * per micro-batch per expert block and tensor rank, each S = A x topK per rank, of which each rank
     * sends (ep - 1) / ep over the fabric; gradients: 2 bytes per parameter, the experts' over their
     * expert-data-parallel groups (ep-grad) and the rest over the data-parallel groups (dp-grad).
     */
    @ParameterizedTest(name = "{0} tp {1} pp {2} ep {3} dp {4} M {5} sp {6}")
    @CsvSource({
            "llama3-8b, 1, 1, 1, 8, 1, false",
            "llama3-8b, 2, 2, 1, 2, 3, true",
            "llama3-70b, 8, 2, 1, 2, 2, false",
            "mixtral-8x7b, 1, 1, 8, 8, 1, false",
            "mixtral-8x7b, 2, 2, 4, 8, 2, false",
            "mixtral-8x7b, 2, 1, 2, 4, 1, true",
    })
    void iterationVolumePerCollectiveMatchesTheShapes(String name, int tp, int pp, int ep, int dp, int micro, boolean sp) {
        Published p = published(name);
        int seq = 128;
        int b = 2;
        ModelConfig m = TrainingPresets.model(name, seq);
        Parallelism par = new Parallelism(dp, tp, pp, ep);
        TrainingSpec spec = TrainingSpec.builder(m, par, Placement.contiguous(par.gpus())).microBatch(b).globalBatch(dp * b * micro)
                .sequenceParallel(sp).bucketBytes(1L << 30).build();
        FlowGraph g = new FlowGraph();
        Iteration it = IterationGenerator.append(g, spec);

        long a = (long) b * seq * p.h() * 2;
        long tensorOps = tp == 1 ? 0 : (sp ? 8L : 4L) * dp * micro * p.layers();
        for (String phase : List.of("tp-fwd", "tp-bwd")) {
            assertThat(it.phase(phase)).hasSize((int) (tensorOps / 2)).allSatisfy(c -> {
                assertThat(c.sizeBytes()).isEqualTo(a);
                assertThat(c.ranks()).hasSize(tp);
                assertThat(c.op()).isIn(sp ? List.of("all-gather", "reduce-scatter") : List.of("all-reduce"));
            });
            assertThat(it.phase(phase).stream().filter(c -> c.op().equals("all-gather")).count()).isEqualTo(sp ? tensorOps / 4 : 0);
        }
        for (String phase : List.of("pp-fwd", "pp-bwd")) {
            assertThat(it.phase(phase)).hasSize((pp - 1) * micro * dp);
            assertThat(it.phase(phase).stream().mapToLong(c -> flowBytes(g, c)).sum()).isEqualTo((long) (pp - 1) * micro * dp * a);
        }
        boolean moe = p.experts() > 1 && ep > 1;
        long exchanges = moe ? 2L * (dp / ep) * tp * micro * p.layers() : 0;
        for (String phase : List.of("ep-fwd", "ep-bwd")) {
            assertThat(it.phase(phase)).hasSize((int) exchanges).allSatisfy(c -> {
                assertThat(c.op()).isEqualTo("all-to-all");
                assertThat(c.sizeBytes()).isEqualTo(a * p.topK());
                assertThat(c.ranks()).hasSize(ep);
                // ep ranks each send (ep - 1) / ep of their buffer; the rest stays on the GPU
                assertThat(flowBytes(g, c)).isEqualTo((long) (ep - 1) * a * p.topK());
            });
        }
        long expertParams = p.layers() * p.experts() * 3 * p.h() * p.ffn();
        boolean expertGroups = p.experts() > 1 && dp / ep > 1;
        assertThat(it.bytes("ep-grad")).isEqualTo(expertGroups ? 2 * expertParams : 0);
        long denseParams = p.matrices() - (p.experts() > 1 ? expertParams : 0);
        assertThat(it.bytes("dp-grad")).isEqualTo(dp == 1 ? 0 : 2 * denseParams);
        assertThat(it.phase("dp-grad")).allSatisfy(c -> assertThat(c.ranks()).hasSize(dp));
        assertThat(it.phase("ep-grad")).allSatisfy(c -> assertThat(c.ranks()).hasSize(dp / ep));
        for (FlowSpec f : g.flows()) for (int d : f.after()) assertThat(d).isLessThan(f.id());
    }

    private static long flowBytes(FlowGraph g, CollectiveRecord c) {
        long sum = 0;
        for (int id = c.handle().firstFlow(); id < c.handle().endFlow(); id++) sum += g.flows().get(id).sizeBytes();
        return sum;
    }
}

package lbsim.workload.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.collective.AlgorithmChoice;
import lbsim.workload.collective.ByteSplit;
import lbsim.workload.collective.Placement;
import org.junit.jupiter.api.Test;

/** Op sequences, sizes, totals and chaining of generated training iterations. */
class IterationGeneratorTest {

    @Test
    void gpt2PresetHasTheDocumentedSequenceAndSizes() {
        FlowGraph g = new FlowGraph();
        TrainingSpec spec = TrainingPresets.etherealGpt2(Placement.contiguous(256), "ring");
        Iteration it = IterationGenerator.append(g, spec);
        long activation = 4L * 1024 * 768 * 2;
        assertThat(it.microBatches()).isEqualTo(2);
        assertThat(it.phase("tp-fwd")).hasSize(128 * 2 * 12 * 4).allSatisfy(c -> assertThat(c.sizeBytes()).isEqualTo(activation));
        assertThat(it.phase("tp-bwd")).hasSize(128 * 2 * 12 * 4);
        List<String> replica0mb0 = it.collectives().stream()
                .filter(c -> c.phase().equals("tp-fwd") && c.index() == 0 && c.microBatch() == 0 && c.layer() == 0)
                .map(CollectiveRecord::op).toList();
        assertThat(replica0mb0).containsExactly("all-gather", "reduce-scatter", "all-gather", "reduce-scatter");
        assertThat(it.bytes("dp-grad")).isEqualTo(ModelConfig.gpt2().totalParams() * 2);
        assertThat(it.phase("dp-grad")).allSatisfy(c -> {
            assertThat(c.op()).isEqualTo("all-reduce");
            assertThat(c.ranks()).hasSize(128);
        });
        assertThat(it.phase("pp-fwd")).isEmpty();
        assertWellFormed(g);
    }

    @Test
    void llamaPresetUsesTensorAllReduceAndKeepsNicSharingPairsOffTheFabric() {
        FlowGraph g = new FlowGraph();
        int[] hosts = Placement.railOptimisedGrouped(8, 8, 2, 16);
        TrainingSpec spec = TrainingPresets.ctcclLlama2_7b(hosts, "ring");
        Iteration it = IterationGenerator.append(g, spec);
        assertThat(spec.microBatches()).isEqualTo(1);
        assertThat(it.phase("tp-fwd")).hasSize(32 * 32 * 2).allSatisfy(c -> {
            assertThat(c.op()).isEqualTo("all-reduce");
            assertThat(c.sizeBytes()).isEqualTo(4096L * 4096 * 2);
            assertThat(c.handle().flowCount()).as("TP pair shares one NIC: PCIe, not fabric").isZero();
        });
        assertThat(it.bytes("dp-grad")).isEqualTo(ModelConfig.llama2_7b().totalParams() * 2);
        assertThat(it.phase("dp-grad")).allSatisfy(c -> assertThat(c.sizeBytes()).isLessThanOrEqualTo(1_000_000_000L));
        assertThat(g.flows()).allSatisfy(f -> assertThat(f.qps()).isEqualTo(8));
        assertWellFormed(g);
    }

    @Test
    void gradientBytesPerGpuAreStageParametersOverTensorDegree() {
        qt().withExamples(25).forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 4), integers().between(1, 3))
                .checkAssert((dp, tp, pp, mb) -> {
                    ModelConfig model = new ModelConfig("tiny", 6, 64, 256, 2, 1000, 32, false, true);
                    Parallelism par = new Parallelism(dp + 1, tp, pp);
                    FlowGraph g = new FlowGraph();
                    TrainingSpec spec = TrainingSpec.builder(model, par, Placement.contiguous(par.gpus()))
                            .microBatch(1).globalBatch(par.dp() * mb).bucketBytes(20_000).sequenceParallel(tp % 2 == 0).build();
                    Iteration it = IterationGenerator.append(g, spec);
                    assertThat(it.bytes("dp-grad")).isEqualTo(model.totalParams() * 2);
                    long[] perRank = new long[par.gpus()];
                    for (CollectiveRecord c : it.phase("dp-grad")) for (int r : c.ranks()) perRank[r] += c.sizeBytes();
                    for (int p = 0; p < pp; p++) {
                        long stageParams = model.paramsPerLayer() * ByteSplit.part(model.layers(), pp, p)
                                + (p == 0 ? model.embeddingParams() : 0) + (p == pp - 1 ? model.headParams() : 0);
                        for (int d = 0; d < par.dp(); d++) {
                            for (int j = 0; j < tp; j++) {
                                assertThat(perRank[par.rank(p, d, j)]).isEqualTo(ByteSplit.part(stageParams * 2, tp, j));
                            }
                        }
                    }
                    for (CollectiveRecord c : it.phase("dp-grad")) {
                        boolean last = it.phase("dp-grad").stream().noneMatch(o -> o.stage() == c.stage() && o.index() == c.index() && o.layer() > c.layer());
                        if (!last) assertThat(c.sizeBytes()).isEqualTo(20_000);
                    }
                    int tensorOps = tp == 1 ? 0 : 2 * mb * model.layers() * par.dp() * (tp % 2 == 0 ? 4 : 2);
                    assertThat(it.phase("tp-fwd").size() + it.phase("tp-bwd").size()).isEqualTo(tensorOps);
                    assertThat(it.phase("pp-fwd")).hasSize(mb * par.dp() * (pp - 1));
                    assertThat(it.phase("pp-bwd")).hasSize(mb * par.dp() * (pp - 1));
                    assertWellFormed(g);
                });
    }

    @Test
    void tensorCollectivesChainWithComputeGaps() {
        FlowGraph g = new FlowGraph();
        TrainingSpec spec = TrainingSpec.builder(ModelConfig.gpt2(), new Parallelism(2, 4, 1), Placement.contiguous(8))
                .microBatch(2).sequenceParallel(true).build();
        Iteration it = IterationGenerator.append(g, spec);
        List<CollectiveRecord> chain = it.collectives().stream().filter(c -> c.phase().startsWith("tp") && c.index() == 1).toList();
        ComputeModel cm = spec.compute();
        long[] fwdGaps = {0, cm.attentionForwardPs(), 0, cm.mlpForwardPs()};
        for (int i = 1; i < chain.size(); i++) {
            CollectiveRecord prev = chain.get(i - 1);
            CollectiveRecord next = chain.get(i);
            long expected;
            if (next.phase().equals("tp-fwd")) expected = fwdGaps[i % 4];
            else if (prev.phase().equals("tp-fwd")) expected = cm.logitsForwardPs() + cm.logitsBackwardPs();
            else expected = new long[] {0, cm.mlpBackwardPs(), 0, cm.attentionBackwardPs()}[i % 4];
            for (FlowSpec f : g.flows().subList(next.handle().firstFlow(), next.handle().endFlow())) {
                if (f.after().length == 0 || f.after()[0] >= next.handle().firstFlow()) continue;
                assertThat(f.after()).as("collective %d waits for %d", i, i - 1).containsExactlyInAnyOrder(prev.handle().lastFlows());
                assertThat(f.gapPs()).isEqualTo(expected);
            }
        }
        assertThat(chain.get(0).handle().flowCount()).isPositive();
    }

    @Test
    void pureDataParallelBucketWaitsForTheWholeBackwardPass() {
        FlowGraph g = new FlowGraph();
        ModelConfig model = ModelConfig.gpt2();
        TrainingSpec spec = TrainingSpec.builder(model, new Parallelism(4, 1, 1), Placement.contiguous(4))
                .microBatch(1).bucketBytes(1L << 40).build();
        Iteration it = IterationGenerator.append(g, spec);
        assertThat(it.collectives()).hasSize(1);
        ComputeModel c = spec.compute();
        long expected = model.layers() * (c.attentionForwardPs() + c.mlpForwardPs()) + c.logitsForwardPs()
                + c.logitsBackwardPs() + model.layers() * (c.attentionBackwardPs() + c.mlpBackwardPs());
        CollectiveRecord ar = it.collectives().get(0);
        FlowSpec first = g.flows().get(ar.handle().firstFlow());
        assertThat(first.after()).isEmpty();
        assertThat(first.startPs()).isEqualTo(expected);
    }

    @Test
    void earlyBucketsOverlapTheBackwardPass() {
        FlowGraph g = new FlowGraph();
        ModelConfig model = ModelConfig.gpt2();
        TrainingSpec spec = TrainingSpec.builder(model, new Parallelism(2, 2, 1), Placement.contiguous(4)).microBatch(1).build();
        Iteration it = IterationGenerator.append(g, spec);
        long perGpu = model.totalParams() * 2 / 2;
        int layersInFirstBucket = 1;
        while ((double) layersInFirstBucket * model.paramsPerLayer() / model.totalParams() < (double) spec.bucketBytes() / perGpu) {
            layersInFirstBucket++;
        }
        int readyLayer = model.layers() - layersInFirstBucket;
        assertThat(readyLayer).as("25 MiB of bf16 gradients span several GPT-2 layers").isBetween(1, model.layers() - 2);
        CollectiveRecord bucket0 = it.phase("dp-grad").get(0);
        Set<Integer> deps = new HashSet<>();
        for (FlowSpec f : g.flows().subList(bucket0.handle().firstFlow(), bucket0.handle().endFlow())) for (int d : f.after()) deps.add(d);
        for (int replica = 0; replica < 2; replica++) {
            int r = replica;
            CollectiveRecord layerDone = it.phase("tp-bwd").stream().filter(c -> c.layer() == readyLayer && c.index() == r)
                    .reduce((a, b) -> b).orElseThrow();
            for (int id : layerDone.handle().lastFlows()) assertThat(deps).contains(id);
            CollectiveRecord firstLayer = it.phase("tp-bwd").stream().filter(c -> c.layer() == 0 && c.index() == r)
                    .reduce((a, b) -> b).orElseThrow();
            assertThat(bucket0.handle().firstFlow()).as("bucket 0 is emitted after the whole backward").isGreaterThan(firstLayer.handle().firstFlow());
            assertThat(deps).doesNotContainAnyElementsOf(toSet(firstLayer.handle().lastFlows()));
        }
        CollectiveRecord lastBucket = it.phase("dp-grad").get(it.phase("dp-grad").size() - 1);
        assertThat(lastBucket.sizeBytes()).isEqualTo(perGpu - (it.phase("dp-grad").size() / 2 - 1) * spec.bucketBytes());
    }

    @Test
    void pipelineTransfersCarryActivationShardsBetweenStages() {
        FlowGraph g = new FlowGraph();
        TrainingSpec spec = TrainingSpec.builder(ModelConfig.gpt2(), new Parallelism(1, 2, 2), Placement.contiguous(4))
                .microBatch(2).globalBatch(4).build();
        Iteration it = IterationGenerator.append(g, spec);
        long shard = spec.activationTensorBytes() / 2;
        assertThat(it.phase("pp-fwd")).hasSize(2).allSatisfy(c -> {
            assertThat(c.ranks()).containsExactly(0, 2, 1, 3);
            List<FlowSpec> flows = g.flows().subList(c.handle().firstFlow(), c.handle().endFlow());
            assertThat(flows).extracting(FlowSpec::sizeBytes).containsOnly(shard);
            assertThat(flows).extracting(FlowSpec::src).containsExactly(0, 1);
        });
        assertThat(it.phase("pp-bwd")).allSatisfy(c -> assertThat(c.ranks()).containsExactly(2, 0, 3, 1));
        CollectiveRecord firstStage1 = it.collectives().stream().filter(c -> c.phase().equals("tp-fwd") && c.stage() == 1).findFirst().orElseThrow();
        CollectiveRecord send = it.phase("pp-fwd").get(0);
        FlowSpec f = g.flows().get(firstStage1.handle().firstFlow());
        assertThat(toSet(f.after())).containsAll(toSet(send.handle().lastFlows()));
    }

    @Test
    void algorithmFallsBackToRingWhereItCannotRun() {
        assertThat(AlgorithmChoice.resolve("double-binary-tree", "all-gather", 8, 8)).isEqualTo("ring");
        assertThat(AlgorithmChoice.resolve("double-binary-tree", "all-reduce", 8, 8)).isEqualTo("double-binary-tree");
        assertThat(AlgorithmChoice.resolve("recursive-doubling", "reduce-scatter", 6, 8)).isEqualTo("ring");
        assertThat(AlgorithmChoice.resolve("recursive-doubling", "all-reduce", 6, 8)).isEqualTo("recursive-doubling");
        assertThat(AlgorithmChoice.resolve("hierarchical", "all-reduce", 8, 8)).isEqualTo("ring");
        assertThat(AlgorithmChoice.resolve("hierarchical", "all-reduce", 16, 8)).isEqualTo("hierarchical");
        // ring does not run all-to-all: NCCL's all-to-all is point-to-point
        assertThat(AlgorithmChoice.resolve("ring", "all-to-all", 8, 8)).isEqualTo("direct");
        assertThat(AlgorithmChoice.resolve("double-binary-tree", "all-to-all", 8, 8)).isEqualTo("direct");
        assertThatThrownBy(() -> AlgorithmChoice.resolve("tree", "all-reduce", 8, 8)).hasMessageContaining("allowed");
    }

    @Test
    void hierarchicalDataParallelGroupsUseTheGpusTheyHavePerServer() {
        Parallelism par = new Parallelism(8, 2, 1);
        assertThat(AlgorithmChoice.ranksPerServerOf(par.dataGroup(0, 1), 8)).isEqualTo(4);
        assertThat(AlgorithmChoice.ranksPerServerOf(par.tensorGroup(0, 3), 8)).isEqualTo(2);
        assertThat(AlgorithmChoice.ranksPerServerOf(new int[] {0, 1, 8, 2}, 8)).isEqualTo(4);
        FlowGraph g = new FlowGraph();
        TrainingSpec spec = TrainingSpec.builder(ModelConfig.gpt2(), par, Placement.contiguous(16))
                .algorithm("hierarchical").bucketBytes(1L << 40).build();
        Iteration it = IterationGenerator.append(g, spec);
        CollectiveRecord bucket = it.phase("dp-grad").get(0);
        assertThat(bucket.algorithm()).isEqualTo("hierarchical");
        for (FlowSpec f : g.flows().subList(bucket.handle().firstFlow(), bucket.handle().endFlow())) {
            assertThat(f.src() / 8).as("inter-server phase crosses servers").isNotEqualTo(f.dst() / 8);
        }
        assertThat(it.phase("tp-fwd")).allSatisfy(c -> assertThat(c.algorithm()).isEqualTo("ring"));
    }

    @Test
    void badSpecsAreRefused() {
        assertThatThrownBy(() -> TrainingSpec.builder(ModelConfig.gpt2(), new Parallelism(4, 2, 1), Placement.contiguous(6)).build())
                .hasMessageContaining("dp x tp x pp");
        assertThatThrownBy(() -> TrainingSpec.builder(ModelConfig.gpt2(), new Parallelism(4, 1, 1), Placement.contiguous(4))
                .microBatch(3).globalBatch(20).build()).hasMessageContaining("multiple of dp x microBatch");
    }

    private static void assertWellFormed(FlowGraph g) {
        for (FlowSpec f : g.flows()) {
            assertThat(f.src()).isNotEqualTo(f.dst());
            for (int d : f.after()) assertThat(d).isLessThan(f.id());
        }
    }

    private static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new HashSet<>();
        for (int x : a) s.add(x);
        return s;
    }
}

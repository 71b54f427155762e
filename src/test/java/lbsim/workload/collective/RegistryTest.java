package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lbsim.workload.FlowGraph;
import org.junit.jupiter.api.Test;

/** Names, the op x algorithm matrix and refusal messages. */
class RegistryTest {

    @Test
    void scenarioNamesAreExactlyTheContractOnes() {
        assertThat(Collectives.OPS).containsExactly("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast", "reduce", "send-recv");
        assertThat(Collectives.ALGORITHMS).containsExactly("ring", "double-binary-tree", "halving-doubling", "recursive-doubling", "direct", "hierarchical");
    }

    @Test
    void matrixIsAsDocumented() {
        assertThat(Collectives.algorithmsFor("all-reduce")).containsExactlyElementsOf(Collectives.ALGORITHMS);
        assertThat(Collectives.algorithmsFor("reduce-scatter")).containsExactly("ring", "halving-doubling", "recursive-doubling", "direct", "hierarchical");
        assertThat(Collectives.algorithmsFor("all-gather")).containsExactly("ring", "halving-doubling", "recursive-doubling", "direct", "hierarchical");
        assertThat(Collectives.algorithmsFor("all-to-all")).containsExactly("direct");
        assertThat(Collectives.algorithmsFor("broadcast")).containsExactly("ring", "direct");
        assertThat(Collectives.algorithmsFor("reduce")).containsExactly("ring", "direct");
        assertThat(Collectives.algorithmsFor("send-recv")).containsExactly("direct");
    }

    @Test
    void unsupportedPairsAreRefusedListingTheAllowedAlgorithms() {
        for (String op : Collectives.OPS) {
            for (String alg : Collectives.ALGORITHMS) {
                if (Collectives.supports(op, alg)) continue;
                FlowGraph g = new FlowGraph();
                CollectiveSpec spec = CollectiveSpec.builder(op, alg, 1000, Placement.contiguous(4)).build();
                var thrown = assertThatThrownBy(() -> Collectives.append(g, spec)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("allowed algorithms for " + op);
                for (String ok : Collectives.algorithmsFor(op)) thrown.hasMessageContaining(ok);
                assertThat(g.groups()).isEmpty();
            }
        }
    }

    @Test
    void unknownNamesAndBadParametersAreRefused() {
        FlowGraph g = new FlowGraph();
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("allreduce", "ring", 1, new int[] {0, 1}).build()))
                .hasMessageContaining("allowed: all-reduce");
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("all-reduce", "tree", 1, new int[] {0, 1}).build()))
                .hasMessageContaining("double-binary-tree");
        assertThatThrownBy(() -> CollectiveSpec.builder("all-reduce", "ring", 0, new int[] {0, 1}).build()).hasMessageContaining("sizeBytes");
        assertThatThrownBy(() -> CollectiveSpec.builder("all-reduce", "ring", 1, new int[] {0}).build()).hasMessageContaining("2 ranks");
        assertThatThrownBy(() -> CollectiveSpec.builder("all-reduce", "ring", 1, new int[] {0, 1}).qpsPerConnection(129).build())
                .hasMessageContaining("1..128");
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("all-reduce", "hierarchical", 100, Placement.contiguous(6))
                .ranksPerServer(4).build())).hasMessageContaining("multiple of ranksPerServer");
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("all-reduce", "hierarchical", 100, Placement.contiguous(4))
                .ranksPerServer(4).build())).hasMessageContaining("at least 2 servers");
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("all-gather", "hierarchical", 100, Placement.contiguous(8))
                .ranksPerServer(2).innerAlgorithm("double-binary-tree").build())).hasMessageContaining("allowed algorithms for all-gather");
        assertThatThrownBy(() -> Collectives.append(g, CollectiveSpec.builder("all-reduce", "ring", 100, Placement.contiguous(4))
                .after(new int[] {0}).build())).hasMessageContaining("dependency 0");
        assertThat(g.size()).isZero();
    }

    @Test
    void groupNameDefaultsToOpAlgorithmSizeAndRanks() {
        FlowGraph g = new FlowGraph();
        int group = Collectives.append(g, CollectiveSpec.builder("all-reduce", "ring", 1024, Placement.contiguous(4)).build());
        int named = Collectives.append(g, CollectiveSpec.builder("all-reduce", "ring", 1024, Placement.contiguous(4)).label("grad bucket 3").build());
        assertThat(g.groups().get(group)).isEqualTo("all-reduce ring 1024B x4");
        assertThat(g.groups().get(named)).isEqualTo("grad bucket 3");
    }

    @Test
    void ncclLikeDefaultPipelinePieceIsOneMebibyteForRing() {
        FlowGraph g = new FlowGraph();
        CollectiveHandle h = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", 64L << 20, Placement.contiguous(8)).build());
        assertThat(GraphChecks.flowsOf(g, h)).allSatisfy(f -> assertThat(f.sizeBytes()).isEqualTo(1L << 20));
        assertThat(h.flowCount()).isEqualTo(8 * 14 * 8);
        CollectiveHandle rd = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "recursive-doubling", 64L << 20, Placement.contiguous(8)).build());
        assertThat(rd.flowCount()).as("not pipelined: one flow per rank and step").isEqualTo(8 * 6);
    }
}

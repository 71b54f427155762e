package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.workload.FlowGraph;
import org.junit.jupiter.api.Test;

/** workload.model llama3-8b, llama3-70b and mixtral-8x7b from a scenario: their keys, defaults and refusals. */
class ModelScenarioTest {
    static final String TOPOLOGY = "topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 8}\n";

    static FlowGraph build(String workload) {
        Scenario sc = Scenarios.parse(TOPOLOGY + "workload: " + workload + "\n");
        return sc.workload().build(32, new SplittableRandom(1));
    }

    @Test
    void eachModelBuildsAnIterationOnTheFabric() {
        FlowGraph llama = build("{kind: training, model: llama3-8b, seq_len: 64, ranks: 8}");
        // pure data parallel by default: only gradient all-reduces, over all 8 ranks
        assertThat(llama.groups()).allSatisfy(n -> assertThat(n).startsWith("dp-grad all-reduce"));
        long bytes = llama.flows().stream().mapToLong(f -> f.sizeBytes()).sum();
        // ring all-reduce: each of 8 ranks sends 2 x 7/8 of the 2-byte gradients
        assertThat((double) bytes).isCloseTo(8 * 2 * 7 / 8.0 * 2 * 8_029_995_008L, org.assertj.core.api.Assertions.within(64.0));

        // tensor 8 x pipeline 2 by default: one replica, so no gradient all-reduce
        FlowGraph big = build("{kind: training, model: llama3-70b, seq_len: 32, ranks: 16}");
        assertThat(big.flows()).anySatisfy(f -> assertThat(f.label()).startsWith("pp-fwd stage 0>1"));
        assertThat(big.groups()).noneSatisfy(n -> assertThat(n).startsWith("dp-grad"));
        FlowGraph moe = build("{kind: training, model: mixtral-8x7b, seq_len: 32, ranks: 16, tp: 2}");
        assertThat(moe.groups()).anySatisfy(n -> assertThat(n).startsWith("ep-fwd all-to-all"));
        assertThat(moe.groups()).anySatisfy(n -> assertThat(n).startsWith("tp-fwd all-reduce"));
    }

    @Test
    void badDegreesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> build("{kind: training, model: llama3-8b, tp: 3, ranks: 8}")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("test.yaml: workload.ranks: 8 ranks are not a multiple of tp x pp = 3");
        assertThatThrownBy(() -> build("{kind: training, model: mixtral-8x7b, ranks: 8, tp: 2}"))
                .hasMessageContaining("workload.ep: 8 does not divide the data-parallel degree 4");
        assertThatThrownBy(() -> build("{kind: training, model: llama3-8b, ep: 2}")).hasMessageContaining("workload.ep: 2: llama3-8b is a dense model");
        assertThatThrownBy(() -> build("{kind: training, model: mixtral-8x7b, ep: 3}")).hasMessageContaining("does not divide the 8 experts");
        assertThatThrownBy(() -> build("{kind: training, model: ethereal-gpt2, tp: 2}"))
                .hasMessageContaining("workload.tp: is read for models llama3-8b, llama3-70b, mixtral-8x7b only");
    }
}

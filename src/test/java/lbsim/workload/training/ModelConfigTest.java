package lbsim.workload.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Parameter counts and FLOP formulas of the documented model presets. */
class ModelConfigTest {

    @Test
    void parameterCountsFollowTheFormulaAndPublishedSizes() {
        ModelConfig gpt2 = ModelConfig.gpt2();
        assertThat(gpt2.totalParams()).isEqualTo(12L * 12 * 768 * 768 + 50257L * 768 + 1024L * 768);
        assertThat((double) gpt2.totalParams()).isCloseTo(124_439_808, within(124_439_808 * 0.002));
        assertThat((double) ModelConfig.gpt2Xl().totalParams()).isCloseTo(1_557_611_200, within(1_557_611_200 * 0.002));
        ModelConfig llama = ModelConfig.llama2_7b();
        assertThat(llama.paramsPerLayer()).isEqualTo(4L * 4096 * 4096 + 3L * 4096 * 11008);
        assertThat(llama.totalParams()).isEqualTo(32 * llama.paramsPerLayer() + 2L * 32000 * 4096);
        assertThat((double) llama.totalParams()).isCloseTo(6_738_415_616.0, within(6_738_415_616.0 * 0.001));
    }

    @Test
    void computeTimesComeFromFlopsOverRate() {
        ComputeModel c = new ComputeModel(ModelConfig.gpt2(), 4, 2, 100e12);
        double tokens = 4 * 1024;
        double attention = (2 * tokens * 4 * 768 * 768 + 4 * tokens * 1024 * 768) / 2;
        double mlp = 2 * tokens * 2 * 768 * 3072 / 2;
        assertThat(c.attentionForwardFlops()).isEqualTo(attention);
        assertThat(c.mlpForwardFlops()).isEqualTo(mlp);
        assertThat(c.attentionForwardPs()).isEqualTo(Math.round(attention / 100e12 * 1e12));
        assertThat(c.mlpBackwardPs()).isEqualTo(Math.round(2 * mlp / 100e12 * 1e12));
        assertThat(c.logitsForwardFlops()).isEqualTo(2 * tokens * 768 * 50257 / 2);
    }

    @Test
    void parallelismNumbersRanksTensorFastest() {
        Parallelism p = new Parallelism(4, 2, 3);
        assertThat(p.gpus()).isEqualTo(24);
        assertThat(p.tensorGroup(1, 2)).containsExactly(12, 13);
        assertThat(p.dataGroup(2, 1)).containsExactly(17, 19, 21, 23);
    }
}

package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every preset says what its paper scale costs; the estimate multiplies the paper grid's runs. */
class PaperScaleCostTest {
    @Test
    void everyPresetHasAnEstimateAndNoEstimateNamesAnUnknownPreset() {
        assertThat(PaperScaleCost.ids()).containsExactlyInAnyOrderElementsOf(Presets.all().stream().map(Preset::id).toList());
    }

    @Test
    void theEstimateIsTheRunCountTimesTheMeasuredRangeOrSaysWhyThereIsNone() {
        PaperScaleCost c = new PaperScaleCost(15, 30, true, "measured");
        assertThat(c.describe(160)).isEqualTo("160 runs, about 40 min to 80 min of CPU (estimate: measured)");
        assertThat(new PaperScaleCost(20, 20, true, "m").describe(3)).isEqualTo("3 runs, about 60 s of CPU (estimate: m)");
        assertThat(new PaperScaleCost(60, 60, true, "m").describe(100)).isEqualTo("100 runs, about 1.7 h of CPU (estimate: m)");
        assertThat(new PaperScaleCost(2400, 2400, false, "t").describe(140)).as("a total is not multiplied")
                .isEqualTo("140 runs, about 40 min of CPU (estimate: t)");
        PaperScaleCost none = new PaperScaleCost(Double.NaN, Double.NaN, true, "not measured: why");
        assertThat(none.measured()).isFalse();
        assertThat(none.describe(7)).isEqualTo("7 runs; not measured: why");
    }
}

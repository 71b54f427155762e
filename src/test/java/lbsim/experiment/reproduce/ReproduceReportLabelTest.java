package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ours-vs-paper charts are split by kind of cell, and each y axis says what its cells are. */
class ReproduceReportLabelTest {
    private static final Map<String, String> A = Map.of("load_balancer.scheme", "a"), B = Map.of("load_balancer.scheme", "b");
    private static final Preset P = new Preset("t", "p", "f", "d", "throughput.max_gbps", "MTT (Gb/s)", Map.of(), List.of(), List.of());

    @Test
    void ratioAndReductionCellsShareARatioAxisNotTheMetricsUnit() {
        Cell ratio = Cell.ratio("MTT ratio", "throughput.max_gbps", A, List.of(B), 1.5, "");
        Cell reduction = Cell.reduction("FCT reduction", "flows.fct_ns.mean", A, List.of(B), 2.6, "");
        assertThat(ReproduceReport.chartKind(ratio)).isEqualTo("ratio");
        assertThat(ReproduceReport.chartKind(reduction)).isEqualTo("ratio");
        String label = ReproduceReport.yLabel(P, "ratio", List.of(ratio, reduction));
        assertThat(label).contains("(x)").doesNotContain("Gb/s");
    }

    @Test
    void improvementCellsArePercentAndValueCellsCarryTheMetric() {
        Cell imp = Cell.improvement("util", A, B, 30, "");
        assertThat(ReproduceReport.chartKind(imp)).isEqualTo("improvement");
        assertThat(ReproduceReport.yLabel(P, "improvement", List.of(imp))).contains("(%)");
        Cell v = Cell.value("mtt", A, 90, "");
        assertThat(ReproduceReport.yLabel(P, "value", List.of(v))).isEqualTo("MTT (Gb/s)");
        // value cells of another metric are not labelled with the preset's
        assertThat(ReproduceReport.yLabel(P, "value", List.of(v.on("cct_ns")))).doesNotContain("MTT");
    }
}

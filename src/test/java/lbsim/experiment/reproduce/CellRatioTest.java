package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.experiment.SweepSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ratio and reduction cells, a cell's own metric, and the strongest of several baselines, on hand-written summaries. */
class CellRatioTest {
    @TempDir
    Path out;

    private static final String SWEEP = """
            name: t
            base: {topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}, workload: {kind: permutation}}
            grid:
              load_balancer.scheme: {ours: spray-host, b1: ecmp, b2: drill, b3: spray-switch}
            seeds: 2
            """;

    /** throughput.max_gbps and cct_ns per (label, seed). */
    private static final Map<String, double[][]> VALUES = Map.of(
            "ours", new double[][] {{150, 100}, {160, 120}},
            "b1", new double[][] {{100, 300}, {80, 240}},
            "b2", new double[][] {{120, 150}, {128, 180}},
            "b3", new double[][] {{50, 400}, {40, 480}});

    private static Map<String, String> sel(String l) {
        return Map.of("load_balancer.scheme", l);
    }

    private List<Reproduce.Row> compare(List<Cell> cells) throws Exception {
        Preset p = new Preset("t", "p", "f", "d", "throughput.max_gbps", "MTT", Map.of("quick", SWEEP, "paper", SWEEP), cells, List.of());
        SweepSpec spec = Reproduce.spec(p, "quick", List.of());
        for (SweepSpec.Run r : spec.runs()) {
            double[] v = VALUES.get(r.labels().get(0))[(int) r.seed() - 1];
            Path d = out.resolve("runs").resolve(r.key());
            Files.createDirectories(d);
            Files.writeString(d.resolve("summary.json"), "{\"cct_ns\": " + v[1] + ", \"throughput\": {\"max_gbps\": " + v[0] + "}}\n");
        }
        return Reproduce.compare(p, spec, out);
    }

    @Test
    void ratioIsOursOverBaselineAndReductionIsBaselineOverOursPairedBySeed() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(
                Cell.ratio("mtt", "throughput.max_gbps", sel("ours"), List.of(sel("b1")), 1.5, ""),
                Cell.reduction("fct", "cct_ns", sel("ours"), List.of(sel("b1")), 3, ""),
                Cell.value("plain", sel("ours"), 0, ""),
                Cell.improvement("impr", sel("ours"), sel("b1"), 0, "")));
        // seeds: 150/100 = 1.5, 160/80 = 2.0
        assertThat(rows.get(0).mean()).isCloseTo(1.75, within(1e-12));
        assertThat(rows.get(0).sd()).isCloseTo(Math.sqrt(0.125), within(1e-12));
        assertThat(rows.get(0).n()).isEqualTo(2);
        // 300/100 = 3, 240/120 = 2
        assertThat(rows.get(1).mean()).isCloseTo(2.5, within(1e-12));
        assertThat(rows.get(1).difference()).isCloseTo(-0.5, within(1e-12));
        // a cell without its own metric uses the preset's
        assertThat(rows.get(2).mean()).isCloseTo(155, within(1e-12));
        // improvement keeps its meaning: 100 (b - a) / b on the preset metric: -50 %, -100 %
        assertThat(rows.get(3).mean()).isCloseTo(-75, within(1e-12));
        assertThat(rows.get(0).baselineUsed()).isNull();
    }

    @Test
    void severalBaselinesReportTheStrongestOne() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(
                Cell.ratio("mtt", "throughput.max_gbps", sel("ours"), List.of(sel("b1"), sel("b2"), sel("b3")), 1, "n"),
                Cell.reduction("fct", "cct_ns", sel("ours"), List.of(sel("b3"), sel("b1"), sel("b2")), 1, "n"),
                Cell.ratio("missing", "throughput.max_gbps", sel("ours"), List.of(sel("nope"), sel("b1")), 1, "n")));
        // MTT: b2 has the highest throughput, so the smallest ratio: 150/120, 160/128 = 1.25 both
        assertThat(rows.get(0).mean()).isCloseTo(1.25, within(1e-12));
        assertThat(rows.get(0).baselineUsed()).isEqualTo("load_balancer.scheme=b2");
        assertThat(rows.get(0).note()).contains("strongest baseline: load_balancer.scheme=b2");
        // FCT: b2 is fastest: 150/100, 180/120 = 1.5
        assertThat(rows.get(1).mean()).isCloseTo(1.5, within(1e-12));
        assertThat(rows.get(1).baselineUsed()).isEqualTo("load_balancer.scheme=b2");
        // a candidate not in the grid is skipped
        assertThat(rows.get(2).mean()).isCloseTo(1.75, within(1e-12));
    }

    @Test
    void aCellWithoutItsGridPointsDidNotRunAndKindsNeedTheRightBaselines() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(Cell.ratio("x", "cct_ns", sel("nope"), List.of(sel("b1")), 2, "")));
        assertThat(rows.get(0).ran()).isFalse();
        assertThat(rows.get(0).mean()).isNaN();
        assertThatThrownBy(() -> Cell.ratio("x", "m", sel("ours"), List.of(), 1, "")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Cell("v", sel("ours"), null, 1, "").kind()).isEqualTo(Cell.Kind.VALUE);
        assertThat(Cell.improvement("i", sel("ours"), sel("b1"), 1, "").baselines()).containsExactly(sel("b1"));
    }

    @Test
    void aMetricNullInARunGivesNoMeanNotAMeanOfZero() throws Exception {
        Preset p = new Preset("t", "p", "f", "d", "flows.fct_ns.p99", "FCT", Map.of("quick", SWEEP, "paper", SWEEP),
                List.of(Cell.value("plain", sel("ours"), 5, "")), List.of());
        SweepSpec spec = Reproduce.spec(p, "quick", List.of());
        for (SweepSpec.Run r : spec.runs()) {
            Path d = out.resolve("runs").resolve(r.key());
            Files.createDirectories(d);
            // seed 1: no flow finished (null), seed 2: 4000
            String p99 = r.seed() == 1 ? "null" : "4000";
            Files.writeString(d.resolve("summary.json"), "{\"flows\": {\"fct_ns\": {\"p99\": " + p99 + "}}}\n");
        }
        List<Reproduce.Row> rows = Reproduce.compare(p, spec, out);
        assertThat(rows.get(0).ran()).isTrue();
        assertThat(rows.get(0).mean()).isNaN();
        assertThat(ReproduceReport.table(rows)).contains("<td>-</td><td>-</td><td>2</td><td>5.000</td><td>-</td>").doesNotContain("NaN");
    }
}

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

/** Cells a paper states as an average over grid points (Ethereal Fig. 7: "over 4-64 MB"), on hand-written summaries. */
class CellAverageTest {
    @TempDir
    Path out;

    private static final String SWEEP = """
            name: t
            base: {topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}, workload: {kind: permutation}}
            grid:
              workload.size_bytes: {s1: 1000, s2: 2000, s3: 3000}
              load_balancer.scheme: {ours: ethereal, base: spray-host}
            seeds: 2
            """;

    /** cct_ns per (size label, scheme label): seed 1, seed 2. */
    private static final Map<String, double[]> CCT = Map.of(
            "s1/ours", new double[] {50, 60}, "s1/base", new double[] {100, 100},
            "s2/ours", new double[] {90, 90}, "s2/base", new double[] {100, 120},
            "s3/ours", new double[] {30, 30}, "s3/base", new double[] {40, 40});

    private List<Reproduce.Row> compare(List<Cell> cells) throws Exception {
        Preset p = new Preset("t", "p", "f", "d", "cct_ns", "CCT", Map.of("quick", SWEEP, "paper", SWEEP), cells, List.of());
        SweepSpec spec = Reproduce.spec(p, "quick", List.of());
        for (SweepSpec.Run r : spec.runs()) {
            double v = CCT.get(r.labels().get(0) + "/" + r.labels().get(1))[(int) r.seed() - 1];
            Path d = out.resolve("runs").resolve(r.key());
            Files.createDirectories(d);
            Files.writeString(d.resolve("summary.json"), "{\"cct_ns\": " + v + "}\n");
        }
        return Reproduce.compare(p, spec, out);
    }

    private static Map<String, String> lb(String label) {
        return Map.of("load_balancer.scheme", label);
    }

    @Test
    void anAveragedImprovementIsTheMeanOfThePairedImprovementsAtEachLabel() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(
                Cell.improvement("s1-s2", lb("ours"), lb("base"), 20, "").averagedOver("workload.size_bytes", List.of("s1", "s2")),
                Cell.value("mean cct", lb("ours"), 0, "").averagedOver("workload.size_bytes", List.of("s1", "s2", "s3"))));
        // improvements: s1 50 %, 40 %; s2 10 %, 25 % (each size paired with the baseline at the same size and seed)
        assertThat(rows.get(0).mean()).isCloseTo(31.25, within(1e-12));
        assertThat(rows.get(0).n()).isEqualTo(4);
        assertThat(rows.get(0).difference()).isCloseTo(11.25, within(1e-12));
        assertThat(rows.get(1).mean()).isCloseTo((50 + 60 + 90 + 90 + 30 + 30) / 6.0, within(1e-12));
    }

    /** "Up to": the point whose mean over seeds is the largest, with that point's own SD and seeds, named in the note. */
    @Test
    void anUpToCellIsTheLargestMeanOverItsPointsAndNamesIt() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(
                Cell.improvement("up to", lb("ours"), lb("base"), 45, "n").upTo("workload.size_bytes", List.of("s1", "s2", "s3"),
                        List.of("cct_ns")),
                Cell.improvement("up to, no s1", lb("ours"), lb("base"), 45, "n").upTo("workload.size_bytes", List.of("s2", "s3"),
                        List.of("cct_ns"))));
        // improvements per size: s1 50 %, 40 % (mean 45); s2 10 %, 25 % (17.5); s3 25 %, 25 % (25)
        assertThat(rows.get(0).mean()).isCloseTo(45, within(1e-12));
        assertThat(rows.get(0).sd()).isCloseTo(Math.sqrt(50), within(1e-12));
        assertThat(rows.get(0).n()).isEqualTo(2);
        assertThat(rows.get(0).verdict()).isEqualTo(Verdict.REPRODUCES);
        assertThat(rows.get(0).note()).isEqualTo("n [largest at workload.size_bytes=s1, cct_ns]");
        // without s1 the largest is s3's 25 %, not the average of the points (21.25) nor any single seed (s2's 25 %)
        assertThat(rows.get(1).mean()).isCloseTo(25, within(1e-12));
        assertThat(rows.get(1).sd()).isZero();
        assertThat(rows.get(1).note()).contains("workload.size_bytes=s3");
        assertThatThrownBy(() -> Cell.improvement("x", lb("ours"), lb("base"), 1, "").upTo(null, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void againstTheMeanOfItsBaselinesAveragesEveryBaselineThatRanInsteadOfTakingTheStrongest() throws Exception {
        Map<String, String> s1 = Map.of("workload.size_bytes", "s1", "load_balancer.scheme", "ours");
        // at s1, ours vs base (50 %, 40 %) and vs ours at s2 (-10/90 ~ 44.4 %, 33.3 %): the mean of the four
        Cell mean = Cell.againstTheMeanOfItsBaselines("mean", s1, List.of(
                Map.of("workload.size_bytes", "s1", "load_balancer.scheme", "base"),
                Map.of("workload.size_bytes", "s2", "load_balancer.scheme", "ours"),
                Map.of("workload.size_bytes", "s9", "load_balancer.scheme", "base")), 30, "");
        List<Reproduce.Row> rows = compare(List.of(mean));
        assertThat(rows.get(0).mean()).isCloseTo((50 + 40 + 100 * 40 / 90.0 + 100 * 30 / 90.0) / 4, within(1e-9));
        assertThat(rows.get(0).n()).isEqualTo(4);
        assertThat(rows.get(0).note()).doesNotContain("strongest");
        // the same baselines as candidates report the strongest (smallest improvement) instead
        Cell strongest = new Cell("min", s1, null, 30, "", Cell.Kind.IMPROVEMENT, null, mean.baselines(), null, null, false, null);
        assertThat(compare(List.of(strongest)).get(0).mean()).isCloseTo(
                (100 * 40 / 90.0 + 100 * 30 / 90.0) / 2, within(1e-9));
    }

    @Test
    void labelsThatDidNotRunAreLeftOutAndNoneRunningIsNotRun() throws Exception {
        List<Reproduce.Row> rows = compare(List.of(
                Cell.improvement("with a missing size", lb("ours"), lb("base"), 0, "").averagedOver("workload.size_bytes", List.of("s3", "s9")),
                Cell.improvement("only missing", lb("ours"), lb("base"), 0, "").averagedOver("workload.size_bytes", List.of("s9"))));
        assertThat(rows.get(0).mean()).isCloseTo(25, within(1e-12));
        assertThat(rows.get(0).n()).isEqualTo(2);
        assertThat(rows.get(1).ran()).isFalse();
        // without the average, a selection that leaves the size out names no grid point
        assertThat(compare(List.of(Cell.improvement("no size", lb("ours"), lb("base"), 0, ""))).get(0).ran()).isFalse();
        assertThatThrownBy(() -> Cell.value("x", lb("ours"), 0, "").averagedOver("workload.size_bytes", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

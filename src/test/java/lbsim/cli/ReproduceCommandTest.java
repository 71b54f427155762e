package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.experiment.SweepSpec;
import lbsim.experiment.reproduce.Cell;
import lbsim.experiment.reproduce.Preset;
import lbsim.experiment.reproduce.Presets;
import lbsim.experiment.reproduce.Reproduce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** reproduce: the registry, every preset's grids bind, and two presets end to end on tiny overrides. */
class ReproduceCommandTest {
    @TempDir
    Path tmp;

    @Test
    void listNamesEveryPreset() {
        Outcome o = exec("reproduce", "--list");
        assertThat(o.code()).isZero();
        assertThat(Presets.all()).extracting(Preset::id).contains("mcclure-table2", "ethereal-fig3");
        for (Preset p : Presets.all()) assertThat(o.out()).contains(p.id(), p.figure());
    }

    @Test
    void everyScaleOfEveryPresetBindsAndEveryCellSelectsARealGridPoint() {
        for (Preset p : Presets.all()) {
            assertThat(p.scales().keySet()).containsExactlyInAnyOrderElementsOf(Preset.SCALES);
            for (String scale : Preset.SCALES) {
                SweepSpec s = Reproduce.spec(p, scale, List.of());
                s.validate();
                if (scale.equals("paper")) {
                    // at paper scale every stated number has its runs
                    for (Cell c : p.cells()) {
                        assertThat(hasPoint(s, c.select())).as("%s %s", p.id(), c.name()).isTrue();
                        if (c.isImprovement()) assertThat(hasPoint(s, c.baseline())).as("%s %s baseline", p.id(), c.name()).isTrue();
                    }
                }
            }
        }
    }

    private static boolean hasPoint(SweepSpec s, java.util.Map<String, String> select) {
        List<String> cols = s.columns();
        for (SweepSpec.Run r : s.runs()) {
            boolean ok = select.keySet().equals(new java.util.HashSet<>(cols));
            for (int i = 0; ok && i < cols.size(); i++) ok = select.get(cols.get(i)).equals(r.labels().get(i));
            if (ok) return true;
        }
        return false;
    }

    @Test
    void unknownPresetOrScaleIsExitTwo() {
        Outcome o = exec("reproduce", "nope-fig9", "--out", tmp.resolve("x").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("nope-fig9", "mcclure-table2");
        assertThat(exec("reproduce", "mcclure-table2", "--scale", "huge", "--out", tmp.resolve("y").toString()).code()).isEqualTo(2);
    }

    @Test
    void mcclureTable2RunsEndToEndOnATinyFabricAndComparesWithThePaper() throws Exception {
        Path out = tmp.resolve("mc");
        Outcome o = exec("reproduce", "mcclure-table2", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.k=4", "--set", "workload.size_bytes=16000", "--set", "transport.pfc=true");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(Files.readString(out.resolve("results.csv")).lines()).hasSize(1 + 16 * 2);
        List<NamedCsvRecord> cmp = read(out.resolve("comparison.csv"));
        assertThat(cmp).hasSize(16);
        List<NamedCsvRecord> results = read(out.resolve("results.csv"));
        for (NamedCsvRecord c : cmp) {
            assertThat(c.getField("seeds")).isEqualTo("2");
            // ours is the mean of the selected runs' normalised CCT, recomputed from results.csv
            String[] parts = c.getField("cell").split(" ");
            double sum = 0;
            int n = 0;
            for (NamedCsvRecord r : results) {
                if (r.getField("workload").equals(parts[0]) && r.getField("topology.port_buffer_bytes").equals(parts[1])
                        && r.getField("load_balancer.scheme").equals(parts[2])) {
                    sum += Double.parseDouble(r.getField("normalised"));
                    n++;
                }
            }
            assertThat(n).isEqualTo(2);
            assertThat(Double.parseDouble(c.getField("ours_mean"))).isCloseTo(sum / n, within(1e-4));
            assertThat(Double.parseDouble(c.getField("difference")))
                    .isCloseTo(Double.parseDouble(c.getField("ours_mean")) - Double.parseDouble(c.getField("paper")), within(1e-3));
        }
        assertThat(cmp.get(3).getField("cell")).isEqualTo("ata large ecmp");
        assertThat(cmp.get(3).getField("paper")).isEqualTo("1.3500");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<table>", "Table 2", "ata small host", "id=\"charts\"", "Differences from the paper");
        assertThat(o.out()).contains("perm small ecmp");
        // a second invocation resumes: nothing runs again, the comparison is the same
        String before = Files.readString(out.resolve("comparison.csv"));
        Outcome again = exec("reproduce", "mcclure-table2", "--out", out.toString(),
                "--set", "topology.k=4", "--set", "workload.size_bytes=16000", "--set", "transport.pfc=true");
        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("32 runs (0 run now)");
        assertThat(Files.readString(out.resolve("comparison.csv"))).isEqualTo(before);
    }

    @Test
    void etherealFig3ReportsPairedImprovementsOverTheBaselines() throws Exception {
        Path out = tmp.resolve("eth");
        Outcome o = exec("reproduce", "ethereal-fig3", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.leaves=2", "--set", "topology.spines=2", "--set", "topology.hosts_per_leaf=2",
                "--set", "workload.size_bytes=65536");
        assertThat(o.code()).as(o.err()).isZero();
        List<NamedCsvRecord> results = read(out.resolve("results.csv"));
        assertThat(results).hasSize(2 * 3 * 5);
        List<NamedCsvRecord> cmp = read(out.resolve("comparison.csv"));
        assertThat(cmp).hasSize(Presets.get("ethereal-fig3").cells().size());
        NamedCsvRecord first = cmp.get(0);
        assertThat(first.getField("cell")).isEqualTo("all-to-all 16MB: Ethereal vs ECMP");
        double eth = cct(results, "all-to-all", "16MB", "ethereal"), ecmp = cct(results, "all-to-all", "16MB", "ecmp");
        assertThat(Double.parseDouble(first.getField("ours_mean"))).isCloseTo(100 * (ecmp - eth) / ecmp, within(1e-3));
        assertThat(first.getField("paper")).isEqualTo("7.5600");
    }

    private static double cct(List<NamedCsvRecord> rows, String algo, String size, String lb) {
        for (NamedCsvRecord r : rows) {
            if (r.getField("workload.algorithm").equals(algo) && r.getField("workload.size_bytes").equals(size)
                    && r.getField("load_balancer").equals(lb)) return Double.parseDouble(r.getField("cct_ns"));
        }
        throw new AssertionError("no run " + algo + " " + size + " " + lb);
    }

    private static List<NamedCsvRecord> read(Path f) throws Exception {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(f)) {
            return r.stream().toList();
        }
    }
}

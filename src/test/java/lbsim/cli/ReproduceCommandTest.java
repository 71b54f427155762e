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
import lbsim.experiment.Sweep;
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
        // a preset not stored at paper scale gives the paper grid's run count and an estimate or why none exists
        Outcome none = exec("reproduce", "--list", "--results", tmp.resolve("nothing-stored").toString(), "mcclure-table2");
        int runs = Reproduce.spec(Presets.get("mcclure-table2"), "paper", List.of()).runs().size();
        assertThat(none.out()).contains("no stored results; paper scale not run (" + runs + " runs, about ", " of CPU (estimate: ");
    }

    @Test
    void everyScaleOfEveryPresetBindsAndEveryCellSelectsARealGridPoint() {
        for (Preset p : Presets.all()) {
            assertThat(p.scales().keySet()).containsExactlyInAnyOrderElementsOf(Preset.SCALES);
            for (String scale : Preset.SCALES) {
                SweepSpec s = Reproduce.spec(p, scale, List.of());
                s.validate();
                if (scale.equals("paper")) {
                    // at paper scale every stated number has its runs (an averaged cell: at each of its labels)
                    for (Cell c : p.cells()) {
                        for (var pt : c.points(c.select())) assertThat(hasPoint(s, pt)).as("%s %s at %s", p.id(), c.name(), pt).isTrue();
                        for (var b : c.baselines()) {
                            for (var pt : c.points(b)) assertThat(hasPoint(s, pt)).as("%s %s baseline %s", p.id(), c.name(), pt).isTrue();
                        }
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

    /** --list with an id lists that preset only (it listed all 24); an unknown id is exit 2. */
    @Test
    void presetsSetNoKeyTheirSettingsDoNotReadAndAnOverrideThatIsNotReadIsWarnedBeforeRunning() {
        for (Preset p : Presets.all()) {
            for (String scale : Preset.SCALES) assertThat(Reproduce.spec(p, scale, List.of()).validate()).as("%s %s", p.id(), scale).isEmpty();
        }
        // --jobs 0 is refused after the check, so nothing runs
        Outcome o = exec("reproduce", "mcclure-table2", "--jobs", "0", "--out", tmp.resolve("w").toString(),
                "--set", "transport.irn_rto_low_us=10");
        assertThat(o.err()).contains("lbsim: warning: transport.irn_rto_low_us is not read with loss_recovery: erasure");
        assertThat(o.code()).isEqualTo(2);
        // a value no run could take is exit 2 naming the grid point
        Outcome bad = exec("reproduce", "mcclure-table2", "--out", tmp.resolve("b").toString(), "--set", "transport.cc=nope");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("grid point", "transport.cc");
    }

    /** An --out that is a file, or the root, is exit 2 before anything runs (nothing is written). */
    @Test
    void anUnusableOutIsRefusedBeforeRunning() throws Exception {
        Path file = java.nio.file.Files.writeString(tmp.resolve("a-file"), "x");
        Outcome o = exec("reproduce", "ctccl-fig7", "--out", file.toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("is a file, not a folder");
        assertThat(exec("reproduce", "ctccl-fig7", "--out", "/").code()).isEqualTo(2);
        assertThat(exec("sweep", "no-such.yaml", "--out", file.toString()).err()).contains("is a file, not a folder");
    }

    @Test
    void listWithAnIdListsThatPresetOnly() {
        Outcome one = exec("reproduce", "--list", "ctccl-fig7");
        assertThat(one.code()).isZero();
        assertThat(one.out().lines().filter(l -> !l.startsWith(" "))).singleElement().asString().startsWith("ctccl-fig7 ");
        assertThat(one.out()).as("its stored results, or that there are none")
                .containsAnyOf("no stored results", "stored: quick scale", "stored: paper scale");
        assertThat(exec("reproduce", "--list", "nope-fig9").code()).isEqualTo(2);
    }

    /** --scale is case-insensitive like plan's --format: QUICK passes the scale check (and stops at --jobs 0 here). */
    @Test
    void scaleIsCaseInsensitive() {
        Outcome o = exec("reproduce", "ctccl-fig7", "--scale", "QUICK", "--jobs", "0", "--out", tmp.resolve("q").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--jobs 0").doesNotContain("--scale");
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
        // Table 2's 16 values, then 4 claims across buffer sizes (names with a colon)
        assertThat(cmp).hasSize(20);
        List<NamedCsvRecord> values = cmp.stream().filter(c -> !c.getField("cell").contains(":")).toList();
        assertThat(values).hasSize(16);
        List<NamedCsvRecord> results = read(out.resolve("results.csv"));
        for (NamedCsvRecord c : values) {
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
        assertThat(results).hasSize(2 * 4 * 5 * 3); // algorithms x quick sizes x schemes x seeds
        List<NamedCsvRecord> cmp = read(out.resolve("comparison.csv"));
        assertThat(cmp).hasSize(Presets.get("ethereal-fig3").cells().size());
        NamedCsvRecord first = cmp.get(0);
        assertThat(first.getField("cell")).isEqualTo("all-to-all 16MB: Ethereal vs ECMP");
        // the mean over seeds of the improvement paired by seed
        double sum = 0;
        for (String seed : List.of("1", "2", "3")) {
            double eth = cct(results, "all-to-all", "16MB", "ethereal", seed), ecmp = cct(results, "all-to-all", "16MB", "ecmp", seed);
            sum += 100 * (ecmp - eth) / ecmp;
        }
        assertThat(Double.parseDouble(first.getField("ours_mean"))).isCloseTo(sum / 3, within(1e-3));
        assertThat(first.getField("seeds")).isEqualTo("3");
        assertThat(first.getField("paper")).isEqualTo("7.5600");
        // the paper's figure: ours at the size the runs used (the --set), the paper's numbers at the paper's sizes
        List<NamedCsvRecord> fig = read(out.resolve("plots/paper-figure-1.csv"));
        assertThat(fig.stream().filter(r -> r.getField("source").equals("lbsim")).map(r -> r.getField("x")).distinct()).containsExactly("65536.0");
        assertThat(fig.stream().filter(r -> r.getField("source").equals("paper") && r.getField("x_label").equals("16MB"))
                .map(r -> r.getField("x")).distinct()).containsExactly("16777216.0");
        // every CSV of the reproduction holds the columns docs/outputs.md documents, each of one type
        lbsim.OutputsDoc doc = lbsim.OutputsDoc.read();
        List<String> grid = new java.util.ArrayList<>();
        for (var c : lbsim.experiment.Sweep.readSummary(out.resolve("sweep.json")).path("columns")) grid.add(c.asString());
        for (String f : List.of("results.csv", "comparison.csv", "plots/paper-figure-1.csv")) doc.check(out.resolve(f), grid, false, true);
    }

    @Test
    void paraletFig5KeepsEachRunsThroughputCurveAndReportsRatiosAgainstTheStrongestLetFlowGap() throws Exception {
        Path out = tmp.resolve("pl");
        Outcome o = exec("reproduce", "paralet-fig5", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.k=4", "--set", "workload.size_bytes=32768");
        assertThat(o.code()).as(o.err()).isZero();
        List<NamedCsvRecord> results = read(out.resolve("results.csv"));
        assertThat(results).hasSize(2 * 12 * 2);
        // every run keeps its total-throughput curve; its maximum is the run's MTT
        for (Path run : Files.list(out.resolve("runs")).toList()) {
            List<String> tt = Files.readAllLines(run.resolve("throughput.csv"));
            assertThat(tt.get(0)).isEqualTo("time_us,gbps");
            double max = tt.stream().skip(1).mapToDouble(l -> Double.parseDouble(l.split(",")[1])).max().orElseThrow();
            double mtt = Sweep.flatten(Sweep.readSummary(run.resolve("summary.json"))).entrySet().stream()
                    .filter(e -> e.getKey().equals("throughput.max_gbps")).mapToDouble(e -> Double.parseDouble(e.getValue())).sum();
            assertThat(max).isCloseTo(mtt, within(1e-3));
        }
        List<NamedCsvRecord> cmp = read(out.resolve("comparison.csv"));
        // per case 8 baseline cells, Eq. 1, sqrt(m) and two m-steps; QPs under DBT: 4 x 12 + 2
        assertThat(cmp).hasSize(Presets.get("paralet-fig5").cells().size()).hasSize(50);
        assertThat(cmp.stream().filter(c -> c.getField("seeds").equals("2")).count()).isEqualTo(25);
        assertThat(cmp.stream().filter(c -> c.getField("note").startsWith("not run")).count()).as("LS cells").isEqualTo(25);
        NamedCsvRecord ecmpMtt = cmp.get(0), ecmpFct = cmp.get(1);
        assertThat(ecmpMtt.getField("cell")).isEqualTo("Ring SS: ParaLet-32 vs ECMP, MTT ratio");
        assertThat(Double.parseDouble(ecmpMtt.getField("ours_mean")))
                .isCloseTo(paired(results, "Ring", "paralet-32", "ecmp", "throughput.max_gbps"), within(1e-3));
        assertThat(Double.parseDouble(ecmpFct.getField("ours_mean")))
                .isCloseTo(paired(results, "Ring", "ecmp", "paralet-32", "cct_ns"), within(1e-3));
        // LetFlow: the smallest of the three gaps' FCT reductions, and the note names the gap
        NamedCsvRecord lf = cmp.get(7);
        assertThat(lf.getField("cell")).isEqualTo("Ring SS: ParaLet-32 vs LetFlow (best gap), FCT reduction");
        double best = Double.MAX_VALUE;
        String bestGap = null;
        for (String gap : List.of("letflow-50", "letflow-100", "letflow-200")) {
            double x = paired(results, "Ring", gap, "paralet-32", "cct_ns");
            if (x < best) {
                best = x;
                bestGap = gap;
            }
        }
        assertThat(Double.parseDouble(lf.getField("ours_mean"))).isCloseTo(best, within(1e-3));
        assertThat(lf.getField("note")).contains("strongest baseline: load_balancer=" + bestGap);
    }

    @Test
    void paraletFig4ReportDrawsTheTotalThroughputOverTimeOfEverySchemeFromItsRuns() throws Exception {
        Path out = tmp.resolve("pl4");
        Outcome o = exec("reproduce", "paralet-fig4", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.k=4", "--set", "workload.size_bytes=32768");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(Files.readString(out.resolve("report.html"))).contains("Fig. 4: total throughput (TT) over time")
                .contains("plots/paper-figure-1-1.png");
        List<NamedCsvRecord> pts = read(out.resolve("plots/paper-figure-1.csv"));
        assertThat(pts.stream().map(r -> r.getField("panel")).distinct())
                .containsExactlyInAnyOrder("topology = SS, workload.algorithm = Ring", "topology = SS, workload.algorithm = DBT");
        assertThat(pts.stream().map(r -> r.getField("series")).distinct()).hasSize(12).contains("ecmp", "drill", "paralet-32");
        // one seed at quick scale: each curve is its run's throughput.csv, at the intervals' midpoints
        SweepSpec spec = Reproduce.spec(Presets.get("paralet-fig4"), "quick", List.of("topology.k=4", "workload.size_bytes=32768"));
        SweepSpec.Run ecmp = spec.runs().stream().filter(r -> r.labels().equals(List.of("SS", "Ring", "ecmp"))).findFirst().orElseThrow();
        List<String> tt = Files.readAllLines(out.resolve("runs").resolve(ecmp.key()).resolve("throughput.csv"));
        List<NamedCsvRecord> curve = pts.stream().filter(r -> r.getField("panel").equals("topology = SS, workload.algorithm = Ring")
                && r.getField("series").equals("ecmp")).toList();
        assertThat(curve).hasSize(tt.size() - 1);
        double interval = Double.parseDouble(tt.get(1).split(",")[0]);
        for (int i = 0; i < curve.size(); i++) {
            assertThat(Double.parseDouble(curve.get(i).getField("x"))).isCloseTo((i + 0.5) * interval, within(1e-6));
            assertThat(Double.parseDouble(curve.get(i).getField("y"))).isCloseTo(Double.parseDouble(tt.get(i + 1).split(",")[1]), within(1e-6));
        }
    }

    @Test
    void summaryWithOutWritesTheHtmlSummaryPageAndWithoutPrintsMarkdown() throws Exception {
        Path out = tmp.resolve("summary");
        Outcome o = exec("reproduce", "--summary", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("summary.html");
        assertThat(Files.readString(out.resolve("summary.html"))).contains("plots/verdicts-per-preset.png");
        // the counts per preset, as docs/outputs.md documents them
        lbsim.OutputsDoc.read().check(out.resolve("plots/verdicts.csv"), List.of(), false, true);
        assertThat(Files.readString(out.resolve("plots/verdicts.csv")).lines()).hasSizeGreaterThan(10);
        assertThat(exec("reproduce", "--summary").out()).startsWith("| preset |");
        // again into the same folder: it is lbsim's own output, so no --overwrite is needed
        assertThat(exec("reproduce", "--summary", "--out", out.toString()).code()).isZero();
    }

    /** Mean over seeds of metric(a) / metric(b) for the SS topology and the given workload. */
    private static double paired(List<NamedCsvRecord> rows, String wl, String a, String b, String metric) {
        double sum = 0;
        int n = 0;
        for (NamedCsvRecord r : rows) {
            if (!r.getField("workload.algorithm").equals(wl) || !r.getField("load_balancer").equals(a)) continue;
            for (NamedCsvRecord q : rows) {
                if (q.getField("workload.algorithm").equals(wl) && q.getField("load_balancer").equals(b)
                        && q.getField("seed").equals(r.getField("seed"))) {
                    sum += Double.parseDouble(r.getField(metric)) / Double.parseDouble(q.getField(metric));
                    n++;
                }
            }
        }
        assertThat(n).isEqualTo(2);
        return sum / n;
    }

    private static double cct(List<NamedCsvRecord> rows, String algo, String size, String lb, String seed) {
        for (NamedCsvRecord r : rows) {
            if (r.getField("workload.algorithm").equals(algo) && r.getField("workload.size_bytes").equals(size)
                    && r.getField("set").equals(lb) && r.getField("seed").equals(seed)) return Double.parseDouble(r.getField("cct_ns"));
        }
        throw new AssertionError("no run " + algo + " " + size + " " + lb + " seed " + seed);
    }

    private static List<NamedCsvRecord> read(Path f) throws Exception {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(f)) {
            return r.stream().toList();
        }
    }
}

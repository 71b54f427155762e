package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lbsim.experiment.SweepData;
import lbsim.experiment.SweepSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The paper's figure in a reproduction report, drawn from the stored runs in docs/results (the repository's own
 * copy): the expected series and panels, our points equal to what the runs' summaries give when read
 * independently (and to the comparison's cells where a cell is a point of the figure), and the paper's stated
 * numbers placed as markers at their grid point. Read from the figure's CSV, not from pixels.
 */
class PaperFigureTest {
    static final Path ROOT = StoredResultsTest.ROOT;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A point row of plots/paper-figure-N.csv. */
    record CsvPoint(String panel, String quantity, String series, String source, String xLabel, double x, double y) {}

    static List<CsvPoint> csv(Path file) throws IOException {
        List<CsvPoint> out = new ArrayList<>();
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(file)) {
            for (NamedCsvRecord x : r) {
                out.add(new CsvPoint(x.getField("panel"), x.getField("quantity"), x.getField("series"), x.getField("source"),
                        x.getField("x_label"), x.getField("x").isEmpty() ? Double.NaN : Double.parseDouble(x.getField("x")),
                        Double.parseDouble(x.getField("y"))));
            }
        }
        return out;
    }

    /** Draws figure {@code n} (1-based) of a preset from its stored runs into {@code tmp}; returns the figure's CSV points. */
    static List<CsvPoint> drawStored(String id, int n, Path tmp) throws IOException {
        Preset p = Presets.get(id);
        Provenance pv = Provenance.read(ROOT.resolve(id));
        SweepSpec spec = Reproduce.spec(p, pv.scale(), List.of());
        PaperFigure f = p.figures().get(n - 1);
        List<PaperFigures.Panel> panels = PaperFigures.compute(p, f, spec, SweepData.read(ROOT.resolve(id), spec.name()));
        List<PaperFigures.Drawn> drawn = PaperFigures.draw(p, n, f, panels, tmp);
        assertThat(drawn).as("%s figure %d: one chart per panel", id, n).hasSize(Math.min(panels.size(), PaperFigures.MAX_PANELS));
        for (PaperFigures.Drawn d : drawn) assertThat(d.chart().png()).exists();
        return csv(tmp.resolve("paper-figure-" + n + ".csv"));
    }

    private static double ours(List<CsvPoint> pts, String panel, String series, String xLabel) {
        List<CsvPoint> m = pts.stream().filter(p -> p.source().equals("lbsim") && p.panel().equals(panel) && p.series().equals(series)
                && p.xLabel().equals(xLabel)).toList();
        assertThat(m).as("%s / %s / %s", panel, series, xLabel).hasSize(1);
        return m.get(0).y();
    }

    private static double cellMean(String id, String cell) throws IOException {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(ROOT.resolve(id).resolve("comparison.csv"))) {
            for (NamedCsvRecord x : r) if (x.getField("cell").equals(cell)) return Double.parseDouble(x.getField("ours_mean"));
        }
        throw new AssertionError(id + ": no cell " + cell);
    }

    /** Each run's summary.json, read here without lbsim's flattening: grid labels -> seed -> summary. */
    private static List<Map.Entry<List<String>, JsonNode>> summaries(String id) throws IOException {
        JsonNode manifest = JSON.readTree(Files.readString(ROOT.resolve(id).resolve("sweep.json")));
        List<Map.Entry<List<String>, JsonNode>> out = new ArrayList<>();
        for (JsonNode r : manifest.get("runs")) {
            List<String> labels = new ArrayList<>();
            for (JsonNode l : r.get("labels")) labels.add(l.asString());
            out.add(Map.entry(labels, JSON.readTree(Files.readString(ROOT.resolve(id).resolve("runs").resolve(r.get("key").asString())
                    .resolve("summary.json")))));
        }
        return out;
    }

    @Test
    void hopperDrawsMeanAndP99SlowdownPerSizeBinForEverySchemeAtBothLoads(@TempDir Path tmp) throws IOException {
        List<CsvPoint> pts = drawStored("hopper-fig4", 1, tmp);
        Set<String> panels = pts.stream().map(p -> p.panel() + " | " + p.quantity()).collect(Collectors.toCollection(java.util.TreeSet::new));
        assertThat(panels).containsExactly("workload.load = 50% | mean", "workload.load = 50% | p99",
                "workload.load = 80% | mean", "workload.load = 80% | p99");
        assertThat(pts.stream().map(CsvPoint::series).distinct()).containsExactlyInAnyOrder("ecmp", "flowbender", "conga", "conweave", "hopper");
        assertThat(pts).allMatch(p -> p.source().equals("lbsim"), "the paper states no per-bin numbers");
        // every bar = the mean over seeds of the bin's value in each run's summary.json, read independently
        for (String q : List.of("mean", "p99")) {
            for (var load : List.of("50%", "80%")) {
                for (String lb : List.of("ecmp", "hopper")) {
                    Map<Long, List<Double>> bySize = new java.util.TreeMap<>();
                    for (var e : summaries("hopper-fig4")) {
                        if (!e.getKey().equals(List.of(load, lb))) continue;
                        for (JsonNode b : e.getValue().get("flows").get("slowdown_bins")) {
                            bySize.computeIfAbsent(b.get("min_bytes").asLong(), k -> new ArrayList<>()).add(b.get(q).asDouble());
                        }
                    }
                    assertThat(bySize).isNotEmpty();
                    for (var be : bySize.entrySet()) {
                        double mean = be.getValue().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                        CsvPoint pt = pts.stream().filter(p -> p.quantity().equals(q) && p.panel().equals("workload.load = " + load)
                                && p.series().equals(lb) && p.x() == be.getKey()).findFirst().orElseThrow();
                        assertThat(pt.y()).as("%s %s %s bin %d", q, load, lb, be.getKey()).isCloseTo(mean, within(1e-6 * mean));
                    }
                }
            }
        }
    }

    @Test
    void ctcclBusbwAgainstMessageSizeCarriesThePapersTwoPeakNumbersAtTheLargestSize(@TempDir Path tmp) throws IOException {
        List<CsvPoint> pts = drawStored("ctccl-fig6", 1, tmp);
        assertThat(pts.stream().map(CsvPoint::series).distinct()).containsExactlyInAnyOrder("nccl-ecmp", "ctccl-dnlb");
        List<CsvPoint> paper = pts.stream().filter(p -> p.source().equals("paper")).toList();
        assertThat(paper).extracting(CsvPoint::series, CsvPoint::xLabel, CsvPoint::y).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("nccl-ecmp", "largest", 16.1 * 8),
                org.assertj.core.groups.Tuple.tuple("ctccl-dnlb", "largest", 22.6 * 8));
        // the paper's point sits at the largest size's byte value, the same x as our point there
        double x = pts.stream().filter(p -> p.source().equals("lbsim") && p.xLabel().equals("largest")).findFirst().orElseThrow().x();
        assertThat(paper).allMatch(p -> p.x() == x);
        for (String lb : List.of("nccl-ecmp", "ctccl-dnlb")) {
            List<Double> xs = pts.stream().filter(p -> p.source().equals("lbsim") && p.series().equals(lb)).map(CsvPoint::x).toList();
            assertThat(xs).as("one point per size, in size order").hasSize(4).isSorted();
        }
        assertThat(ours(pts, "", "nccl-ecmp", "largest")).isCloseTo(cellMean("ctccl-fig6", "AllReduce largest: NCCL + ECMP busbw"), within(5e-4));
        assertThat(ours(pts, "", "ctccl-dnlb", "largest")).isCloseTo(cellMean("ctccl-fig6", "AllReduce largest: CTCCL + DNLB busbw"), within(5e-4));
    }

    @Test
    void ctcclBusbwAgainstQpsTakesTheQpCountFromTheSchemeLabel(@TempDir Path tmp) throws IOException {
        List<CsvPoint> pts = drawStored("ctccl-fig6e", 1, tmp);
        assertThat(pts.stream().map(CsvPoint::panel).distinct()).containsExactlyInAnyOrder("workload = all-reduce", "workload = all-gather");
        assertThat(pts.stream().map(CsvPoint::series).distinct()).containsExactlyInAnyOrder("ecmp", "dnlb");
        for (String lb : List.of("ecmp", "dnlb")) {
            assertThat(pts.stream().filter(p -> p.panel().equals("workload = all-reduce") && p.series().equals(lb)).map(CsvPoint::x))
                    .containsExactly(1.0, 2.0, 4.0, 8.0, 16.0);
        }
        // each point = the mean over seeds of busbw in the runs' summary.json of that scheme and QP count, read independently
        for (var e : List.of(List.of("ecmp", "1"), List.of("dnlb", "16"))) {
            double mean = summaries("ctccl-fig6e").stream().filter(r -> r.getKey().equals(List.of("all-reduce", e.get(0) + "-qp" + e.get(1))))
                    .mapToDouble(r -> r.getValue().get("collectives_mean").get("busbw_gbps").asDouble()).average().orElseThrow();
            assertThat(ours(pts, "workload = all-reduce", e.get(0), e.get(1))).isCloseTo(mean, within(1e-6 * mean));
        }
    }

    @Test
    void etherealImprovementAgainstSizeIsTheCellsImprovementWithThePapersNumbersAsMarkers(@TempDir Path tmp) throws IOException {
        List<CsvPoint> pts = drawStored("ethereal-fig3", 1, tmp);
        // one series per baseline the stored grid ran (the paper scale adds MP-RDMA-4 and -8)
        List<String> baselines;
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(Path.of("docs/results/ethereal-fig3/results.csv"))) {
            baselines = r.stream().map(rec -> rec.getField("set")).filter(set -> !set.equals("ethereal")).distinct()
                    .map(set -> "over " + set).toList();
        }
        assertThat(baselines).contains("over ecmp", "over spray", "over reps", "over mprdma-2");
        assertThat(pts.stream().filter(p -> p.source().equals("lbsim")).map(CsvPoint::series).distinct())
                .containsExactlyInAnyOrderElementsOf(baselines);
        String a2a = "workload.algorithm = all-to-all";
        assertThat(ours(pts, a2a, "over ecmp", "16MB")).isCloseTo(cellMean("ethereal-fig3", "all-to-all 16MB: Ethereal vs ECMP"), within(5e-4));
        assertThat(ours(pts, a2a, "over reps", "128MB")).isCloseTo(cellMean("ethereal-fig3", "all-to-all 128MB: Ethereal vs REPS"), within(5e-4));
        List<CsvPoint> paper = pts.stream().filter(p -> p.source().equals("paper")).toList();
        assertThat(paper).anySatisfy(p -> {
            assertThat(p.panel()).isEqualTo(a2a);
            assertThat(p.series()).isEqualTo("over ecmp");
            assertThat(p.x()).isEqualTo(16777216.0);
            assertThat(p.y()).isEqualTo(7.56);
        });
        assertThat(paper).anySatisfy(p -> {
            assertThat(p.panel()).isEqualTo("workload.algorithm = recursive-doubling");
            assertThat(p.series()).isEqualTo("over reps");
            assertThat(p.xLabel()).isEqualTo("256MB");
            assertThat(p.y()).isEqualTo(40.65);
        });
        // only improvements of Ethereal itself are points of this figure (not e.g. MP-RDMA-4 over MP-RDMA-2)
        assertThat(paper).allMatch(p -> p.series().startsWith("over ") && !p.series().equals("over ethereal"));
    }

    @Test
    void mcclurePutsEachStatedNumberOnTheFigureOfItsOwnField(@TempDir Path tmp) throws IOException {
        List<CsvPoint> fig1 = drawStored("mcclure-fig1-2", 1, tmp);
        assertThat(fig1.stream().filter(p -> p.source().equals("lbsim")).map(CsvPoint::x).distinct()).containsExactly(0.5, 0.75, 1.0);
        assertThat(fig1.stream().filter(p -> p.source().equals("paper"))).extracting(CsvPoint::series, CsvPoint::x, CsvPoint::y)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("host", 1.0, 1.24),
                        org.assertj.core.groups.Tuple.tuple("ecmp", 1.0, 1.41));
        assertThat(ours(fig1, "workload = ata", "host", "1.0")).isCloseTo(cellMean("mcclure-fig1-2", "host rate 1.0"), within(5e-4));
        // Fig. 1's ideal curve, size / sending rate, is 1 / r of the ideal at line rate, at each rate that ran
        assertThat(fig1.stream().filter(p -> p.source().equals("reference"))).extracting(CsvPoint::x, CsvPoint::y)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0.5, 2.0), org.assertj.core.groups.Tuple.tuple(0.75, 1.333333333),
                        org.assertj.core.groups.Tuple.tuple(1.0, 1.0));
        List<CsvPoint> fig2 = drawStored("mcclure-fig1-2", 2, tmp);
        assertThat(fig2.stream().filter(p -> p.source().equals("paper"))).extracting(CsvPoint::series, CsvPoint::y)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("host", 0.20));
    }

    @Test
    void xCanBeANumberInsideAGridLabel(@TempDir Path tmp) throws IOException {
        // "p16" = 16 flows per host (x column workload); "f4-tcp" = 4 permutations of series tcp (x in the series label)
        List<CsvPoint> fig6 = drawStored("mcclure-fig6", 1, tmp);
        assertThat(fig6.stream().filter(p -> p.source().equals("lbsim")).map(CsvPoint::x).distinct()).containsExactly(1.0, 4.0, 16.0, 64.0);
        assertThat(fig6.stream().filter(p -> p.source().equals("paper"))).isNotEmpty().allMatch(p -> p.x() == 1.0 && p.xLabel().equals("1"));
        assertThat(ours(fig6, "", "host", "1")).isCloseTo(cellMean("mcclure-fig6", "1 flow/host host"), within(5e-4));
        List<CsvPoint> fig9 = drawStored("mcclure-fig9-11", 1, tmp);
        assertThat(fig9.stream().map(CsvPoint::series).distinct())
                .containsExactlyInAnyOrder("tcp", "roce", "trim", "trim-rts", "erasure", "sf3", "sf6");
        assertThat(fig9.stream().filter(p -> p.series().equals("tcp")).map(CsvPoint::x)).containsExactly(1.0, 4.0);
        List<CsvPoint> variance = drawStored("ctccl-variance", 1, tmp);
        assertThat(variance.stream().filter(p -> p.source().equals("paper"))).extracting(CsvPoint::panel, CsvPoint::series, CsvPoint::x, CsvPoint::y)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("workload.ranks = 8-nodes", "ecmp", 8.0, 92.22),
                        org.assertj.core.groups.Tuple.tuple("workload.ranks = 8-nodes", "dnlb", 8.0, 0.06));
    }

    @Test
    void gridLabelsThatAreNoNumbersGiveNoChartButTheirNumbersStayInTheCsv(@TempDir Path tmp) throws IOException {
        Preset p = Presets.get("ctccl-fig6");
        SweepSpec spec = Reproduce.spec(p, "quick", List.of());
        // x = the scheme column, whose labels (nccl-ecmp, ctccl-dnlb) are not numbers; on a log axis too
        PaperFigure f = PaperFigure.grid("t", "load_balancer", "scheme", "collectives_mean.busbw_gbps", "busbw", "workload.size_bytes").bytes();
        List<PaperFigures.Panel> panels = PaperFigures.compute(p, f, spec, SweepData.read(ROOT.resolve(p.id()), spec.name()));
        assertThat(panels).isNotEmpty();
        assertThat(PaperFigures.draw(p, 1, f, panels, tmp)).isEmpty();
        assertThat(csv(tmp.resolve("paper-figure-1.csv"))).hasSize(8).allMatch(x -> Double.isNaN(x.x()));
    }

    @Test
    void storedResultsWithoutThroughputFilesGiveNoThroughputFigure(@TempDir Path tmp) throws IOException {
        Preset p = Presets.get("paralet-fig4");
        SweepSpec spec = Reproduce.spec(p, Provenance.read(ROOT.resolve(p.id())).scale(), List.of());
        // what the repository keeps of the stored folder (docs/results/.gitignore): the sweep and each run's summary.json,
        // whatever a local re-run left beside them
        Path dir = ROOT.resolve(p.id());
        Files.copy(dir.resolve("sweep.json"), tmp.resolve("sweep.json"));
        try (var runs = Files.list(dir.resolve("runs"))) {
            for (Path run : runs.toList()) {
                Files.createDirectories(tmp.resolve("runs").resolve(run.getFileName().toString()));
                Files.copy(run.resolve("summary.json"), tmp.resolve("runs").resolve(run.getFileName().toString()).resolve("summary.json"));
            }
        }
        assertThat(PaperFigures.compute(p, p.figures().get(0), spec, SweepData.read(tmp, spec.name()))).isEmpty();
    }

    @Test
    void throughputOverTimeIsTheMeanOverSeedsPerIntervalWithAFinishedRunCountingZero(@TempDir Path tmp) throws IOException {
        // a two-run sweep folder: one scheme, seeds 1 and 2; seed 2's run ends after one interval
        Files.writeString(tmp.resolve("sweep.json"), """
                {"columns": ["load_balancer"], "runs": [
                  {"key": "a1", "labels": ["ecmp"], "seed": 1}, {"key": "a2", "labels": ["ecmp"], "seed": 2}]}
                """);
        for (String k : List.of("a1", "a2")) {
            Files.createDirectories(tmp.resolve("runs").resolve(k));
            Files.writeString(tmp.resolve("runs").resolve(k).resolve("summary.json"), "{\"scenario\": \"t\"}");
        }
        Files.writeString(tmp.resolve("runs/a1/throughput.csv"), "time_us,gbps\n10.000,100.000\n20.000,50.000\n");
        Files.writeString(tmp.resolve("runs/a2/throughput.csv"), "time_us,gbps\n10.000,300.000\n");
        Preset p = Presets.get("paralet-fig4");
        PaperFigure f = PaperFigure.throughput("TT", "load_balancer");
        List<PaperFigures.Panel> panels = PaperFigures.compute(p, f, null, SweepData.read(tmp, "t"));
        assertThat(panels).hasSize(1);
        List<PaperFigures.Point> pts = panels.get(0).curves().get(0).ours();
        assertThat(pts).extracting(PaperFigures.Point::x).containsExactly(5.0, 15.0);   // interval midpoints, us
        assertThat(pts).extracting(PaperFigures.Point::y).containsExactly(200.0, 25.0);
        List<PaperFigures.Drawn> drawn = PaperFigures.draw(p, 1, f, panels, tmp.resolve("plots"));
        assertThat(drawn).hasSize(1);
        assertThat(csv(tmp.resolve("plots/paper-figure-1.csv"))).extracting(CsvPoint::y).containsExactly(200.0, 25.0);
    }

    static Stream<Preset> withFigures() {
        return Presets.all().stream().filter(p -> !p.figures().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("withFigures")
    void everyFigureNamesColumnsOfBothScalesGrids(Preset p) {
        for (String scale : Preset.SCALES) {
            List<String> cols = Reproduce.spec(p, scale, List.of()).columns();
            for (PaperFigure f : p.figures()) {
                assertThat(cols).as("%s %s: %s", p.id(), scale, f.title()).contains(f.series());
                if (f.x() != null) assertThat(cols).contains(f.x());
            }
        }
    }

    @Test
    void theFiguresTheIssueNamesAreDeclared() {
        for (String id : List.of("hopper-fig3", "hopper-fig4", "hopper-fig8", "paralet-fig4", "mcclure-fig1-2", "mcclure-fig8",
                "ctccl-fig6", "ctccl-fig6e", "ethereal-fig3", "ethereal-fig4", "mcclure-fig6", "mcclure-fig9-11", "ctccl-variance",
                "ethereal-fig7")) {
            assertThat(Presets.get(id).figures()).as(id).isNotEmpty();
        }
    }

    @Test
    void theReportShowsThePaperFigureAndLinksItsNumbers(@TempDir Path tmp) throws IOException {
        // a copy of the stored runs, so the report's charts are not written into docs/results
        Path src = ROOT.resolve("ctccl-fig6");
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.toList()) {
                Path to = tmp.resolve(src.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to);
                else Files.copy(f, to);
            }
        }
        Preset p = Presets.get("ctccl-fig6");
        SweepSpec spec = Reproduce.spec(p, "quick", List.of());
        Path page = ReproduceReport.write(p, "quick", spec, Reproduce.compare(p, spec, tmp), tmp);
        String html = Files.readString(page);
        assertThat(html).contains("The paper's figure").contains("Fig. 6(a): AllReduce busbw vs message size")
                .contains("plots/paper-figure-1-1.png").contains("href=\"plots/paper-figure-1.csv\"");
        assertThat(csv(tmp.resolve("plots/paper-figure-1.csv"))).anyMatch(x -> x.source().equals("paper"));
    }
}

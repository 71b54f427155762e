package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.experiment.SweepCharts;
import lbsim.experiment.reproduce.Preset;
import lbsim.experiment.reproduce.Presets;
import lbsim.experiment.reproduce.Reproduce;
import lbsim.metrics.plot.ReportCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.html of reproduce, sweep and merge: every chart resolves and decodes; the generic charts appear where the grid allows. */
class SweepReportTest {
    @TempDir
    Path tmp;

    @Test
    void aPresetWithASizeAxisGetsPaperBarsMetricBarsPerAlgorithmAndCctVsSize() throws Exception {
        Path out = tmp.resolve("eth");
        Outcome o = exec("reproduce", "ethereal-fig3", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.leaves=2", "--set", "topology.spines=2", "--set", "topology.hosts_per_leaf=2",
                "--set", "workload.size_bytes=65536");
        assertThat(o.code()).as(o.err()).isZero();
        List<String> refs = ReportCheck.assertSelfContained(out.resolve("report.html"));
        // the improvement cells that ran: one ours-vs-paper chart, and one for the value cell that ran (Ethereal's QPs);
        // the QP ratio cell needs MP-RDMA-8, which the quick grid does not run: no ratio chart; cct_ns per grid point,
        // one chart per algorithm; CCT vs size per algorithm (x = the resolved size, here the --set value)
        assertThat(refs).contains("results.csv", "comparison.csv", "plots/paper-improvement.png", "plots/paper-improvement.svg",
                "plots/paper-value.png", "plots/grid-cct_ns-1.png", "plots/grid-cct_ns-2.svg", "plots/cct-vs-size-1.png",
                "plots/cct-vs-size-2.svg");
        assertThat(refs).noneMatch(r -> r.contains("paper-ratio"));
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("id=\"charts\"", "workload.algorithm = all-to-all", "workload.algorithm = recursive-doubling",
                "Ethereal vs ECMP", "Differences from the paper");
    }

    @Test
    void aPresetWithoutASizeAxisGetsPaperBarsAndMetricBarsButNoCctVsSize() throws Exception {
        Path out = tmp.resolve("mc");
        Outcome o = exec("reproduce", "mcclure-table2", "--out", out.toString(), "--jobs", "2",
                "--set", "topology.k=4", "--set", "workload.size_bytes=16000", "--set", "transport.pfc=true");
        assertThat(o.code()).as(o.err()).isZero();
        List<String> refs = ReportCheck.assertSelfContained(out.resolve("report.html"));
        // normalised per grid point, one chart per workload (ata, perm), buffers on x, one colour per scheme
        // paper bars for the values and for the improvements (Table 2's claims across buffer sizes)
        assertThat(refs).contains("plots/paper-value.png", "plots/paper-improvement.png", "plots/grid-normalised-1.png",
                        "plots/grid-normalised-2.svg")
                .noneMatch(r -> r.contains("cct-vs-size") || r.contains("grid-normalised-3"));
        assertThat(Files.readString(out.resolve("report.html"))).contains("workload = ata", "workload = perm", "ata small host");
    }

    private static final String SWEEP = """
            name: sizes
            base:
              name: tiny
              topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
              workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 40000}
            grid:
              load_balancer.scheme: [ecmp, spray-host]
              workload.size_bytes: {20KB: 20000, 80KB: 80000}
            seeds: 2
            """;

    @Test
    void sweepAndMergeWriteAReportWithATablePerGridPointAndTheGenericCharts() throws Exception {
        Path f = tmp.resolve("sweep.yaml");
        Files.writeString(f, SWEEP);
        Path out = tmp.resolve("sw");
        Outcome o = exec("sweep", f.toString(), "--out", out.toString(), "--jobs", "2");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("report.html");
        List<String> refs = ReportCheck.assertSelfContained(out.resolve("report.html"));
        // one non-scheme column: a single bar chart (no facets); the size column gives CCT vs size, one line per scheme
        assertThat(refs).contains("results.csv", "plots/grid-normalised.png", "plots/grid-normalised.svg", "plots/cct-vs-size.png",
                "plots/cct-vs-size.svg");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("lbsim sweep: sizes", "8 of 8 runs finished", "<td class=\"l\">ecmp</td><td>20KB</td><td>2</td>");

        // shards report what they hold; the merge reports the whole sweep
        Path s0 = tmp.resolve("s0"), s1 = tmp.resolve("s1"), m = tmp.resolve("m");
        assertThat(exec("sweep", f.toString(), "--out", s0.toString(), "--shard", "0/2").code()).isZero();
        assertThat(exec("sweep", f.toString(), "--out", s1.toString(), "--shard", "1/2").code()).isZero();
        assertThat(Files.readString(s0.resolve("report.html"))).contains("4 of 8 runs finished");
        ReportCheck.assertSelfContained(s0.resolve("report.html"));
        Outcome mo = exec("merge", s0.toString(), s1.toString(), "--out", m.toString());
        assertThat(mo.code()).as(mo.err()).isZero();
        assertThat(ReportCheck.assertSelfContained(m.resolve("report.html"))).contains("plots/cct-vs-size.png");
        assertThat(Files.readString(m.resolve("report.html"))).contains("8 of 8 runs finished");
    }

    @Test
    void everyPresetsChartAxesAreColumnsOfEveryScale() {
        for (Preset p : Presets.all()) {
            for (String scale : Preset.SCALES) {
                List<String> cols = Reproduce.spec(p, scale, List.of()).columns();
                SweepCharts.Axes a = p.charts().resolve(cols);
                if (a.series() != null) assertThat(cols).as("%s %s", p.id(), scale).contains(a.series());
                if (a.size() != null) assertThat(cols).as("%s %s", p.id(), scale).contains(a.size());
            }
        }
        assertThat(Presets.get("ethereal-fig3").charts().resolve(Reproduce.spec(Presets.get("ethereal-fig3"), "quick", List.of()).columns()))
                .isEqualTo(new SweepCharts.Axes("set", "workload.size_bytes"));
        assertThat(Presets.get("mcclure-table2").charts().resolve(Reproduce.spec(Presets.get("mcclure-table2"), "quick", List.of()).columns()))
                .isEqualTo(new SweepCharts.Axes("load_balancer.scheme", null));
    }
}

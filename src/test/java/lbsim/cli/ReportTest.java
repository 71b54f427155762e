package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.metrics.plot.ReportCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.html of `run` and `compare`: every image and link resolves in the output directory and decodes. */
class ReportTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private Path scenario(String yaml) throws Exception {
        return RunCommandTest.writeScenario(tmp, yaml);
    }

    @Test
    void runReportHasHeatMapsAndFctChartsThatAllResolve() throws Exception {
        Path out = tmp.resolve("run");
        var o = RunCommandTest.exec("run", scenario("""
                name: tiny
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 100000}
                """).toString(), "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        List<String> refs = ReportCheck.assertSelfContained(out.resolve("report.html"));
        assertThat(refs).contains("plots/fct-cdf.png", "plots/fct-cdf.svg", "plots/fct-slowdown.png", "plots/throughput.png",
                "plots/qps.png", "plots/util-leaf-spine.png", "plots/util-spine-leaf.svg", "plots/util-h-leaf.png");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("tiny", "ecmp", "max QPs per NIC");
        // one collective: its CCT; comm_time_ns and sim_time_ns are in the table; no empty header row
        assertThat(html).contains("<td class=\"l\">CCT (us)</td>", "communication time (us", "simulated time (us)",
                "Host links: colour scale", "Fabric links: colour scale").doesNotContain("<th></th>");
    }

    @Test
    void compareReportHasNormalisedBarsQpsAndAHeatMapPerScheme() throws Exception {
        Path out = tmp.resolve("cmp");
        var o = RunCommandTest.exec("compare", scenario("""
                name: tiny-ft
                topology: {kind: fat-tree, k: 4}
                workload: {kind: permutation, size_bytes: 30000}
                """).toString(), "--schemes", "ecmp,ethereal", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        List<String> refs = ReportCheck.assertSelfContained(out.resolve("report.html"));
        assertThat(refs).contains("plots/normalised.png", "plots/fct-cdf.png", "plots/qps.png", "plots/throughput.png",
                "plots/util-ecmp-tor-agg.png", "plots/util-ethereal-agg-core.png", "plots/util-ethereal-core-agg.svg");
        // fabric links only in the comparison: no host panels
        assertThat(refs).noneMatch(r -> r.contains("-h-") || r.endsWith("-h.png"));
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<table>", "ethereal", "normalised", "plots/normalised.pdf");
        // a table of contents that links one section per scheme, each holding that scheme's heat maps
        assertThat(html).contains("<nav class=\"toc\">", ">Per scheme</a>", ">ecmp</a>", ">ethereal</a>");
        int ecmp = html.indexOf("\">ecmp</h3>"), ethereal = html.indexOf("\">ethereal</h3>");
        assertThat(ecmp).isPositive().isLessThan(ethereal);
        assertThat(html.indexOf("plots/util-ecmp-tor-agg.png")).isBetween(ecmp, ethereal);
        assertThat(html.indexOf("plots/util-ethereal-tor-agg.png")).isGreaterThan(ethereal);
    }

    /** A link failure and its detection are on the time axis of the throughput chart, in the run and the compare report. */
    @Test
    void failuresAreMarkedOnTheThroughputChart() throws Exception {
        Path f = scenario("""
                name: fail
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
                workload: {kind: permutation, size_bytes: 2000000}
                failures: [{at_us: 50, link: "leaf0-spine1", kind: down, detect_ms: 0.1}]
                nic: {retry_count: 0}
                """);
        Path run = tmp.resolve("run"), cmp = tmp.resolve("cmp");
        assertThat(RunCommandTest.exec("run", f.toString(), "--out", run.toString()).code()).isZero();
        assertThat(Files.readString(run.resolve("report.html")))
                .contains("Dashed lines: the run's events (events.csv): link-down leaf0-spine1 at 50.0 us; link-detected leaf0-spine1 at 150.0 us;");
        assertThat(RunCommandTest.exec("compare", f.toString(), "--schemes", "ecmp,spray-host", "--seeds", "1", "--out", cmp.toString()).code()).isZero();
        assertThat(Files.readString(cmp.resolve("report.html")))
                .contains("Dashed lines: the scenario's link events (events.csv): link-down leaf0-spine1 at 50.0 us; link-detected leaf0-spine1 at 150.0 us;");
    }
}

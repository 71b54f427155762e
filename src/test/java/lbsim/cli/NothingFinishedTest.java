package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.metrics.plot.ReportCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run, compare, sweep and merge over a run in which no flow finishes: the console says so
 * instead of printing NaN or 0, the CSVs leave the undefined fields empty, and the reports
 * neither crash nor average the missing values as 0.
 */
class NothingFinishedTest {
    @TempDir
    Path tmp;

    /** Every uplink of the source's leaf is down from t = 0. */
    private static final String STRANDED = """
            name: stranded
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            max_time_ms: 5
            workload: {kind: flows, flows: [{src: 0, dst: 3, size_bytes: 20000}]}
            failures: [{at_us: 0, link: "leaf0-spine*", kind: down, detect_ms: 0}]
            """;

    private Path file(String name, String text) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void runSaysNoFlowFinishedAndWritesNoNaN() throws Exception {
        Path out = tmp.resolve("run");
        Outcome o = exec("run", file("s.yaml", STRANDED).toString(), "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("ecmp: INCOMPLETE, no flow finished, drops").doesNotContain("NaN").doesNotContain("0.0 us");
        assertThat(Files.readString(out.resolve("summary.json"))).doesNotContain("NaN");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("no flow finished").doesNotContain("NaN");
        ReportCheck.assertSelfContained(out.resolve("report.html"));
    }

    @Test
    void aPartlyFinishedRunNamesHowManyFlowsItsFctsCover() throws Exception {
        String two = STRANDED.replace("size_bytes: 20000}]", "size_bytes: 20000}, {src: 0, dst: 1, size_bytes: 20000}]");
        Outcome o = exec("run", file("s.yaml", two).toString(), "--out", tmp.resolve("run").toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("ecmp: INCOMPLETE (1 of 2 flows finished), FCT p50 ").doesNotContain("NaN");
    }

    @Test
    void compareShowsDashesAndLeavesTheCsvCellsEmpty() throws Exception {
        Path out = tmp.resolve("cmp");
        Outcome o = exec("compare", file("s.yaml", STRANDED).toString(), "--schemes", "ecmp,dnlb", "--jobs", "1", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).doesNotContain("NaN");
        String ecmpRow = o.out().lines().filter(l -> l.startsWith("ecmp ")).findFirst().orElseThrow();
        // completion, x ideal, FCT p50 and p99 are undefined
        assertThat(Arrays.asList(ecmpRow.trim().split("\\s+")).subList(1, 5)).containsOnly("-");
        List<String> csv = Files.readString(out.resolve("compare.csv")).lines().toList();
        lbsim.StrictCsv.inferTypes(lbsim.StrictCsv.read(out.resolve("compare.csv")), false);
        List<String> header = List.of(csv.get(0).split(",", -1));
        List<String> row = List.of(csv.get(1).split(",", -1));
        for (String f : List.of("normalised", "cct_ns", "flows.fct_ns.mean", "flows.fct_ns.p50", "flows.fct_ns.p99", "flows.fct_ns.max")) {
            assertThat(row.get(header.indexOf(f))).as(f).isEmpty();
        }
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).doesNotContain("NaN");
        ReportCheck.assertSelfContained(out.resolve("report.html"));
    }

    @Test
    void compareSaysWhyEveryRowIsBlankWhenNoSchemeCompletes() throws Exception {
        Outcome o = exec("compare", file("s.yaml", STRANDED).toString(), "--schemes", "ecmp,dnlb", "--seeds", "2", "--jobs", "1",
                "--no-report", "--out", tmp.resolve("cmp").toString());
        assertThat(o.code()).as(o.err()).isZero();
        for (String scheme : List.of("ecmp ", "dnlb ")) {
            String row = o.out().lines().filter(l -> l.startsWith(scheme)).findFirst().orElseThrow();
            assertThat(row).endsWith("incomplete");
        }
        // the run's own end-of-run warning, once per scheme, with the other seed that did not complete
        assertThat(o.err()).contains("lbsim: warning: ecmp seed 1 did not complete (also incomplete: seed 2): stopped at 0.01 ms, before max_time_ms=5.0: 1 undelivered flows have no path left")
                .contains("lbsim: warning: dnlb seed 1 did not complete (also incomplete: seed 2): ");
    }

    /** One grid point where nothing finishes (1 us is too short for 20 kB) and one where everything does. */
    private static final String SWEEP = """
            name: short
            base:
              name: tiny
              topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
              workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 20000}]}
            grid:
              max_time_ms: [0.001, 5]
            seeds: 2
            """;

    @Test
    void sweepAndMergeLeaveUndefinedFieldsEmptyAndReportOnlyDefinedMeans() throws Exception {
        Path f = file("sweep.yaml", SWEEP);
        Path out = tmp.resolve("sw");
        Outcome o = exec("sweep", f.toString(), "--out", out.toString(), "--jobs", "2");
        assertThat(o.code()).as(o.err()).isZero();
        List<String> csv = Files.readString(out.resolve("results.csv")).lines().toList();
        lbsim.StrictCsv.inferTypes(lbsim.StrictCsv.read(out.resolve("results.csv")), false);   // one type per column, unfinished runs too
        assertThat(csv).hasSize(1 + 4);
        List<String> header = List.of(csv.get(0).split(",", -1));
        int p99 = header.indexOf("flows.fct_ns.p99");
        for (String line : csv.subList(1, 5)) {
            String[] cells = line.split(",", -1);
            if (cells[0].equals("0.001")) assertThat(cells[p99]).isEmpty();
            else assertThat(Long.parseLong(cells[p99])).isPositive();
        }
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).doesNotContain("NaN");
        ReportCheck.assertSelfContained(out.resolve("report.html"));
        // the 1 us point's normalised and FCT cells are empty in the table, not 0
        assertThat(html).contains("<th>normalised (completion / ideal)</th><th>flows.fct.p50 (us)</th><th>flows.fct.p99 (us)</th>",
                "<tr><td class=\"l\">0.001</td><td>2</td><td></td><td></td><td></td><td>0</td>");

        Path s0 = tmp.resolve("s0"), s1 = tmp.resolve("s1"), m = tmp.resolve("m");
        assertThat(exec("sweep", f.toString(), "--out", s0.toString(), "--shard", "0/2").code()).isZero();
        assertThat(exec("sweep", f.toString(), "--out", s1.toString(), "--shard", "1/2").code()).isZero();
        Outcome mo = exec("merge", s0.toString(), s1.toString(), "--out", m.toString());
        assertThat(mo.code()).as(mo.err()).isZero();
        assertThat(Files.readString(m.resolve("results.csv"))).isEqualTo(Files.readString(out.resolve("results.csv")));
        ReportCheck.assertSelfContained(m.resolve("report.html"));
    }
}

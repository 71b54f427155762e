package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import lbsim.OutputsDoc;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.experiment.ScenarioLoader;
import lbsim.experiment.Scenarios;
import lbsim.experiment.Sweep;
import lbsim.metrics.ResultWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every CSV that compare and sweep write (compare.csv, results.csv and each run's files) and every
 * stored reproduction's CSV (results.csv, comparison.csv, sensitivity.csv) read strictly and hold
 * exactly the columns, in order and of the types, that docs/outputs.md documents; the flattened
 * summary columns are summary.json fields of its field table, which is itself checked against what
 * runs write (every field documented with its type, and every documented field written by some run).
 */
class OutputFilesSchemaTest {
    @TempDir
    Path tmp;

    /** A collective with its step timeline; conweave adds its counters (lb.*), which ecmp's row leaves empty. */
    private static final String COLLECTIVE = """
            name: schema
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 60000}
            metrics: {steps: true, series: {links: "leaf*-spine*", interval_us: 5}}
            """;

    /** Two grid columns, one of them text and one of integers, over an open-loop workload (slowdown fields). */
    private static final String SWEEP = """
            name: schema-sweep
            base:
              topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
              transport: {cc: dctcp}
              workload: {kind: open-loop, distribution: hadoop, load: 0.5, duration_us: 40}
            grid:
              load_balancer.scheme: [ecmp, hopper]
              topology.port_buffer_bytes: [65536, 262144]
            """;

    private static List<Path> files(Path dir, String name) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(name)).sorted().toList();
        }
    }

    /** Checks every CSV and summary.json under {@code dir}; returns the summary fields seen as CSV columns. */
    private static Set<OutputsDoc.Field> checkAll(OutputsDoc doc, Path dir, boolean means) throws Exception {
        Set<OutputsDoc.Field> columns = new LinkedHashSet<>();
        List<String> grid = Files.exists(dir.resolve("sweep.json")) ? gridColumns(dir.resolve("sweep.json")) : List.of();
        for (Path csv : files(dir, ".csv")) columns.addAll(doc.check(csv, grid, means && csv.getFileName().toString().equals("compare.csv"), true));
        for (Path s : files(dir, "summary.json")) doc.checkSummary(Sweep.readSummary(s), s);
        return columns;
    }

    private static List<String> gridColumns(Path sweepJson) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : Sweep.readSummary(sweepJson).path("columns")) out.add(c.asString());
        return out;
    }

    @Test
    void compareAndSweepWriteOnlyDocumentedColumns() throws Exception {
        OutputsDoc doc = OutputsDoc.read();
        Path scenario = RunCommandTest.writeScenario(tmp, COLLECTIVE);
        Path two = tmp.resolve("two"), one = tmp.resolve("one"), sweep = tmp.resolve("sweep");
        Outcome o = exec("compare", scenario.toString(), "--schemes", "ecmp,conweave", "--seeds", "2", "--no-report", "--out", two.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(exec("compare", scenario.toString(), "--schemes", "ecmp,conweave", "--seeds", "1", "--no-report", "--out", one.toString()).code())
                .isZero();
        Path sweepFile = tmp.resolve("sweep.yaml");
        Files.writeString(sweepFile, SWEEP);
        o = exec("sweep", sweepFile.toString(), "--no-report", "--out", sweep.toString());
        assertThat(o.code()).as(o.err()).isZero();

        Set<OutputsDoc.Field> seen = new LinkedHashSet<>(checkAll(doc, two, true));
        seen.addAll(checkAll(doc, one, false));
        seen.addAll(checkAll(doc, sweep, false));
        // the runs really wrote every kind of file, and the CSVs the conditional fields
        for (String f : List.of("flows.csv", "links.csv", "throughput.csv", "events.csv", "link_series.csv", "steps.csv")) {
            assertThat(files(two, f)).as(f).hasSize(4);
        }
        assertThat(files(sweep, "results.csv")).hasSize(1);
        assertThat(seen).extracting(OutputsDoc.Field::path).contains("collectives.<group>.busbw_GBps", "lb.reorder_flushes", "lb.probes",
                "flows.slowdown_bins.<min_bytes>.p99", "link_classes.<class>.mean_utilisation", "cnps");
        // with several seeds every numeric summary column is a decimal (a mean); with one, counts stay integers
        assertThat(Files.readString(two.resolve("compare.csv")).lines().skip(1)).allMatch(l -> l.contains(",2,"));
        var twoTypes = lbsim.StrictCsv.inferTypes(lbsim.StrictCsv.read(two.resolve("compare.csv")), false);
        var oneTypes = lbsim.StrictCsv.inferTypes(lbsim.StrictCsv.read(one.resolve("compare.csv")), false);
        assertThat(twoTypes.get("packets.sent").kind()).isEqualTo("decimal");
        assertThat(oneTypes.get("packets.sent")).isEqualTo(lbsim.StrictCsv.Type.INTEGER);
    }

    /**
     * The summary.json table is what runs write: every field of these runs is documented with its
     * JSON type, and every documented field has a value in one of them (a field that stops being
     * written, or a new one, fails here); every scheme runs once, so no scheme writes a field the doc lacks.
     */
    @Test
    void everyDocumentedSummaryFieldIsWrittenAndNoOther() throws Exception {
        OutputsDoc doc = OutputsDoc.read();
        String base = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}\n";
        List<String> scenarios = List.of(
                // collectives, comm time, conweave with its hardware limits (every conweave counter)
                base + "workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 60000}\n"
                        + "load_balancer: {scheme: conweave, reorder_queues_per_port: 2, flow_table_entries: 64}\n",
                // open loop (slowdowns), hopper's counters, a failure during the run (before / after values)
                base + "transport: {cc: dctcp}\nworkload: {kind: open-loop, distribution: hadoop, load: 0.5, duration_us: 40}\n"
                        + "load_balancer: {scheme: hopper}\nfailures: [{at_us: 10, link: \"leaf0-spine1\", kind: down, detect_ms: 0.01}]\n",
                // plb's counters
                base + "workload: {kind: permutation, size_bytes: 20000}\nload_balancer: {scheme: plb}\n",
                // adaptive retransmission (its settings in nic)
                base + "workload: {kind: permutation, size_bytes: 20000}\nnic: {profile: roce, adaptive_retransmission: true}\n",
                // a windowed receiver, and a QP that runs out of retries behind a failed link (failed_qp)
                "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}\n"
                        + "workload: {kind: permutation, size_bytes: 20000}\ntransport: {timeout_us: 20}\n"
                        + "nic: {reorder: window, retry_count: 1}\nfailures: [{at_us: 0, link: \"leaf0-spine1\", kind: down, detect_ms: 100}]\n");
        List<String> all = new ArrayList<>(scenarios);
        // and every scheme, so a counter a scheme adds to lb is documented
        for (String scheme : lbsim.lb.Schemes.available()) {
            all.add(base + "workload: {kind: permutation, size_bytes: 20000}\nload_balancer: {scheme: " + scheme + "}\n");
        }
        Set<String> valued = new LinkedHashSet<>();
        for (String sc : all) {
            JsonNode summary = ScenarioLoader.yaml().readTree(ResultWriter.summaryJson(Scenarios.run(sc)));
            for (OutputsDoc.Field f : doc.checkSummary(summary, Path.of("summary.json"))) valued.add(f.path());
        }
        assertThat(valued).as("documented fields with a value in some run").containsExactlyInAnyOrderElementsOf(
                doc.fields().stream().map(OutputsDoc.Field::path).toList());
    }

    /** Stored reproductions (docs/results) were written by lbsim too: their CSVs are read strictly against the doc (columns of an older lbsim may be missing). */
    @Test
    void storedReproductionCsvsHoldOnlyDocumentedColumns() throws Exception {
        OutputsDoc doc = OutputsDoc.read();
        int checked = 0;
        for (Path csv : files(Path.of("docs/results"), ".csv")) {
            // only what the repository keeps (docs/results/.gitignore): plots and per-run files are re-drawn locally,
            // possibly by an older build, and a clean clone has none
            if (java.util.stream.StreamSupport.stream(csv.spliterator(), false).anyMatch(n -> n.toString().equals("plots")
                    || n.toString().equals("runs"))) continue;
            Path sweepJson = csv.resolveSibling("sweep.json");
            doc.check(csv, Files.exists(sweepJson) ? gridColumns(sweepJson) : List.of(), false, false);
            checked++;
        }
        assertThat(checked).isGreaterThan(100);
    }

    /** The check fails on an undocumented column, on a documented one that is gone, on a cell of another type, and on a field the doc drops. */
    @Test
    void theCheckFailsOnAnUndocumentedOrMissingColumn() throws Exception {
        OutputsDoc doc = OutputsDoc.read();
        Path out = tmp.resolve("cmp");
        assertThat(exec("compare", RunCommandTest.writeScenario(tmp, COLLECTIVE).toString(), "--schemes", "ecmp", "--seeds", "1", "--no-report",
                "--out", out.toString()).code()).isZero();
        Path csv = out.resolve("compare.csv");
        lbsim.StrictCsv.Table t = lbsim.StrictCsv.read(csv);
        doc.check(csv, List.of(), false, true);
        Path bad = tmp.resolve("bad").resolve("compare.csv");
        Files.createDirectories(bad.getParent());
        // a new summary field nobody documented
        write(bad, insert(t, "seeds", "flows.fct_ns.p999", "7"));
        assertThatThrownBy(() -> doc.check(bad, List.of(), false, true)).hasMessageContaining("flows.fct_ns.p999");
        // a documented field that is always there, gone
        write(bad, drop(t, "packets.sent"));
        assertThatThrownBy(() -> doc.check(bad, List.of(), false, true)).hasMessageContaining("packets.sent");
        // a column of the comparison that is gone
        write(bad, drop(t, "within_noise_of_best"));
        assertThatThrownBy(() -> doc.check(bad, List.of(), false, true)).hasMessageContaining("within_noise_of_best");
        // an integer field holding a decimal
        write(bad, replace(t, "packets.sent", "12.5"));
        assertThatThrownBy(() -> doc.check(bad, List.of(), false, true)).hasMessageContaining("packets.sent").hasMessageContaining("12.5");
        // an always-there field left empty
        write(bad, replace(t, "ideal_cct_ns", ""));
        assertThatThrownBy(() -> doc.check(bad, List.of(), false, true)).hasMessageContaining("ideal_cct_ns").hasMessageContaining("empty");
        // a run file with a column too many
        Path flows = out.resolve("ecmp").resolve("flows.csv"), badFlows = tmp.resolve("bad").resolve("flows.csv");
        Files.writeString(badFlows, Files.readString(flows).lines().map(l -> l + ",x").reduce((a, b) -> a + "\n" + b).orElseThrow() + "\n");
        assertThatThrownBy(() -> doc.check(badFlows, List.of(), false, true)).hasMessageContaining("undocumented columns");
        // the doc without a field's row: the file lbsim wrote no longer passes
        String text = Files.readString(Path.of("docs/outputs.md"));
        OutputsDoc less = OutputsDoc.parse(text.replaceAll("(?m)^\\| `packets.trimmed` .*\\n", ""));
        assertThatThrownBy(() -> less.check(csv, List.of(), false, true)).hasMessageContaining("packets.trimmed");
        assertThatThrownBy(() -> less.checkSummary(Sweep.readSummary(out.resolve("ecmp/summary.json")), csv)).hasMessageContaining("packets.trimmed");
    }

    private static List<List<String>> rows(lbsim.StrictCsv.Table t) {
        List<List<String>> all = new ArrayList<>();
        all.add(new ArrayList<>(t.header()));
        for (List<String> r : t.rows()) all.add(new ArrayList<>(r));
        return all;
    }

    /** The table with a column named {@code name} holding {@code value} inserted before {@code before}. */
    private static List<List<String>> insert(lbsim.StrictCsv.Table t, String before, String name, String value) {
        int c = t.header().indexOf(before);
        List<List<String>> all = rows(t);
        for (int i = 0; i < all.size(); i++) all.get(i).add(c, i == 0 ? name : value);
        return all;
    }

    private static List<List<String>> drop(lbsim.StrictCsv.Table t, String column) {
        int c = t.header().indexOf(column);
        assertThat(c).as(column).isNotNegative();
        List<List<String>> all = rows(t);
        for (List<String> r : all) r.remove(c);
        return all;
    }

    private static List<List<String>> replace(lbsim.StrictCsv.Table t, String column, String value) {
        int c = t.header().indexOf(column);
        List<List<String>> all = rows(t);
        all.get(1).set(c, value);
        return all;
    }

    private static void write(Path file, List<List<String>> rows) throws Exception {
        try (var csv = de.siegmar.fastcsv.writer.CsvWriter.builder().lineDelimiter(de.siegmar.fastcsv.writer.LineDelimiter.LF).build(file)) {
            for (List<String> r : rows) csv.writeRecord(r);
        }
    }
}

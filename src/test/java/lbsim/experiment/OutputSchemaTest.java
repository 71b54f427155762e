package lbsim.experiment;

import static lbsim.StrictCsv.Type.INTEGER;
import static lbsim.StrictCsv.Type.TEXT;
import static lbsim.StrictCsv.Type.decimal;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.StrictCsv;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every CSV a run writes loads with a strict typed reader (each column one type, decimals with one
 * number of places, missing values as empty cells) and has exactly the columns and types that
 * docs/outputs.md documents; the schema is declared here once and the doc is checked against it.
 */
class OutputSchemaTest {
    @TempDir
    Path tmp;

    private static Map<String, StrictCsv.Type> cols(Object... nameType) {
        Map<String, StrictCsv.Type> m = new LinkedHashMap<>();
        for (int i = 0; i < nameType.length; i += 2) m.put((String) nameType[i], (StrictCsv.Type) nameType[i + 1]);
        return m;
    }

    static final Map<String, Map<String, StrictCsv.Type>> SCHEMA = Map.of(
            "flows.csv", cols("id", INTEGER, "src", INTEGER, "dst", INTEGER, "size_bytes", INTEGER, "group", INTEGER, "qps", INTEGER,
                    "start_ns", decimal(3), "finish_ns", decimal(3), "fct_ns", decimal(3), "fct_ack_ns", decimal(3),
                    "retransmitted_packets", INTEGER, "timeouts", INTEGER, "path_changes", INTEGER, "lost_packets", INTEGER,
                    "label", TEXT, "slowdown", decimal(4)),
            "links.csv", cols("link", TEXT, "link_id", TEXT, "from", TEXT, "to", TEXT, "gbps", decimal(3), "bytes", INTEGER,
                    "utilisation", decimal(4), "max_queue_bytes", INTEGER, "drops", INTEGER, "ecn_marks", INTEGER, "pfc_pauses", INTEGER,
                    "paused_us", decimal(3), "state", TEXT, "state_since_ns", decimal(3)),
            "throughput.csv", cols("time_us", decimal(3), "gbps", decimal(3)),
            "events.csv", cols("time_ns", INTEGER, "kind", TEXT, "subject", TEXT, "detail", TEXT),
            "link_series.csv", cols("time_us", decimal(3), "link_id", TEXT, "utilisation", decimal(4), "queue_bytes", INTEGER,
                    "pfc_paused", decimal(4), "ecn_marks", INTEGER, "cnps", INTEGER),
            "steps.csv", cols("group", INTEGER, "collective", TEXT, "step", INTEGER, "step_name", TEXT, "rank", INTEGER, "host", INTEGER,
                    "start_ns", decimal(3), "end_ns", decimal(3), "bytes", INTEGER, "flows", INTEGER));

    /**
     * Open-loop flows (slowdowns), a time limit that leaves some unfinished (empty cells), a link
     * that fails and one that degrades (events, link states), PFC, and a link series.
     */
    static final String SCENARIO = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: dctcp, pfc: true}
            workload: {kind: open-loop, distribution: hadoop, load: 0.9, duration_us: 300}
            failures: [{at_us: 20, link: "leaf0-spine1", kind: down, detect_ms: 0.05},
                       {at_us: 30, link: "leaf1-spine0", kind: degrade, capacity_fraction: 0.5}]
            metrics: {series: {links: "leaf*-spine*", interval_us: 5}}
            max_time_ms: 0.25
            """;

    /** A collective with its step timeline, CNPs and a time limit that leaves its later steps unfinished (empty cells). */
    static final String COLLECTIVE = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: dcqcn, pfc: true}
            workload: {kind: collective, op: all-reduce, algorithm: direct, size_bytes: 4194304, channels: 2}
            metrics: {steps: true, series: {links: "h*", interval_us: 5}}
            max_time_ms: 0.95
            """;

    @Test
    void everyCsvOfARunLoadsTypedAndMatchesTheSchema() throws Exception {
        ResultWriter.write(Scenarios.run(SCENARIO), tmp);
        Path collective = tmp.resolve("collective");
        ResultWriter.write(Scenarios.run(COLLECTIVE), collective);
        java.util.Set<String> written = new java.util.TreeSet<>();
        for (Path dir : List.of(tmp, collective)) {
            try (var files = Files.list(dir)) {
                List<String> csvs = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".csv")).toList();
                written.addAll(csvs);
                for (String name : csvs) {
                    assertThat(SCHEMA).as("%s has a declared schema", name).containsKey(name);
                    StrictCsv.Table t = StrictCsv.read(dir.resolve(name));
                    if (dir == tmp || name.equals("steps.csv")) assertThat(t.rows()).as(name).isNotEmpty();   // the collective has no events
                    StrictCsv.inferTypes(t, true);
                    StrictCsv.check(t, SCHEMA.get(name));
                }
            }
        }
        assertThat(written).containsExactlyInAnyOrderElementsOf(SCHEMA.keySet());
        StrictCsv.Table steps = StrictCsv.read(collective.resolve("steps.csv"));
        int end = steps.header().indexOf("end_ns");
        assertThat(steps.rows()).as("unfinished and finished steps").anyMatch(row -> row.get(end).isEmpty())
                .anyMatch(row -> !row.get(end).isEmpty());
        StrictCsv.Table series = StrictCsv.read(collective.resolve("link_series.csv"));
        int cnps = series.header().indexOf("cnps");
        assertThat(series.rows()).as("some interval carried CNPs").anyMatch(row -> !row.get(cnps).equals("0"));
        // the run really has the cases the file formats must carry: missing values and both kinds of number
        StrictCsv.Table flows = StrictCsv.read(tmp.resolve("flows.csv"));
        int finish = flows.header().indexOf("finish_ns");
        assertThat(flows.rows()).anyMatch(row -> row.get(finish).isEmpty()).anyMatch(row -> !row.get(finish).isEmpty());
        assertThat(Files.readString(tmp.resolve("events.csv"))).contains("link-down", "link-detected", "link-degraded");
        assertThat(Files.readString(tmp.resolve("links.csv"))).contains(",down,", ",degraded,", ",up,");
    }

    /** Same scenario and seed: every CSV, events.csv, link_series.csv and steps.csv included, is byte-identical. */
    @Test
    void sameScenarioAndSeedWriteIdenticalCsvs() throws Exception {
        for (String sc : List.of(SCENARIO, COLLECTIVE)) {
            Path a = tmp.resolve("a"), b = tmp.resolve("b");
            ResultWriter.write(Scenarios.run(sc), a);
            ResultWriter.write(Scenarios.run(sc), b);
            for (String f : SCHEMA.keySet()) {
                if (Files.exists(a.resolve(f))) assertThat(Files.readString(b.resolve(f))).as(f).isEqualTo(Files.readString(a.resolve(f)));
            }
        }
    }

    /** docs/outputs.md has a table per CSV a run writes, naming each column and its type exactly as the schema does. */
    @Test
    void theDocDescribesTheSchema() throws Exception {
        String doc = Files.readString(Path.of("docs/outputs.md"));
        for (var e : SCHEMA.entrySet()) {
            Matcher section = Pattern.compile("(?ms)^## `" + Pattern.quote(e.getKey()) + "`\\n(.*?)(?=^## |\\z)").matcher(doc);
            assertThat(section.find()).as("docs/outputs.md section for %s", e.getKey()).isTrue();
            Map<String, String> documented = new LinkedHashMap<>();
            Matcher row = Pattern.compile("(?m)^\\| `([a-z_]+)` \\| ([^|]+?) \\|").matcher(section.group(1));
            while (row.find()) documented.put(row.group(1), row.group(2));
            Map<String, String> declared = new LinkedHashMap<>();
            e.getValue().forEach((k, v) -> declared.put(k, v.toString()));
            assertThat(documented).as(e.getKey()).containsExactlyEntriesOf(declared);
        }
    }

    /** A column of counts and one of times stay one type each when the run has both finished and unfinished flows. */
    @Test
    void theStrictReaderRefusesAMixedColumn() throws Exception {
        Path f = tmp.resolve("mixed.csv");
        Files.writeString(f, "fct_ns\n0\n693125.440\n");
        StrictCsv.Table t = StrictCsv.read(f);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StrictCsv.inferTypes(t, true)).hasMessageContaining("mixes");
        Files.writeString(f, "fct_ns\n0.12\n693125.440\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StrictCsv.inferTypes(StrictCsv.read(f), true)).hasMessageContaining("mixes");
        Files.writeString(f, "fct_ns\n0.125\n\n693125.440\n");
        assertThat(StrictCsv.inferTypes(StrictCsv.read(f), true).get("fct_ns")).isEqualTo(decimal(3));
        assertThat(List.of(StrictCsv.typeOf("-1"), StrictCsv.typeOf("x1"))).containsExactly(INTEGER, TEXT);
    }
}

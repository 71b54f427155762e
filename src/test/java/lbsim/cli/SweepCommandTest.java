package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lbsim.cli.RunCommandTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sweep, merge: resumability, shards, determinism independent of --jobs, bad input. */
class SweepCommandTest {
    @TempDir
    Path tmp;

    private static final String SWEEP = """
            base:
              name: tiny
              topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 3}
              workload: {kind: permutation, size_bytes: 30000}
            grid:
              load_balancer.scheme: [ecmp, spray-host]
              topology.spines: [2, 3]
            seeds: 3
            """;

    private Path sweepFile(String text) throws Exception {
        Path f = tmp.resolve("sweep.yaml");
        Files.writeString(f, text);
        return f;
    }

    private String sweep(Path file, String out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("sweep", file.toString(), "--out", tmp.resolve(out).toString()));
        args.addAll(List.of(extra));
        Outcome o = exec(args.toArray(String[]::new));
        assertThat(o.code()).as(o.err()).isZero();
        return Files.readString(tmp.resolve(out).resolve("results.csv"));
    }

    /** The audit's sw6 into sw1's folder: it ran, and the other sweep's runs stayed in runs/. Resuming and extending still work. */
    @Test
    void aFolderHoldingAnotherSweepIsExitTwoButItsOwnSweepResumesAndGrows() throws Exception {
        String small = SWEEP.replace("seeds: 3", "seeds: 1");
        sweep(sweepFile(small), "dir");
        sweep(sweepFile(small), "dir"); // resume: nothing to run
        sweep(sweepFile(SWEEP.replace("seeds: 3", "seeds: 2")), "dir"); // more seeds: the old runs are part of it
        Outcome other = exec("sweep", sweepFile(SWEEP.replace("[ecmp, spray-host]", "[reps]")).toString(), "--out",
                tmp.resolve("dir").toString());
        assertThat(other.code()).isEqualTo(2);
        assertThat(other.err()).contains("--out " + tmp.resolve("dir") + ": holds another sweep or preset", "use another --out")
                .doesNotContain("Exception");
        try (Stream<Path> runs = Files.list(tmp.resolve("dir").resolve("runs"))) {
            assertThat(runs.map(p -> p.getFileName().toString())).hasSize(8).noneMatch(n -> n.startsWith("scheme=reps"));
        }
    }

    @Test
    void resultsHaveOneRowPerRunInGridOrderWithSweptColumnsSeedAndFlattenedSummary() throws Exception {
        String csv = sweep(sweepFile(SWEEP), "full", "--jobs", "2");
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(1 + 12);
        assertThat(lines.get(0)).startsWith("load_balancer.scheme,topology.spines,seed,")
                .contains(",cct_ns,", ",flows.fct_ns.p99,", ",packets.dropped,", ",normalised,")
                .doesNotContain("wall");
        assertThat(lines.get(1)).startsWith("ecmp,2,1,");
        assertThat(lines.get(3)).startsWith("ecmp,2,3,");
        assertThat(lines.get(4)).startsWith("ecmp,3,1,");
        assertThat(lines.get(12)).startsWith("spray-host,3,3,");
        // each row is its run's summary.json: the scheme column matches the swept value
        int scheme = List.of(lines.get(0).split(",")).indexOf("scheme");
        for (String l : lines.subList(1, 13)) assertThat(l.split(",")[scheme]).isEqualTo(l.split(",")[0]);
    }

    @Test
    void resultsDoNotDependOnJobsOrCompletionOrder() throws Exception {
        Path f = sweepFile(SWEEP);
        assertThat(sweep(f, "j1", "--jobs", "1")).isEqualTo(sweep(f, "j2", "--jobs", "2", "--no-report"));
        // one report for the sweep (none with --no-report), none per run
        assertThat(tmp.resolve("j1").resolve("report.html")).exists();
        assertThat(tmp.resolve("j2").resolve("report.html")).doesNotExist();
        try (java.util.stream.Stream<Path> files = Files.walk(tmp.resolve("j1").resolve("runs"))) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("report.html");
        }
    }

    @Test
    void anInterruptedSweepResumesSkipsFinishedRunsAndGivesTheSameResults() throws Exception {
        Path f = sweepFile(SWEEP);
        String uninterrupted = sweep(f, "full", "--jobs", "2");
        // "interrupt": only some runs finished, plus a temp file a killed writer would leave behind
        sweep(f, "resumed", "--shard", "1/3");
        Path runs = tmp.resolve("resumed/runs");
        Map<Path, String> before = new HashMap<>();
        try (Stream<Path> s = Files.walk(runs)) {
            for (Path p : s.filter(p -> p.getFileName().toString().equals("summary.json")).toList()) {
                before.put(p, Files.readString(p));
            }
        }
        assertThat(before).hasSize(4);
        Path someRun = before.keySet().iterator().next().getParent();
        Files.writeString(someRun.resolve("summary123.tmp"), "{partial");
        Outcome o = exec("sweep", f.toString(), "--out", tmp.resolve("resumed").toString(), "--jobs", "2");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("12 runs (8 run now, 4 already finished)");
        assertThat(Files.readString(tmp.resolve("resumed/results.csv"))).isEqualTo(uninterrupted);
        // finished runs were not run again: their summaries (with wall_ms) are byte-identical
        for (var e : before.entrySet()) assertThat(Files.readString(e.getKey())).isEqualTo(e.getValue());
    }

    /**
     * A finished run made with other settings is not kept on resume: one whose summary records another
     * resolved scenario (as after a change of a default, which leaves the run keys alone), and one
     * without a scenario hash (as an older lbsim wrote it), run again; the others are kept.
     */
    @Test
    void aResumeRunsAgainWhatWasMadeWithOtherSettings() throws Exception {
        String small = SWEEP.replace("seeds: 3", "seeds: 1");
        String fresh = sweep(sweepFile(small), "dir");
        List<Path> summaries;
        try (Stream<Path> s = Files.walk(tmp.resolve("dir/runs"))) {
            summaries = s.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList();
        }
        assertThat(summaries).hasSize(4);
        String kept = Files.readString(summaries.get(3));
        Files.writeString(summaries.get(0), Files.readString(summaries.get(0)).replaceFirst("\"scenario_sha256\" : \"[0-9a-f]+\"",
                "\"scenario_sha256\" : \"" + "0".repeat(64) + "\""));
        Files.writeString(summaries.get(1), Files.readString(summaries.get(1)).replaceFirst("\\s*\"scenario_sha256\" : \"[0-9a-f]+\",", ""));
        Outcome o = exec("sweep", sweepFile(small).toString(), "--out", tmp.resolve("dir").toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("4 runs (2 run now, 2 already finished)");
        assertThat(o.err()).contains("2 finished runs were made with other settings than this sweep's and run again",
                "was made from another resolved scenario");
        assertThat(Files.readString(tmp.resolve("dir/results.csv"))).isEqualTo(fresh);
        assertThat(Files.readString(summaries.get(3))).as("a current run is not run again").isEqualTo(kept);
        assertThat(Files.readString(summaries.get(1))).contains("\"scenario_sha256\"");
    }

    @Test
    void theMergeOfAllShardsEqualsTheFullSweepByteForByte() throws Exception {
        Path f = sweepFile(SWEEP);
        String full = sweep(f, "full", "--jobs", "2");
        List<String> parts = new ArrayList<>();
        int rows = 0;
        for (int i = 0; i < 3; i++) {
            String part = sweep(f, "shard" + i, "--shard", i + "/3", "--jobs", "1");
            rows += part.lines().count() - 1;
            parts.add(tmp.resolve("shard" + i).toString());
        }
        assertThat(rows).isEqualTo(12);
        List<String> args = new ArrayList<>(List.of("merge"));
        args.addAll(parts);
        args.addAll(List.of("--out", tmp.resolve("merged").toString()));
        Outcome o = exec(args.toArray(String[]::new));
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(Files.readString(tmp.resolve("merged/results.csv"))).isEqualTo(full);
        // merging again into the same folder is idempotent
        assertThat(exec(args.toArray(String[]::new)).code()).isZero();
        assertThat(Files.readString(tmp.resolve("merged/results.csv"))).isEqualTo(full);
    }

    @Test
    void mergeRefusesMissingShardsAndFoldersOfDifferentSweeps() throws Exception {
        Path f = sweepFile(SWEEP);
        sweep(f, "s0", "--shard", "0/2");
        Outcome o = exec("merge", tmp.resolve("s0").toString(), "--out", tmp.resolve("m").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("runs are in none of the inputs");
        Path g = tmp.resolve("other.yaml");
        Files.writeString(g, SWEEP.replace("seeds: 3", "seeds: 2"));
        Outcome p = exec("sweep", g.toString(), "--out", tmp.resolve("o2").toString(), "--shard", "1/2");
        assertThat(p.code()).as(p.err()).isZero();
        Outcome q = exec("merge", tmp.resolve("s0").toString(), tmp.resolve("o2").toString(), "--out", tmp.resolve("m2").toString());
        assertThat(q.code()).isEqualTo(2);
        assertThat(q.err()).contains("not shards of the same sweep");
        assertThat(exec("merge", tmp.resolve("nothing").toString(), "--out", tmp.resolve("m3").toString()).code()).isEqualTo(2);
    }

    @Test
    void badGridFailsFastWithExitTwoNamingTheKeyAndRunsNothing() throws Exception {
        Path f = sweepFile(SWEEP.replace("topology.spines: [2, 3]", "topology.spine_count: [2, 3]"));
        Outcome o = exec("sweep", f.toString(), "--out", tmp.resolve("bad").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("topology.spine_count", "unknown key", f.toString());
        assertThat(tmp.resolve("bad/runs")).doesNotExist();
        Path g = sweepFile(SWEEP.replace("[ecmp, spray-host]", "[ecmp, nonsense]"));
        Outcome p = exec("sweep", g.toString(), "--out", tmp.resolve("bad2").toString());
        assertThat(p.code()).isEqualTo(2);
        assertThat(p.err()).contains("load_balancer.scheme=nonsense");
        assertThat(exec("sweep", g.toString(), "--out", tmp.resolve("b3").toString(), "--shard", "3/3").code()).isEqualTo(2);
        assertThat(exec("sweep", tmp.resolve("absent.yaml").toString(), "--out", tmp.resolve("b4").toString()).code()).isEqualTo(2);
    }
}

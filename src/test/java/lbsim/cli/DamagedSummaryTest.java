package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lbsim.cli.RunCommandTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 31: a run folder whose summary.json is empty, cut short or does not parse is an unfinished run. */
class DamagedSummaryTest {
    @TempDir
    Path tmp;

    private static final String SWEEP = CliFixtures.tinySweep("[ecmp, spray-host]", 2);

    private Outcome sweep(String out, String... extra) throws Exception {
        Path f = tmp.resolve("sweep.yaml");
        Files.writeString(f, SWEEP);
        List<String> args = new java.util.ArrayList<>(List.of("sweep", f.toString(), "--out", tmp.resolve(out).toString(), "--jobs", "2"));
        args.addAll(List.of(extra));
        return exec(args.toArray(String[]::new));
    }

    private List<Path> runs(String out) throws Exception {
        try (Stream<Path> s = Files.list(tmp.resolve(out).resolve("runs"))) {
            return s.sorted().toList();
        }
    }

    private static void truncate(Path summary) throws Exception {
        byte[] b = Files.readAllBytes(summary);
        Files.write(summary, java.util.Arrays.copyOf(b, b.length / 2));
    }

    @Test
    void aTruncatedEmptyOrMissingSummaryIsRunAgainAndResultsMatchTheCleanRun() throws Exception {
        assertThat(sweep("clean").code()).isZero();
        assertThat(sweep("dir").code()).isZero();
        List<Path> runs = runs("dir");
        truncate(runs.get(0).resolve("summary.json"));
        Files.write(runs.get(1).resolve("summary.json"), new byte[0]);
        Files.delete(runs.get(2).resolve("summary.json"));
        Outcome again = sweep("dir");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.err()).contains(runs.get(0) + ": summary.json does not parse", runs.get(1) + ": summary.json is empty")
                .doesNotContain(runs.get(2).toString()).doesNotContain("Exception");
        assertThat(again.out()).contains("4 runs (3 run now, 1 already finished)");
        assertThat(Files.readAllBytes(tmp.resolve("dir").resolve("results.csv")))
                .isEqualTo(Files.readAllBytes(tmp.resolve("clean").resolve("results.csv")));
    }

    @Test
    void mergeNamesTheSummaryItCannotUseAndExitsTwo() throws Exception {
        assertThat(sweep("s0", "--shard", "0/2").code()).isZero();
        assertThat(sweep("s1", "--shard", "1/2").code()).isZero();
        Path bad = runs("s0").stream().filter(p -> Files.exists(p.resolve("summary.json"))).findFirst().orElseThrow().resolve("summary.json");
        truncate(bad);
        Outcome m = exec("merge", tmp.resolve("s0").toString(), tmp.resolve("s1").toString(), "--out", tmp.resolve("m").toString());
        assertThat(m.code()).as(m.err()).isEqualTo(2);
        assertThat(m.err()).contains("merge: cannot use " + bad + ": does not parse").doesNotContain("Exception").doesNotContain("\tat ");
        // the shard's sweep reruns it, and the merge then matches the full sweep
        assertThat(sweep("s0", "--shard", "0/2").code()).isZero();
        Outcome ok = exec("merge", tmp.resolve("s0").toString(), tmp.resolve("s1").toString(), "--out", tmp.resolve("m").toString());
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(sweep("full").code()).isZero();
        assertThat(Files.readAllBytes(tmp.resolve("m").resolve("results.csv"))).isEqualTo(Files.readAllBytes(tmp.resolve("full").resolve("results.csv")));
    }
}

package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.cli.RunCommandTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: every result file is written to a temporary file, fsynced and moved into place, so a
 * rewrite replaces the file (a new inode) instead of truncating and refilling the old one; a hard
 * link to the old file (as a reader holding it open) still sees the old contents whole.
 */
class DurableResultFilesTest {
    @TempDir
    Path tmp;

    @Test
    void runReplacesEachResultFileInsteadOfRewritingItInPlace() throws Exception {
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        Path out = tmp.resolve("out");
        Outcome first = exec("run", scenario.toString(), "--out", out.toString(), "--seed", "1");
        assertThat(first.code()).as(first.err()).isZero();
        List<String> files = List.of("summary.json", "flows.csv", "links.csv", "throughput.csv");
        for (String f : files) Files.createLink(tmp.resolve("old-" + f), out.resolve(f));
        Outcome second = exec("run", scenario.toString(), "--out", out.toString(), "--seed", "2");
        assertThat(second.code()).as(second.err()).isZero();
        for (String f : files) {
            assertThat(Files.isSameFile(tmp.resolve("old-" + f), out.resolve(f))).as(f).isFalse();
        }
        assertThat(Files.readString(tmp.resolve("old-summary.json"))).contains("\"seed\" : 1,");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"seed\" : 2,");
        try (var left = Files.list(out)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void sweepReplacesResultsCsv() throws Exception {
        Path f = tmp.resolve("sweep.yaml");
        Files.writeString(f, CliFixtures.tinySweep("[ecmp, spray-host]", 1));
        Path out = tmp.resolve("sw");
        assertThat(exec("sweep", f.toString(), "--out", out.toString(), "--jobs", "1").code()).isZero();
        Files.createLink(tmp.resolve("old-results.csv"), out.resolve("results.csv"));
        assertThat(exec("sweep", f.toString(), "--out", out.toString(), "--jobs", "1").code()).isZero();
        assertThat(Files.isSameFile(tmp.resolve("old-results.csv"), out.resolve("results.csv"))).isFalse();
        assertThat(Files.readString(out.resolve("results.csv"))).isEqualTo(Files.readString(tmp.resolve("old-results.csv")));
    }
}

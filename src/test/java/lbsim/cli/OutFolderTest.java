package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.cli.RunCommandTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 31: an --out that cannot hold results is refused with exit 2 before anything is simulated. */
class OutFolderTest {
    @TempDir
    Path tmp;

    private static final String SWEEP = CliFixtures.tinySweep("[ecmp]", 1);

    private static void refused(Outcome o, String... named) {
        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains(named).doesNotContain("Exception");
        assertThat(o.out()).isEmpty();   // no summary line: nothing was simulated
    }

    @Test
    void anEmptyOutOrTheRootIsRefusedByEveryCommand() throws Exception {
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        Path sweep = tmp.resolve("sweep.yaml");
        Files.writeString(sweep, SWEEP);
        for (String bad : new String[] {"", "/"}) {
            refused(exec("run", scenario.toString(), "--out", bad), "--out");
            refused(exec("compare", scenario.toString(), "--schemes", "ecmp", "--seeds", "1", "--out", bad), "--out");
            refused(exec("sweep", sweep.toString(), "--out", bad), "--out");
            refused(exec("merge", tmp.resolve("nowhere").toString(), "--out", bad), "--out");
        }
    }

    @Test
    void runAndCompareRefuseAnOutThatIsAFileBeforeSimulating() throws Exception {
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "keep me\n");
        refused(exec("run", scenario.toString(), "--out", file.toString()), "--out " + file + ": is a file, not a folder");
        refused(exec("compare", scenario.toString(), "--schemes", "ecmp,spray-host", "--seeds", "1", "--out", file.toString()),
                "--out " + file + ": is a file, not a folder");
        Path under = file.resolve("sub");
        refused(exec("run", scenario.toString(), "--out", under.toString()), "--out " + under + ": cannot create the folder: " + file + " is a file");
        assertThat(Files.readString(file)).isEqualTo("keep me\n");
    }

    /** A folder of someone else's files is not written into (results would mix with them) unless --overwrite says so. */
    @Test
    void aFolderOfOtherFilesIsRefusedUnlessOverwriteIsGiven() throws Exception {
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        Path sweep = tmp.resolve("sweep.yaml");
        Files.writeString(sweep, SWEEP);
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("thesis.tex"), "keep me\n");
        String why = "--out " + mine + ": the folder is not empty and holds no lbsim results (it has thesis.tex)";
        refused(exec("run", scenario.toString(), "--out", mine.toString()), why, "--overwrite");
        refused(exec("compare", scenario.toString(), "--schemes", "ecmp", "--seeds", "1", "--out", mine.toString()), why);
        refused(exec("sweep", sweep.toString(), "--out", mine.toString()), why);
        refused(exec("merge", tmp.resolve("nowhere").toString(), "--out", mine.toString()), why);
        try (var left = Files.list(mine)) {
            assertThat(left.toList()).containsExactly(mine.resolve("thesis.tex"));
        }
        Outcome o = exec("run", scenario.toString(), "--out", mine.toString(), "--no-report", "--overwrite");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(mine.resolve("summary.json")).exists();
        assertThat(Files.readString(mine.resolve("thesis.tex"))).isEqualTo("keep me\n");
    }

    /** lbsim's own folders are written again: a run's, a compare's (also one cut short before compare.csv), a sweep's. */
    @Test
    void anLbsimOutputFolderIsWrittenAgain() throws Exception {
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        Path run = tmp.resolve("run");
        assertThat(exec("run", scenario.toString(), "--out", run.toString(), "--no-report").code()).isZero();
        assertThat(exec("run", scenario.toString(), "--out", run.toString(), "--no-report").code()).isZero();
        Path cmp = tmp.resolve("cmp");
        assertThat(exec("compare", scenario.toString(), "--schemes", "ecmp,spray-host", "--seeds", "2", "--no-report", "--out", cmp.toString()).code()).isZero();
        Files.delete(cmp.resolve("compare.csv"));
        Outcome o = exec("compare", scenario.toString(), "--schemes", "ecmp,spray-host", "--seeds", "2", "--no-report", "--out", cmp.toString());
        assertThat(o.code()).as(o.err()).isZero();
        Path sw = tmp.resolve("sw");
        Path sweep = tmp.resolve("sweep.yaml");
        Files.writeString(sweep, SWEEP);
        assertThat(exec("sweep", sweep.toString(), "--no-report", "--out", sw.toString()).code()).isZero();
        assertThat(exec("sweep", sweep.toString(), "--no-report", "--out", sw.toString()).code()).isZero();
        assertThat(OutDir.foreignFile(Files.createDirectories(tmp.resolve("empty")))).isNull();
    }

    /** merge --out on another sweep's folder is refused as sweep --out is, and the folder is left as it was. */
    @Test
    void mergeRefusesAnotherSweepsFolder() throws Exception {
        Path a = tmp.resolve("a.yaml"), b = tmp.resolve("b.yaml");
        Files.writeString(a, SWEEP);
        Files.writeString(b, CliFixtures.tinySweep("[spray-host]", 1));
        Path shard = tmp.resolve("shard"), other = tmp.resolve("other");
        assertThat(exec("sweep", a.toString(), "--no-report", "--out", shard.toString()).code()).isZero();
        assertThat(exec("sweep", b.toString(), "--no-report", "--out", other.toString()).code()).isZero();
        String before = Files.readString(other.resolve("results.csv"));
        Outcome o = exec("merge", shard.toString(), "--out", other.toString());
        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains("--out " + other + ": holds another sweep");
        assertThat(Files.readString(other.resolve("results.csv"))).isEqualTo(before);
        assertThat(exec("sweep", a.toString(), "--no-report", "--out", other.toString()).err()).contains("holds another sweep");
        // the same sweep's folder is merged into again
        Outcome again = exec("merge", shard.toString(), "--out", tmp.resolve("merged").toString());
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(exec("merge", shard.toString(), "--out", tmp.resolve("merged").toString()).code()).isZero();
    }
}

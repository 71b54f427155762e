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
}

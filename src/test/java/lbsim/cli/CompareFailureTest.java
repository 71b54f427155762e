package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 31: compare writes each run's folder when it finishes; a failed scheme keeps the others' results. */
class CompareFailureTest {
    @TempDir
    Path tmp;

    @AfterEach
    void restore() {
        CompareCommand.runner = Runner::run;
    }

    private Outcome compareFailing(String failing, RuntimeException failure, String jobs, String seeds) throws Exception {
        CompareCommand.runner = (sc, progress) -> {
            if (sc.scheme().equals(failing)) throw failure;
            return Runner.run(sc, progress);
        };
        Path scenario = RunCommandTest.writeScenario(tmp, CliFixtures.TINY_SCENARIO);
        return exec("compare", scenario.toString(), "--schemes", "ecmp,spray-host,reps", "--seeds", seeds, "--jobs", jobs,
                "--out", tmp.resolve("out").toString());
    }

    @Test
    void anInternalErrorInTheLastSchemeKeepsTheOthersFoldersAndTableAndExitsOne() throws Exception {
        Outcome o = compareFailing("reps", new IllegalStateException("boom"), "1", "1");
        assertThat(o.code()).as(o.err()).isEqualTo(1);
        assertThat(o.err()).contains("lbsim: reps: internal error: java.lang.IllegalStateException: boom",
                "1 of 3 runs failed (reps)", "compare.csv and report.html are not written");
        assertThat(o.out()).contains("ecmp", "spray-host").doesNotContain("reps");
        Path out = tmp.resolve("out");
        assertThat(out.resolve("ecmp").resolve("summary.json")).exists();
        assertThat(out.resolve("spray-host").resolve("flows.csv")).exists();
        assertThat(out.resolve("reps")).doesNotExist();
        assertThat(out.resolve("compare.csv")).doesNotExist();
    }

    @Test
    void badInputInOneSchemeOnWorkerThreadsIsExitTwoAndTheOthersFinish() throws Exception {
        Outcome o = compareFailing("ecmp", new BadInputException("ecmp cannot do this"), "2", "2");
        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains("lbsim: ecmp seed 1: ecmp cannot do this", "lbsim: ecmp seed 2: ecmp cannot do this",
                "2 of 6 runs failed").doesNotContain("Exception");
        assertThat(o.out()).contains("spray-host", "reps");
        Path out = tmp.resolve("out");
        for (String s : new String[] {"spray-host", "reps"}) {
            for (String seed : new String[] {"seed-1", "seed-2"}) assertThat(out.resolve(s).resolve(seed).resolve("summary.json")).exists();
        }
        assertThat(out.resolve("ecmp")).doesNotExist();
    }

    @Test
    void withoutFailuresCompareStillWritesCompareCsvAndTheReport() throws Exception {
        Outcome o = compareFailing("none", new IllegalStateException(), "2", "1");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(Files.readString(tmp.resolve("out").resolve("compare.csv")).lines()).hasSize(4);
        assertThat(tmp.resolve("out").resolve("report.html")).exists();
    }
}

package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.experiment.ScenarioFuzzTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fuzz suite's mutated scenarios through the real `run` command: exit 0 or 2, never 1 (issue 31). */
class CliFuzzTest {
    @TempDir
    Path tmp;

    @Test
    void mutatedScenariosExitZeroOrTwo() {
        int[] n = {0}, codes = new int[3];
        qt().withFixedSeed(ScenarioFuzzTest.SEED + 1).withExamples(Integer.getInteger("lbsim.fuzz.cli_examples", 25)).withShrinkCycles(20)
                .forAll(integers().between(0, ScenarioFuzzTest.BASES.size() - 1), integers().between(0, 200),
                        integers().between(0, ScenarioFuzzTest.KINDS - 1))
                .checkAssert((base, site, kind) -> {
                    String yaml = ScenarioFuzzTest.mutate(base, site, kind);
                    if (yaml == null) return;
                    try {
                        Path dir = Files.createDirectories(tmp.resolve("case" + n[0]++));
                        Path f = RunCommandTest.writeScenario(dir, yaml);
                        RunCommandTest.Outcome o = RunCommandTest.exec("run", f.toString(), "--out", dir.resolve("out").toString(), "--no-report");
                        assertThat(o.code()).as(yaml + "\n" + o.err()).isIn(0, 2);
                        codes[o.code()]++;
                        assertThat(o.err()).as(yaml).doesNotContain("internal error");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertThat(codes[0]).as("some mutated scenarios ran").isPositive();
        assertThat(codes[2]).as("some were refused").isPositive();
    }
}

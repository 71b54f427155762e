package lbsim.cli;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** The progress line's arithmetic and text; no timing is asserted. */
class ProgressBarTest {
    @Test
    void halfWayLineShowsTimesBarRateAndEta() {
        // 100 us of 200 us simulated in 4 s of wall time: 4 s to go; 10 M events in 4 s = 2.5 M/s
        String s = ProgressBar.format("ecmp", 100_000_000L, 200_000_000L, 1_000_000_000_000L, 10_000_000L, 30, 60, 4.0);
        assertThat(s).startsWith("ecmp sim 100.0 us/~200.0 us [##########..........]  50%  flows 30/60  2.50 M ev/s  ETA 0:04");
        assertThat(s).hasSize(ProgressBar.WIDTH);
    }

    @Test
    void atTheLimitTheLineSaysSoAndTheBarIsFull() {
        String s = ProgressBar.format("x", 5_000_000_000L, 5_000_000_000L, 5_000_000_000L, 0, 0, 10, 2.0);
        assertThat(s).contains("sim 5.00 ms/limit 5.00 ms [####################] 100%", "ETA 0:00", "flows 0/10");
    }

    @Test
    void withOnlyTheLimitToGoByThereIsNoEta() {
        String s = ProgressBar.format("x", 1_000_000_000L, 5_000_000_000L, 5_000_000_000L, 10, 0, 10, 2.0);
        assertThat(s).contains("sim 1.00 ms/limit 5.00 ms [####................]  20%", "ETA --:--");
    }

    @Test
    void noWallTimeYetHasNoEta() {
        assertThat(ProgressBar.format("x", 0, 1_000_000L, 2_000_000L, 0, 0, 1, 0)).contains("0 ns/~1.0 us", "ETA --:--", "0.00 M ev/s");
    }

    @Test
    void expectedEndUsesHintThenFlowFractionThenLimit() {
        long limit = 1_000_000_000L;
        assertThat(ProgressBar.expectedEndPs(100, limit, 1, 4, 5_000)).isEqualTo(5_000); // hint still ahead
        assertThat(ProgressBar.expectedEndPs(10_000, limit, 1, 4, 5_000)).isEqualTo(40_000); // past the hint: 1 of 4 flows in 10 ns
        assertThat(ProgressBar.expectedEndPs(10_000, limit, 0, 4, 0)).isEqualTo(limit); // nothing to go by
        assertThat(ProgressBar.expectedEndPs(600_000_000L, limit, 1, 4, 0)).isEqualTo(limit); // never beyond the limit
        assertThat(ProgressBar.expectedEndPs(800, limit, 4, 4, 0)).isEqualTo(800); // all flows done
    }

    @Test
    void clocksAndUnits() {
        assertThat(ProgressBar.clock(59.6)).isEqualTo("1:00");
        assertThat(ProgressBar.clock(3725)).isEqualTo("1:02:05");
        assertThat(ProgressBar.clock(-3)).isEqualTo("0:00");
        assertThat(ProgressBar.time(850_000L)).isEqualTo("850 ns");
        assertThat(ProgressBar.time(12_500_000L)).isEqualTo("12.5 us");
        assertThat(ProgressBar.time(3_200_000_000L)).isEqualTo("3.20 ms");
    }

    @Test
    void updatesAreThrottledAndClearWipesOnlyAPrintedLine() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressBar p = new ProgressBar(new PrintStream(buf, true), "x", 0);
        p.update(1, 10, 1, 3); // within the first half second: nothing printed
        p.clear();
        assertThat(buf.toString()).isEmpty();
    }

    @Test
    void notATerminalMeansNoProgressBar() {
        // surefire runs without a console
        if (System.console() == null) assertThat(ProgressBar.forTerminal("x")).isSameAs(lbsim.experiment.Runner.Progress.NONE);
    }
    @Test
    void inALogEachUpdatePastTheIntervalIsOnePlainLine() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressBar p = new ProgressBar(new PrintStream(buf, true), "ecmp", 0, true, 0); // interval 0: every update prints
        p.update(1_000_000L, 10_000_000L, 5, 4);
        p.update(2_000_000L, 10_000_000L, 9, 2);
        p.clear(); // nothing to wipe in a log
        String[] lines = buf.toString().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("lbsim: progress: ecmp sim 1.0 us/").contains("flows 0/4").doesNotContain("\r");
        assertThat(lines[1]).contains("flows 2/4").doesNotEndWith(" ");
        ProgressBar runs = new ProgressBar(new PrintStream(buf, true), "sweep", 0, true, 0);
        runs.runsDone(3, 10);
        assertThat(buf.toString()).contains("lbsim: progress: sweep runs 3/10, ");
        runs.runsDone(10, 10);
        assertThat(buf.toString()).contains("lbsim: progress: sweep runs 10/10, ");
        // a sweep that ends before the first interval leaves the log silent, final count included
        ByteArrayOutputStream quiet = new ByteArrayOutputStream();
        ProgressBar shortSweep = new ProgressBar(new PrintStream(quiet, true), "sweep", 0, true, ProgressBar.LOG_INTERVAL_NS);
        shortSweep.runsDone(1, 2);
        shortSweep.runsDone(2, 2);
        assertThat(quiet.toString()).isEmpty();
        // the ETA counts only runs finished in this invocation: none yet at the first report
        ByteArrayOutputStream eta = new ByteArrayOutputStream();
        ProgressBar fromZero = new ProgressBar(new PrintStream(eta, true), "sweep", 0, true, 0);
        fromZero.runsDone(2, 10);
        fromZero.runsDone(3, 10);
        assertThat(eta.toString()).contains("sweep runs 2/10, 0:00 elapsed, ETA --:--").contains("sweep runs 3/10").doesNotContain("3/10, 0:00 elapsed, ETA --:--");
    }

    @Test
    void progressModes() {
        assertThat(ProgressBar.Mode.parse("Never")).isEqualTo(ProgressBar.Mode.NEVER);
        assertThat(ProgressBar.forRun("x", 0, ProgressBar.Mode.NEVER)).isSameAs(lbsim.experiment.Runner.Progress.NONE);
        assertThat(ProgressBar.forRuns("x", ProgressBar.Mode.NEVER)).isNull();
        // surefire has no console: auto gives plain lines, not nothing
        if (System.console() == null) assertThat(ProgressBar.forRun("x", 0, ProgressBar.Mode.AUTO)).isInstanceOf(ProgressBar.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProgressBar.Mode.parse("sometimes"))
                .isInstanceOf(lbsim.BadInputException.class).hasMessageContaining("auto, always, never");
    }

    @Test
    void aBadProgressValueExitsTwoNamingTheAllowedValues() {
        RunCommandTest.Outcome o = RunCommandTest.exec("run", "--progress", "sometimes", "no-such.yaml");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--progress sometimes", "auto, always, never");
    }
}

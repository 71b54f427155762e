package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lbsim.metrics.SeedComparison.Verdict;
import org.junit.jupiter.api.Test;

/** The statistics behind compare's verdict: means and sd over seeds, Welch's test, and who is within the noise of the best. */
class SeedComparisonTest {
    /** A run whose only numbers are its completion (a CCT; null: it did not complete) and its retransmissions. */
    private static RunResult run(String scheme, long seed, Long cctNs, long retx) {
        return new RunResult("t", scheme, seed, cctNs != null, cctNs, 1000, cctNs == null ? Stats.of(new long[0]) : Stats.of(new long[] {cctNs}),
                0, 0, 0, retx, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of(), Map.of(), null, List.of(), null, List.of(),
                new int[0], null, null, Map.of("profile", "roce", "description", "NIC roce: test"), List.of(), new lbsim.engine.EventLog(), null, "", null, 0);
    }

    private static List<RunResult> runs(String scheme, long... cct) {
        List<RunResult> out = new ArrayList<>();
        for (int i = 0; i < cct.length; i++) out.add(run(scheme, 1 + i, cct[i] < 0 ? null : cct[i], 10L * i));
        return out;
    }

    @Test
    void welchMatchesScipy() {
        // scipy.stats.ttest_ind(a, b, equal_var=False).pvalue
        assertThat(SeedComparison.welchP(new double[] {1, 2, 3}, new double[] {4, 5, 6})).isCloseTo(0.021311641128756713, within(1e-9));
        assertThat(SeedComparison.welchP(new double[] {10, 12, 11, 13}, new double[] {12, 15, 11})).isCloseTo(0.4526458609567568, within(1e-9));
        // no spread on either side: only equal means are the same
        assertThat(SeedComparison.welchP(new double[] {5, 5}, new double[] {5, 5})).isEqualTo(1.0);
        assertThat(SeedComparison.welchP(new double[] {5, 5}, new double[] {6, 6})).isEqualTo(0.0);
    }

    @Test
    void meansAndSdAreOverTheSeedsAndTheVerdictFollowsTheTest() {
        SeedComparison c = SeedComparison.of(List.of(
                runs("fast", 1000, 1100, 1200),
                runs("same", 1000, 1100, 1200),      // the fast one under another name
                runs("close", 1050, 1150, 1250),     // 50 ns slower, sd 100: noise
                runs("slow", 2000, 2100, 2200),      // 10 sd slower
                runs("stuck", 1000, -1, 1000)),      // did not complete on seed 2
                true, "cc dctcp, loss recovery go-back-n, PFC on");
        SeedComparison.Row fast = c.rows().get(0);
        assertThat(fast.completionMeanNs()).isEqualTo(1100.0);
        assertThat(fast.completionSdNs()).isCloseTo(100.0, within(1e-9));
        assertThat(fast.normalisedMean()).isCloseTo(1.1, within(1e-12));
        assertThat(fast.retransmitted()).isEqualTo(10.0);   // 0, 10, 20
        assertThat(c.rows()).extracting(SeedComparison.Row::verdict)
                .containsExactly(Verdict.BEST, Verdict.TIE, Verdict.TIE, Verdict.WORSE, Verdict.INCOMPLETE);
        assertThat(c.rows()).extracting(r -> r.verdict().csv()).containsExactly("true", "true", "true", "false", "false");
        assertThat(c.rows()).extracting(r -> r.vsBest(c.best())).containsExactly("best", "tie +0 %", "tie +4.5 %", "worse +91 %",
                "incomplete");
        // an incomplete seed leaves the completion undefined, never averaged over the others
        assertThat(c.rows().get(4).completionMeanNs()).isNaN();
        assertThat(c.rows().get(4).completionSdNs()).isNaN();
        assertThat(c.sdColumn()).isEqualTo("cct_sd_ns");
        assertThat(c.verdictLine()).contains("best fast", "within the noise of it: same, close",
                "holds for cc dctcp, loss recovery go-back-n, PFC on, NIC roce, seeds 1-3");
        assertThat(c.noiseLine()).contains("at most 0.100 us (fast, ");
    }

    @Test
    void withoutATieTheVerdictNamesTheNearest() {
        SeedComparison c = SeedComparison.of(List.of(runs("a", 2000, 2000, 2000), runs("b", 1000, 1000, 1000), runs("c", 1001, 1001, 1001)),
                true, "");
        // no spread: b and c differ on every seed, by 0.1 %
        assertThat(c.rows()).extracting(r -> r.vsBest(c.best())).containsExactly("worse +100 %", "best", "worse +0.10 %");
        assertThat(c.verdictLine()).contains("best b (mean 1.0 us); no other scheme within the noise of it (the nearest: c, +0.10 %)");
        assertThat(SeedComparison.percent(0.004)).isEqualTo("<0.01");
    }

    @Test
    void oneSeedMarksNothing() {
        SeedComparison c = SeedComparison.of(List.of(runs("a", 1000), runs("b", 2000)), false, "");
        assertThat(c.rows()).extracting(SeedComparison.Row::verdict).containsOnly(Verdict.NONE);
        assertThat(c.rows()).extracting(r -> r.verdict().csv()).containsOnly("");
        assertThat(c.rows().get(0).completionSdNs()).isNaN();
        assertThat(c.sdColumn()).isEqualTo("completion_sd_ns");
        assertThat(c.verdictLine()).contains("one seed", "seed 1", "no estimate of the noise", "--seeds N");
        assertThat(c.noiseLine()).isEmpty();
    }
}

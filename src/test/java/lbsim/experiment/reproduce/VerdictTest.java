package lbsim.experiment.reproduce;

import static lbsim.experiment.reproduce.Verdict.CONTRADICTS;
import static lbsim.experiment.reproduce.Verdict.DIRECTION;
import static lbsim.experiment.reproduce.Verdict.NOT_RUN;
import static lbsim.experiment.reproduce.Verdict.REPRODUCES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import lbsim.experiment.reproduce.Cell.Kind;
import org.junit.jupiter.api.Test;

class VerdictTest {
    static Verdict improvement(double ours, double sd, int n, double paper) {
        return Verdict.of(Kind.IMPROVEMENT, 0, ours, sd, n, paper);
    }

    @Test
    void anImprovementWithinAFifthOfThePapersEffectReproduces() {
        assertThat(improvement(27, 0, 1, 30)).isEqualTo(REPRODUCES); // tolerance max(6, 3)
        assertThat(improvement(23.9, 0, 1, 30)).isEqualTo(DIRECTION);
        assertThat(improvement(15, 0, 1, 30)).isEqualTo(DIRECTION);
        assertThat(improvement(2, 0, 1, 30)).as("below the 3-point floor: no effect").isEqualTo(CONTRADICTS);
        assertThat(improvement(-10, 0, 1, 30)).isEqualTo(CONTRADICTS);
    }

    @Test
    void noiseOverSeedsWidensTheToleranceAndHidesSmallEffects() {
        assertThat(improvement(15, 10, 4, 30)).as("two standard errors = 10").isEqualTo(REPRODUCES);
        assertThat(improvement(8, 10, 4, 40)).as("effect 8 within 2 se = 10: not a real effect").isEqualTo(CONTRADICTS);
        assertThat(improvement(8, 0, 4, 40)).isEqualTo(DIRECTION);
    }

    @Test
    void aPaperThatReportsNoDifferenceIsReproducedOnlyByNoDifference() {
        assertThat(improvement(2, 0, 1, 0)).isEqualTo(REPRODUCES);
        assertThat(improvement(-2.9, 0, 1, 0)).isEqualTo(REPRODUCES);
        assertThat(improvement(10, 0, 1, 0)).isEqualTo(CONTRADICTS);
    }

    @Test
    void ratiosCompareAgainstOne() {
        assertThat(Verdict.of(Kind.RATIO, 1, 1.35, 0, 1, 1.4)).isEqualTo(REPRODUCES); // tolerance max(0.08, 0.05)
        assertThat(Verdict.of(Kind.RATIO, 1, 1.2, 0, 1, 1.4)).isEqualTo(DIRECTION);
        assertThat(Verdict.of(Kind.REDUCTION, 1, 0.9, 0, 1, 2.6)).isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.REDUCTION, 1, 1.03, 0, 1, 2.6)).as("within the 0.05 floor of no change").isEqualTo(CONTRADICTS);
    }

    @Test
    void aNormalisedCompletionTimeComparesItsDistanceFromTheIdeal() {
        assertThat(Verdict.reference(Kind.VALUE, "normalised")).isEqualTo(1);
        assertThat(Verdict.reference(Kind.VALUE, "uplinks.variance_pct2")).isEqualTo(0);
        assertThat(Verdict.reference(Kind.VALUE, "collectives_mean.busbw_gbps")).isNaN();
        assertThat(Verdict.of(Kind.VALUE, 1, 1.22, 0, 1, 1.24)).isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, 1, 1.10, 0, 1, 1.24)).isEqualTo(DIRECTION);
        assertThat(Verdict.of(Kind.VALUE, 1, 1.01, 0, 1, 1.24)).isEqualTo(CONTRADICTS);
    }

    @Test
    void aValueWithoutAReferenceIsJudgedBySize() {
        double nan = Double.NaN;
        assertThat(Verdict.of(Kind.VALUE, nan, 110, 0, 1, 100)).isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, nan, 60, 0, 1, 100)).isEqualTo(DIRECTION);
        assertThat(Verdict.of(Kind.VALUE, nan, 30, 0, 1, 100)).isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.VALUE, nan, 250, 0, 1, 100)).isEqualTo(CONTRADICTS);
    }

    @Test
    void aClaimWithoutANumberIsReproducedByAnyRealEffectItsWay() {
        double nan = Double.NaN;
        assertThat(improvement(4, 0, 1, nan)).isEqualTo(REPRODUCES);
        assertThat(improvement(2, 0, 1, nan)).as("below the floor").isEqualTo(CONTRADICTS);
        assertThat(improvement(8, 10, 4, nan)).as("within the noise").isEqualTo(CONTRADICTS);
        assertThat(improvement(-20, 0, 1, nan)).isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.REDUCTION, 1, 1.3, 0, 1, nan)).isEqualTo(REPRODUCES);
        assertThat(Cell.qualitative("q", java.util.Map.of("a", "x"), java.util.Map.of("a", "y"), "").isQualitative()).isTrue();
    }

    /** "A gap of less than 8.3 %": an improvement of at least -8.3 % reproduces however much better ours is. */
    @Test
    void aBoundIsReproducedAtOrAboveItAndContradictedBelow() {
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, -2, 0, 1, -8.3, true)).isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, 5, 0, 1, -8.3, true)).as("better than the bound").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, -10, 0, 1, -8.3, true)).as("within the 3-point floor").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, -12, 0, 1, -8.3, true)).isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, -12, 4, 4, -8.3, true)).as("within the noise").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, 5, 0, 1, -8.3, false)).as("read as a value, 5 is far from -8.3")
                .isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.IMPROVEMENT, 0, Double.NaN, 0, 0, -8.3, true)).isEqualTo(NOT_RUN);
        Cell c = Cell.improvement("b", java.util.Map.of("a", "x"), java.util.Map.of("a", "y"), -8.3, "").asLowerBound();
        assertThat(c.atLeast()).isTrue();
        assertThat(c.on("flows.fct_ns.p99").atLeast()).as("kept by every copy").isTrue();
        assertThat(Reproduce.paperText(new Reproduce.Row(c, -2, 0, 1, -8.3))).isEqualTo(">= -8.300");
        assertThat(new Reproduce.Row(c, -2, 0, 1, -8.3).verdict()).isEqualTo(REPRODUCES);
    }

    /** "Uses at most 32 queue pairs": a value at or below the bound reproduces however far below, one above contradicts. */
    @Test
    void anUpperBoundIsReproducedAtOrBelowItAndContradictedAbove() {
        double nan = Double.NaN; // a queue-pair count has no "no effect" reference: tolerance 15 % of the bound
        assertThat(Verdict.of(Kind.VALUE, nan, 16, 0, 1, 32, Cell.Bound.AT_MOST)).as("half the bound").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, nan, 1, 0, 1, 32, Cell.Bound.AT_MOST)).isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, nan, 36, 0, 1, 32, Cell.Bound.AT_MOST)).as("within 15 %").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, nan, 38, 0, 1, 32, Cell.Bound.AT_MOST)).isEqualTo(CONTRADICTS);
        assertThat(Verdict.of(Kind.VALUE, nan, 38, 0, 1, 32, Cell.Bound.AT_LEAST)).as("the other way round").isEqualTo(REPRODUCES);
        assertThat(Verdict.of(Kind.VALUE, nan, 16, 0, 1, 32, Cell.Bound.NONE)).as("read as a value").isEqualTo(DIRECTION);
        assertThat(Verdict.of(Kind.VALUE, nan, 40, 6, 4, 32, Cell.Bound.AT_MOST)).as("within the noise").isEqualTo(REPRODUCES);
        Cell c = Cell.value("q", java.util.Map.of("a", "x"), 32, "").asUpperBound();
        assertThat(c.atMost()).isTrue();
        assertThat(c.atLeast()).isFalse();
        assertThat(c.on("max_qps_per_nic").because(Cell.Cause.Kind.MODEL, "m").atMost()).as("kept by every copy").isTrue();
        assertThat(Reproduce.paperText(new Reproduce.Row(c, 100, 0, 1, 32))).isEqualTo("<= 32.000");
        assertThat(new Reproduce.Row(c, 100, 0, 1, 32).verdict()).isEqualTo(CONTRADICTS);
        assertThat(Provenance.fingerprint(preset(c), "quick")).as("the bound is part of the fingerprint")
                .isNotEqualTo(Provenance.fingerprint(preset(Cell.value("q", java.util.Map.of("a", "x"), 32, "")), "quick"));
    }

    private static Preset preset(Cell c) {
        return new Preset("p", "paper", "Fig. 1", "d", "cct_ns", "CCT", java.util.Map.of("quick", "grid: {}"), java.util.List.of(c),
                java.util.List.of());
    }

    @Test
    void aCellThatDidNotRunHasNoVerdict() {
        assertThat(improvement(Double.NaN, Double.NaN, 0, 30)).isEqualTo(NOT_RUN);
        assertThat(NOT_RUN.label()).isEqualTo("not-run");
    }

    @Test
    void oursEqualToThePapersAlwaysReproducesAndTheOppositeEffectNever() {
        qt().forAll(doubles().between(-500, 500), integers().between(1, 20)).checkAssert((paper, n) -> {
            for (Kind k : Kind.values()) {
                double ref = k == Kind.VALUE ? Double.NaN : Verdict.reference(k, "x");
                assertThat(Verdict.of(k, ref, paper, 0, n, paper)).isEqualTo(REPRODUCES);
            }
            if (Math.abs(paper) > 3) assertThat(improvement(-paper, 0, n, paper)).isEqualTo(CONTRADICTS);
        });
    }
}

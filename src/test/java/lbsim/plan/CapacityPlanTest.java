package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.math.BigDecimal;
import lbsim.BadInputException;
import lbsim.plan.CapacityPlan.Reading;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * McClure et al. (papers/001) Appendix A Eq. 2: k^3/4 - 1 > (k^2/4)(k^3/4 - k^2/4) / (k^2/4 - f(1 - p)).
 * For k = 8: 127 > 1792 / (16 - lost), i.e. lost < 16 - 1792/127 = 1.8898 links.
 */
class CapacityPlanTest {

    private static CapacityPlan plan(int k, int f, String p, Reading r) {
        return CapacityPlan.compute(k, f, new BigDecimal(p), r);
    }

    @Test
    void fatTreeQuantitiesForK8() {
        CapacityPlan c = plan(8, 0, "0", Reading.AS_PRINTED);
        assertThat(c.hosts()).isEqualTo(128);               // k^3/4, the paper's 128-node fat-tree (§4)
        assertThat(c.podCoreLinks()).isEqualTo(16);         // "9 out of the 16 links" (§5)
        assertThat(c.flowsPerHostLink()).isEqualTo(127);
        assertThat(c.flowsLeavingPod()).isEqualTo(16 * 112);
        assertThat(c.spareLinks()).isCloseTo(16 - 1792.0 / 127, within(1e-12));
    }

    @Test
    void papersSection4CasesWithEq2AsPrinted() {
        // §5/Fig. 4 (k = 8): 2 links at 90%, 4 at 60% and 9 at 20% loss "have sufficient capacity";
        // Fig. 5: 3 links at 90% is insufficient. Eq. 2 as printed subtracts f(1-p):
        assertThat(plan(8, 2, "0.9", Reading.AS_PRINTED).sufficient()).isTrue();   // 16 - 0.2: 113.4 < 127, agrees
        assertThat(plan(8, 4, "0.6", Reading.AS_PRINTED).sufficient()).isTrue();   // 16 - 1.6: 124.4 < 127, agrees
        // DISAGREES with the paper: 16 - 9*0.8 = 8.8, 1792/8.8 = 203.6 > 127 -> insufficient as printed
        assertThat(plan(8, 9, "0.2", Reading.AS_PRINTED).sufficient()).isFalse();
        // DISAGREES with the paper: 16 - 3*0.1 = 15.7, 1792/15.7 = 114.1 < 127 -> sufficient as printed
        assertThat(plan(8, 3, "0.9", Reading.AS_PRINTED).sufficient()).isTrue();
    }

    @Test
    void papersSection4CasesWithLostBandwidthReading() {
        // Same cases with the capacity a pod actually loses, f*p:
        assertThat(plan(8, 2, "0.9", Reading.LOST_BANDWIDTH).sufficient()).isTrue();  // 1.8 < 1.8898, agrees
        assertThat(plan(8, 9, "0.2", Reading.LOST_BANDWIDTH).sufficient()).isTrue();  // 1.8 < 1.8898, agrees
        assertThat(plan(8, 3, "0.9", Reading.LOST_BANDWIDTH).sufficient()).isFalse(); // 2.7, agrees (Fig. 5)
        // DISAGREES with the paper: 4 * 0.6 = 2.4 > 1.8898, 1792/13.6 = 131.8 > 127 -> insufficient
        assertThat(plan(8, 4, "0.6", Reading.LOST_BANDWIDTH).sufficient()).isFalse();
    }

    @Test
    void marginsAndBothReadingsAreReported() {
        CapacityPlan c = plan(8, 3, "0.9", Reading.LOST_BANDWIDTH);
        assertThat(c.lostBandwidth().lostLinks()).isEqualByComparingTo("2.7");
        assertThat(c.lostBandwidth().rhs()).isCloseTo(1792 / 13.3, within(1e-9));
        assertThat(c.lostBandwidth().margin()).isCloseTo(127 - 1792 / 13.3, within(1e-9));
        assertThat(c.asPrinted().lostLinks()).isEqualByComparingTo("0.3");
        assertThat(c.asPrinted().rhs()).isCloseTo(1792 / 15.7, within(1e-9));
        assertThat(c.warnings()).singleElement().asString().contains("disagree");
        assertThat(plan(8, 2, "0.9", Reading.AS_PRINTED).warnings()).isEmpty();
    }

    @Test
    void comparisonIsExactAtTheBoundary() {
        // k = 4: 15 > 4*12 / (4 - lost)  <=>  lost < 0.8 (strict); 15 * 3.2 = 48 exactly
        assertThat(plan(4, 1, "0.8", Reading.LOST_BANDWIDTH).sufficient()).isFalse();
        assertThat(plan(4, 1, "0.79", Reading.LOST_BANDWIDTH).sufficient()).isTrue();
        assertThat(plan(4, 1, "0.2", Reading.AS_PRINTED).sufficient()).isFalse();
        assertThat(plan(4, 1, "0.21", Reading.AS_PRINTED).sufficient()).isTrue();
        // every pod-core link fully lost: no capacity, never sufficient
        CapacityPlan dead = plan(4, 4, "1", Reading.LOST_BANDWIDTH);
        assertThat(dead.sufficient()).isFalse();
        assertThat(dead.lostBandwidth().rhs()).isNull();
    }

    @Test
    void noFailureIsSufficientAndLosingMoreNeverHelps() {
        qt().withFixedSeed(29L).withExamples(2000)
                .forAll(integers().between(2, 64), integers().between(0, 1024), integers().between(0, 100),
                        integers().between(0, 100))
                .checkAssert((halfK, f0, p1, p2) -> {
                    int k = 2 * halfK;
                    int f = f0 % (k * k / 4 + 1);
                    assertThat(plan(k, 0, "0", Reading.LOST_BANDWIDTH).sufficient()).isTrue();
                    BigDecimal lo = BigDecimal.valueOf(Math.min(p1, p2), 2);
                    BigDecimal hi = BigDecimal.valueOf(Math.max(p1, p2), 2);
                    boolean atLo = CapacityPlan.compute(k, f, lo, Reading.LOST_BANDWIDTH).sufficient();
                    boolean atHi = CapacityPlan.compute(k, f, hi, Reading.LOST_BANDWIDTH).sufficient();
                    if (atHi) {
                        assertThat(atLo).isTrue();
                    }
                    // the as-printed reading is the lost-bandwidth reading at 1 - p
                    assertThat(CapacityPlan.compute(k, f, lo, Reading.AS_PRINTED).sufficient()).isEqualTo(
                            CapacityPlan.compute(k, f, BigDecimal.ONE.subtract(lo), Reading.LOST_BANDWIDTH).sufficient());
                });
    }

    @Test
    void rendersEveryFormat() {
        CapacityPlan c = plan(8, 9, "0.2", Reading.AS_PRINTED);
        assertThat(c.render(PlanFormat.TEXT)).contains("\nsufficient: false   <- WARNING: the other reading disagrees, see below\n").contains("lhs (flows per host-ToR link): 127")
                .contains("WARNING");
        JsonNode json = JsonMapper.builder().build().readTree(c.render(PlanFormat.JSON));
        assertThat(json.get("sufficient").asBoolean()).isFalse();
        assertThat(json.get("readings").get("lost-bandwidth").get("sufficient").asBoolean()).isTrue();
        assertThat(json.get("margin").asDouble()).isCloseTo(127 - 1792 / 8.8, within(1e-9));
        assertThat(c.render(PlanFormat.CSV)).startsWith("sufficient,k,failed_links,lost_fraction,reading,")
                .contains("\nfalse,8,9,0.2,as-printed,127,");
    }

    /** The audit's case: a pod that lost all 16 core links is "sufficient" as printed; the answer line itself says the other reading disagrees. */
    @Test
    void aFullyCutPodsAnswerLineCarriesTheWarning() {
        String text = plan(8, 16, "1", Reading.AS_PRINTED).render(PlanFormat.TEXT);
        assertThat(text).contains("\nsufficient: true   <- WARNING: the other reading disagrees, see below\n")
                .contains("WARNING: the two readings of Appendix A Eq. 2 disagree here: as-printed says true, lost-bandwidth says false");
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> plan(7, 1, "0.5", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--k").hasMessageContaining("even");
        assertThatThrownBy(() -> plan(0, 0, "0.5", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--k");
        assertThatThrownBy(() -> plan(8, 17, "0.5", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--failed-links").hasMessageContaining("0..k^2/4 = 16");
        assertThatThrownBy(() -> plan(8, -1, "0.5", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--failed-links");
        assertThatThrownBy(() -> plan(8, 2, "1.5", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--lost-fraction").hasMessageContaining("0..1");
        assertThatThrownBy(() -> plan(8, 2, "-0.1", Reading.AS_PRINTED)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--lost-fraction");
        assertThatThrownBy(() -> Reading.parse("literal")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--reading").hasMessageContaining("as-printed, lost-bandwidth");
    }
}

package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import lbsim.BadInputException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ParaletPlanTest {

    @Test
    void zIsTheStandardNormalQuantile() {
        // Phi^-1(1 - 1/N): standard upper-tail normal quantiles z(1e-5) = 4.264890793922825,
        // z(1e-9) = 5.997807015007687 (N = 128 from Python statistics.NormalDist().inv_cdf(1 - 1/128))
        assertThat(ParaletPlan.z(100_000)).isCloseTo(4.264890793922825, within(1e-9));
        assertThat(ParaletPlan.z(1_000_000_000L)).isCloseTo(5.997807015007687, within(1e-9));
        assertThat(ParaletPlan.z(128)).isCloseTo(2.417559016236505, within(1e-9));
        assertThat(ParaletPlan.z(2)).isCloseTo(0.0, within(1e-12));
        // ParaLet Table 3: n = 1 / (1 - Phi(n')) = 31574 for n' = 4, 3488555 for n' = 5
        assertThat(ParaletPlan.z(31574)).isCloseTo(4.0, within(1e-4));
        assertThat(ParaletPlan.z(3_488_555)).isCloseTo(5.0, within(1e-5));
    }

    @Test
    void eq1PredictedSlowdown() {
        // ParaLet §4.1 Eq. 1: 1 + Phi^-1(1 - 1/N) / sqrt(m); hand-computed: 1 + 2.417559016236505 / sqrt(32)
        assertThat(ParaletPlan.predictedSlowdown(128, 32)).isCloseTo(1.4273680935748778, within(1e-12));
        assertThat(ParaletPlan.predictedSlowdown(1024, 32)).isCloseTo(1.5475249920884417, within(1e-12));
        assertThat(ParaletPlan.predictedSlowdown(128, 1)).isCloseTo(3.417559016236505, within(1e-12));
    }

    @Test
    void minimumMAgainstHandComputedValues() {
        // m = ceil((Phi^-1(1 - 1/N) / (X - 1))^2), ParaLet §5.2
        assertThat(ParaletPlan.minimumM(128, 1.5)).isEqualTo(24);     // (2.41756/0.5)^2 = 23.38
        assertThat(ParaletPlan.minimumM(1024, 1.25)).isEqualTo(154);  // (3.09727/0.25)^2 = 153.49
        assertThat(ParaletPlan.minimumM(16, 1.1)).isEqualTo(236);     // (1.53412/0.1)^2 = 235.35
        assertThat(ParaletPlan.minimumM(10_000, 2)).isEqualTo(14);    // 3.71902^2 = 13.83
        assertThat(ParaletPlan.minimumM(2, 1.5)).isEqualTo(1);        // z = 0
    }

    @Test
    void papersWorkedExamples() {
        // ParaLet §5.2: "10^9 nodes ... m >= (Phi^-1(1-10^-9)/(2-1))^2 ~ 36": Eq. 1 agrees (35.97 -> 36)
        assertThat(ParaletPlan.minimumM(1_000_000_000L, 2)).isEqualTo(36);
        // ParaLet §5.2: "tens-of-thousands accelerators ... (Phi^-1(1-10^-5)/(2-1))^2 ~ 25": the formula gives
        // 4.2649^2 = 18.19, so m = 19, not 25 (disagreement between the paper's example and its Eq. 1)
        assertThat(ParaletPlan.minimumM(100_000, 2)).isEqualTo(19);
        ParaletPlan plan = ParaletPlan.compute(100_000, 2, null);
        assertThat(plan.notes()).anySatisfy(n -> assertThat(n).contains("~ 25").contains("m = 19"));
    }

    @Test
    void mIsTheSmallestIntegerMeetingTheTarget() {
        qt().withFixedSeed(17L).withExamples(3000)
                .forAll(longs().between(2, 1L << 40), doubles().between(1.01, 5.0))
                .checkAssert((n, x) -> {
                    long m = ParaletPlan.minimumM(n, x);
                    assertThat(m).isPositive();
                    assertThat(ParaletPlan.predictedSlowdown(n, m)).isLessThanOrEqualTo(x);
                    if (m > 1) {
                        assertThat(ParaletPlan.predictedSlowdown(n, m - 1)).isGreaterThan(x);
                    }
                });
    }

    @Test
    void flowletSizeIsFourBdpOverM() {
        // ParaLet §5.2: S = 4 * BDP / m, rounded up to whole bytes
        assertThat(lbsim.lb.ParaLet.flowletBytes(100_000, 19)).isEqualTo(21_053); // 400000 / 19 = 21052.6
        assertThat(lbsim.lb.ParaLet.flowletBytes(1_000, 4)).isEqualTo(1_000);
        ParaletPlan plan = ParaletPlan.compute(128, 1.5, 125_000L);
        assertThat(plan.m()).isEqualTo(24);
        assertThat(plan.flowletBytes()).isEqualTo(20_834L); // 500000 / 24 = 20833.3
        assertThat(ParaletPlan.compute(128, 1.5, null).flowletBytes()).isNull();
    }

    @Test
    void rendersEveryFormat() {
        ParaletPlan plan = ParaletPlan.compute(128, 1.5, 125_000L);
        assertThat(plan.render(PlanFormat.TEXT)).contains("\nm: 24\n").contains("flowlet size").contains("20834");
        JsonNode json = JsonMapper.builder().build().readTree(plan.render(PlanFormat.JSON));
        assertThat(json.get("m").asLong()).isEqualTo(24);
        assertThat(json.get("flowlet_bytes").asLong()).isEqualTo(20_834);
        assertThat(json.get("predicted_slowdown").asDouble()).isLessThanOrEqualTo(1.5);
        assertThat(json.get("predicted_slowdown_m_minus_1").asDouble()).isGreaterThan(1.5);
        assertThat(plan.render(PlanFormat.CSV))
                .startsWith("m,nodes,slowdown,z,predicted_slowdown,bdp_bytes,flowlet_bytes\n24,128,1.5,");
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> ParaletPlan.compute(128, 1.0, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--slowdown").hasMessageContaining("> 1");
        assertThatThrownBy(() -> ParaletPlan.compute(128, 0.5, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--slowdown");
        assertThatThrownBy(() -> ParaletPlan.compute(128, Double.NaN, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--slowdown");
        assertThatThrownBy(() -> ParaletPlan.compute(1, 2, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--nodes").hasMessageContaining(">= 2");
        assertThatThrownBy(() -> ParaletPlan.compute(128, 2, 0L)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--bdp-bytes");
        assertThatThrownBy(() -> ParaletPlan.compute(128, 1 + 1e-9, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("too close to 1");
    }
}

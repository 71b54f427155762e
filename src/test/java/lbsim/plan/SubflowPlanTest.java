package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import lbsim.BadInputException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * McClure et al. (papers/001) §7 Eq. 1. The paper's default: 32 KB per-link buffers, 3-tier fat-tree (4 queues
 * with path choice); its packet size is not stated, but 2 MB flows of 500 packets (Fig. 2, §6) mean ~4 KB
 * packets, i.e. q/p = 8.
 */
class SubflowPlanTest {

    @Test
    void papersElevenSubflowsForThresholdThree() {
        // §7: "For dupACK threshold of 3 and one flow per host in our default topology, the number of subflows
        // necessary is only 11": ceil(4 * 8 / 3) = ceil(10.67) = 11
        assertThat(SubflowPlan.subflows(32_768, 4_096, 1, 3)).isEqualTo(11);
    }

    @Test
    void papersHalvingForThresholdSix() {
        // §7: "set the threshold to 6, this value can be halved": 32 / 6 = 5.33 -> 6 (11 / 2 = 5.5 rounded up)
        assertThat(SubflowPlan.subflows(32_768, 4_096, 1, 6)).isEqualTo(6);
    }

    @Test
    void papersThresholdOf32WithoutSubflows() {
        // §5: "we would need a dupACK threshold of 32 to ensure that dupACK-based retransmissions were due to
        // losses and not reordering": 4 * q/p = 32 dupACKs at most, and t < 32 is the trigger condition
        assertThat(SubflowPlan.subflows(32_768, 4_096, 1, 32)).isEqualTo(1);
        assertThat(SubflowPlan.subflows(32_768, 4_096, 1, 31)).isEqualTo(2);
        assertThat(SubflowPlan.compute(32_768, 4_096, 1, 3, 4, null).dupackForOneSubflow()).isEqualTo(32);
    }

    /** The audit's 39 999 999 999 996 subflows: printed without comment; now a warning in text (and JSON, CSV's stderr). */
    @Test
    void moreQpsPerHostThanANicHoldsIsWarned() {
        SubflowPlan absurd = SubflowPlan.compute(9_999_999_999_999L, 1, 1, 1, 4, null);
        assertThat(absurd.warnings()).singleElement().asString().contains("39999999999996 subflows (QPs) per host", "450");
        assertThat(absurd.render(PlanFormat.TEXT)).contains("\nWARNING: s * f = 39999999999996 * 1");
        assertThat(SubflowPlan.compute(32_768, 4_096, 1, 3, 4, null).warnings()).isEmpty(); // the paper's 11
    }

    @Test
    void manyFlowsPerHostNeedOneSubflow() {
        // Fig. 11 caption: "after 40 [concurrent permutations], the calculated number of subflows is 1". With
        // q/p = 8 and t = 3 Eq. 1 already gives 1 from f = 11 on (32 / (3 f) <= 1), consistent with but much
        // earlier than the caption's 40.
        assertThat(SubflowPlan.subflows(32_768, 4_096, 10, 3)).isEqualTo(2);
        assertThat(SubflowPlan.subflows(32_768, 4_096, 11, 3)).isEqualTo(1);
        assertThat(SubflowPlan.subflows(32_768, 4_096, 40, 3)).isEqualTo(1);
    }

    @Test
    void fewerQueuesInALeafSpine() {
        // h = 2 (leaf uplink, spine downlink): ceil(2 * 8 / 3) = 6
        assertThat(SubflowPlan.subflows(32_768, 4_096, 1, 3, 2)).isEqualTo(6);
        // 400 KB buffers (§5 large-buffer case), 4 KB packets, t = 3: ceil(4 * 400000 / (4096 * 3)) = 131
        assertThat(SubflowPlan.subflows(400_000, 4_096, 1, 3)).isEqualTo(131);
    }

    @Test
    void subflowCountIsTheSmallestSafeOne() {
        // safe iff t >= h*q / (p*f*s)  <=>  s*p*f*t >= h*q (§7 Eq. 1 with r/b = 1/(f*s))
        qt().withFixedSeed(23L).withExamples(3000)
                .forAll(longs().between(1, 50_000_000), longs().between(64, 9_216), longs().between(1, 512),
                        integers().between(1, 64))
                .checkAssert((q, p, f, t) -> {
                    long s = SubflowPlan.subflows(q, p, f, t, 4);
                    assertThat(s).isPositive();
                    assertThat(s * p * f * t).isGreaterThanOrEqualTo(4 * q);
                    if (s > 1) {
                        assertThat((s - 1) * p * f * t).isLessThan(4 * q);
                    }
                    assertThat(SubflowPlan.maxDupacks(q, p, f, 4, s)).isLessThanOrEqualTo(t + 1e-9);
                });
    }

    @Test
    void rendersEveryFormatWithOptionalLinkRate() {
        SubflowPlan plan = SubflowPlan.compute(32_768, 4_096, 1, 3, 4, 100.0);
        assertThat(plan.maxDelayDifferenceNs()).isCloseTo(10_485.76, within(1e-9)); // 4 * 32768 B * 8 / 100 Gb/s
        assertThat(plan.subflowGbps()).isCloseTo(100.0 / 11, within(1e-12));
        assertThat(plan.render(PlanFormat.TEXT)).contains("\nsubflows: 11\n").contains("10485.76 ns");
        JsonNode json = JsonMapper.builder().build().readTree(plan.render(PlanFormat.JSON));
        assertThat(json.get("subflows").asLong()).isEqualTo(11);
        assertThat(json.get("queue_packets").asDouble()).isEqualTo(8.0);
        assertThat(plan.render(PlanFormat.CSV)).startsWith("subflows,queue_bytes,mtu,flows_per_host,dupack,")
                .contains("\n11,32768,4096,1,3,4,8,");
        assertThat(SubflowPlan.compute(32_768, 4_096, 1, 3, 4, null).render(PlanFormat.JSON))
                .contains("\"link_gbps\": null");
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> SubflowPlan.subflows(0, 4096, 1, 3)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--queue-bytes");
        assertThatThrownBy(() -> SubflowPlan.subflows(32768, 0, 1, 3)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--mtu");
        assertThatThrownBy(() -> SubflowPlan.subflows(32768, 4096, 0, 3)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--flows-per-host");
        assertThatThrownBy(() -> SubflowPlan.subflows(32768, 4096, 1, 0)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--dupack").hasMessageContaining(">= 1");
        assertThatThrownBy(() -> SubflowPlan.compute(32768, 4096, 1, 3, 0, null)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--queues");
        assertThatThrownBy(() -> SubflowPlan.compute(32768, 4096, 1, 3, 4, -1.0)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--link-gbps");
    }
}

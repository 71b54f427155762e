package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * McClure Appendix A against the simulator: on a k = 4 fat-tree all-to-all, degrading pod 0's
 * pod-core links so Eq. 2 (lost-bandwidth reading) says "insufficient" makes every scheme's
 * CCT exceed the ideal by at least the capacity bound, while a "sufficient" degradation leaves
 * the ideal reachable within the schemes' usual overhead.
 */
class CapacityPlanSimulationTest {
    private static final int K = 4;
    private static final long RANK_BYTES = 4_800_000;     // 300 KB to each of the 16 ranks

    private static String scenario(String failures) {
        return """
                name: appendix-a
                topology: {kind: fat-tree, k: 4, link_gbps: 100}
                nic: {profile: multipath}
                switch: {ecn_profile: dctcp-hpcc}
                workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: %d}
                failures: %s
                """.formatted(RANK_BYTES, failures);
    }

    /** Pod 0's inter-pod bytes over its remaining pod-core capacity, over the ideal per-host time. */
    private static double capacityBoundOverIdeal(int failed, double lost) {
        int hosts = K * K * K / 4;
        int podHosts = K * K / 4;
        double perPair = (double) RANK_BYTES / hosts;
        double podEgress = podHosts * (hosts - podHosts) * perPair;
        double links = K * K / 4.0 - failed * lost;
        double hostBytes = (hosts - 1) * perPair;
        return (podEgress / links) / hostBytes;
    }

    private static double normalisedCct(String failures, String scheme) {
        RunResult r = Scenarios.run(scenario(failures), "load_balancer.scheme=" + scheme);
        Scenarios.assertConserved(r);
        return (double) r.cctNs() / r.idealCctNs();
    }

    @Test
    void anInsufficientFailureKeepsEverySchemeAboveTheCapacityBound() {
        // all four pod-core links of pod 0 lose half their bandwidth: f = 4, p = 0.5
        assertThat(CapacityPlan.sufficient(K, 4, 0.5)).isFalse();
        double bound = capacityBoundOverIdeal(4, 0.5);
        assertThat(bound).isGreaterThan(1.5);
        String failures = "[{at_us: 0, link: \"agg0-core*\", kind: degrade, capacity_fraction: 0.5},"
                + " {at_us: 0, link: \"agg1-core*\", kind: degrade, capacity_fraction: 0.5}]";
        for (String scheme : List.of("ecmp", "spray-host", "spray-adaptive", "drill")) {
            assertThat(normalisedCct(failures, scheme)).as(scheme).isGreaterThanOrEqualTo(bound);
        }
    }

    @Test
    void aSufficientFailureLeavesTheIdealWithinReach() {
        // two pod-core links on different aggregation switches lose 30 %: f = 2, p = 0.3
        CapacityPlan plan = CapacityPlan.compute(K, 2, new BigDecimal("0.3"), CapacityPlan.Reading.LOST_BANDWIDTH);
        assertThat(plan.sufficient()).isTrue();
        assertThat(capacityBoundOverIdeal(2, 0.3)).isLessThanOrEqualTo(1.0);
        String failures = "[{at_us: 0, link: \"agg0-core0\", kind: degrade, capacity_fraction: 0.7},"
                + " {at_us: 0, link: \"agg1-core2\", kind: degrade, capacity_fraction: 0.7}]";
        double best = Double.MAX_VALUE;
        for (String scheme : List.of("spray-host", "spray-adaptive", "drill")) best = Math.min(best, normalisedCct(failures, scheme));
        // the capacity bound does not bind here. Measured: failure-free, spraying is 1.07x ideal on this fabric;
        // with this degradation the best of the three was 1.19 when switches compared exact egress bytes and is
        // 1.21 (drill) with 8 load bands (switch.ar_levels, issue 26: a slowed link's queue shows only once it
        // fills a 37.5 KB band), far below the insufficient case's bound (> 1.5)
        assertThat(best).isLessThan(1.25);
    }
}

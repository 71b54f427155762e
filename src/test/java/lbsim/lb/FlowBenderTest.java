package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** FlowBender moves a QP on congestion (ECN fraction or RTT per round) and on timeouts only. */
class FlowBenderTest {
    @Test
    void ecnSignalMovesOnlyAfterNRoundsAboveTheThreshold() {
        FlowBender fb = new FlowBender(new SplittableRandom(1), "ecn", 0.05, 3, 2.5);
        FlowBender.State s = new FlowBender.State();
        assertThat(fb.ack(s, 100, 5, 0, true)).as("5 % is not above T").isFalse();
        assertThat(fb.ack(s, 60, 3, 0, false)).as("mid-round").isFalse();
        assertThat(fb.ack(s, 40, 4, 0, true)).as("7 of 100: round 1").isFalse();
        assertThat(fb.ack(s, 100, 6, 0, true)).as("round 2").isFalse();
        assertThat(fb.ack(s, 100, 0, 0, true)).as("a clean round resets").isFalse();
        assertThat(fb.ack(s, 100, 6, 0, true)).isFalse();
        assertThat(fb.ack(s, 100, 6, 0, true)).isFalse();
        assertThat(fb.ack(s, 100, 6, 0, true)).as("third congested round in a row").isTrue();
        assertThat(s.congRounds).isZero();
    }

    @Test
    void rttSignalCountsARoundWhoseMeanRttExceedsTheFactorTimesTheUnloadedRtt() {
        FlowBender fb = new FlowBender(new SplittableRandom(1), "rtt", 0.05, 1, 2.5);
        FlowBender.State s = new FlowBender.State();
        s.basePs = 1_000;
        assertThat(fb.ack(s, 1, 1, 2_000, false)).isFalse();
        assertThat(fb.ack(s, 1, 1, 3_000, true)).as("mean 2500 is not above 2.5 x 1000, marks ignored").isFalse();
        assertThat(fb.ack(s, 1, 0, 2_000, false)).isFalse();
        assertThat(fb.ack(s, 1, 0, 3_004, true)).as("mean 2502").isTrue();
    }

    @Test
    void movesOffTheDegradedSpineWithEitherSignalAndNeverOnAnIdleFabric() {
        String degraded = PlbTest.DEGRADED + "load_balancer: {scheme: flowbender}\n";
        RunResult pinned = Scenarios.run(degraded, "seed=2", "load_balancer.rounds=1000000");
        assertThat(Scenarios.bytes(pinned, "leaf0", "spine0")).as("precondition: seed 2 starts on the degraded spine")
                .isGreaterThan(1_900_000);
        for (String signal : new String[] {"ecn", "rtt"}) {
            for (String pfc : new String[] {"true", "false"}) {
                RunResult r = Scenarios.run(degraded, "seed=2", "load_balancer.signal=" + signal, "transport.pfc=" + pfc);
                Scenarios.assertConserved(r);
                assertThat(r.lbCounters().get("path_switches")).as(signal).isPositive();
                assertThat(r.flows().get(0).fctNs()).as(signal).isLessThan(0.5 * pinned.flows().get(0).fctNs());
            }
            RunResult idle = Scenarios.run(degraded.replace("capacity_fraction: 0.1", "capacity_fraction: 1.0"), "seed=2",
                    "load_balancer.signal=" + signal);
            assertThat(idle.flows().get(0).pathChanges()).as(signal + " on an idle fabric").isZero();
            assertThat(idle.lbCounters()).containsEntry("path_switches", 0L);
        }
    }

    @Test
    void anUnknownSignalIsBadInput() {
        assertThatThrownBy(() -> Scenarios.parse(PlbTest.DEGRADED, "load_balancer.scheme=flowbender", "load_balancer.signal=delay"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("load_balancer.signal").hasMessageContaining("ecn, rtt");
    }
}

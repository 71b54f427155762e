package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Hopper on a 2-leaf 2-spine fabric whose leaf0-spine0 uplink keeps 10 % of its rate: with
 * seed 2 the flow's first source port hashes onto spine0, so the RTT climbs past th_probe and
 * th_cong while a probe through spine1 sees the unloaded RTT.
 */
class HopperTest {
    private static final String SCENARIO = PlbTest.DEGRADED.replace("name: degraded", "name: hopper\nseed: 2")
            + "load_balancer: {scheme: hopper}\n";

    private static RunResult run(String... overrides) {
        return Scenarios.run(SCENARIO, overrides);
    }

    private static long fct(RunResult r) {
        return Math.round(r.flows().get(0).fctNs());
    }

    @Test
    void probesSwitchesToTheIdleSpineAndTheFlowFinishesSooner() {
        RunResult stay = run("load_balancer.delta_rtt=0"); // δ_rtt never met: Hopper cannot switch
        assertThat(Scenarios.bytes(stay, "leaf0", "spine0")).as("precondition: seed 2 starts on the degraded spine")
                .isGreaterThan(1_900_000);
        assertThat(stay.lbCounters()).containsEntry("path_switches", 0L);
        assertThat(stay.lbCounters().get("switches_declined")).isPositive();
        assertThat(stay.flows().get(0).pathChanges()).isZero();

        RunResult hop = run();
        Scenarios.assertConserved(hop);
        assertThat(hop.lbCounters().get("probes")).isGreaterThanOrEqualTo(2);
        assertThat(hop.lbCounters().get("probe_acks")).isLessThanOrEqualTo(hop.lbCounters().get("probes"));
        assertThat(hop.lbCounters().get("path_switches")).isPositive();
        assertThat(hop.flows().get(0).pathChanges()).isPositive();
        assertThat(Scenarios.bytes(hop, "leaf0", "spine1")).isGreaterThan(Scenarios.bytes(hop, "leaf0", "spine0"));
        assertThat(fct(hop)).isLessThan(fct(stay) / 2);
        // the counters reach summary.json as lb.probes, lb.path_switches
        @SuppressWarnings("unchecked")
        Map<String, Long> lb = (Map<String, Long>) ResultWriter.summary(hop).get("lb");
        assertThat(lb).containsEntry("probes", hop.lbCounters().get("probes")).containsKey("path_switches");
        assertThat((Map<?, ?>) ResultWriter.summary(run("load_balancer.scheme=ecmp")).get("lb")).isEmpty();
    }

    @Test
    void theDelayedSwitchAvoidsOutOfOrderArrivals() {
        // a receiver that keeps every out-of-order packet counts each overtake (an in-order one discards and goes back)
        RunResult delayed = run("nic.profile=multipath");
        RunResult immediate = run("nic.profile=multipath", "load_balancer.switch_delay=0");
        Scenarios.assertConserved(immediate);
        assertThat(immediate.lbCounters().get("path_switches")).isPositive();
        assertThat(immediate.outOfOrderPackets()).as("new-path packets overtake the old queue").isGreaterThan(20);
        assertThat(delayed.outOfOrderPackets()).isLessThan(immediate.outOfOrderPackets() / 10);
    }

    /**
     * Hopper §4.1.1's IRN buffers out-of-order packets within 30 of the expected one and ACKs them "normally";
     * plain IRN NACKs each, so packets that a path switch merely reordered are resent. Nothing is lost here.
     */
    @Test
    void withHoppersIrnVariantReorderedPacketsAreNotResent() {
        String[] irn = {"transport.loss_recovery=irn", "transport.pfc=false", "load_balancer.switch_delay=0"};
        RunResult nackEvery = run(irn);
        RunResult ackInWindow = run(concat(irn, "transport.irn_nack=beyond-window"));
        for (RunResult r : List.of(nackEvery, ackInWindow)) {
            Scenarios.assertConserved(r);
            assertThat(r.packetsDropped()).isZero();
            assertThat(r.outOfOrderPackets()).as("precondition: the switch reorders").isPositive();
        }
        assertThat(nackEvery.packetsRetransmitted()).isPositive();
        assertThat(ackInWindow.packetsRetransmitted()).isZero();
    }

    private static String[] concat(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }

    @Test
    void completesAndConservesWithoutPfcAndProbesNothingOnAnIdleFabric() {
        RunResult lossy = run("transport.pfc=false");
        Scenarios.assertConserved(lossy);
        assertThat(lossy.lbCounters().get("path_switches")).isPositive();
        RunResult idle = Scenarios.run(SCENARIO.replace("capacity_fraction: 0.1", "capacity_fraction: 1.0"));
        assertThat(idle.lbCounters()).containsEntry("probes", 0L).containsEntry("path_switches", 0L);
    }

    /**
     * The flow's spine0 path runs at 10 % (10 Gbps) and queues; spine1 is an idle 1 Gbps path. An ACK-sized probe
     * crosses spine1 in about the unloaded RTT, so Hopper moves onto the slow path; a 10 KB probe (the §4.2.1
     * testbed's) spends 2 x 82 us serialising on its 1G hops, so Hopper stays, and the flow finishes sooner.
     */
    @Test
    void dataCarryingProbesSeeASlowIdlePathThatAckSizedProbesMiss() {
        String slow = PlbTest.DEGRADED.replace("link_gbps: 100}", "link_gbps: 100, link_overrides: [{links: \"leaf*-spine1\", gbps: 1}]}")
                + "load_balancer: {scheme: hopper}\n";
        for (String seed : new String[] {"seed=1", "seed=2"}) {
            RunResult ack = Scenarios.run(slow, seed);
            RunResult data = Scenarios.run(slow, seed, "load_balancer.probe_bytes=10240");
            Scenarios.assertConserved(data);
            // precondition: the flow starts on the degraded spine
            assertThat(Scenarios.bytes(ack, "leaf0", "spine0")).as(seed).isGreaterThan(1_000_000);
            long probes = data.lbCounters().get("probes");
            assertThat(probes % 3).as("three packets per 10 KB probe").isZero();
            assertThat(data.lbCounters().get("probe_acks")).isLessThanOrEqualTo(probes);
            assertThat(data.lbCounters().get("path_switches")).as(seed).isLessThan(ack.lbCounters().get("path_switches"));
            assertThat(fct(data)).as(seed).isLessThan(fct(ack));
        }
    }

    @Test
    void theLinearEstimateExtrapolatesTheEpochsRttTrendOverThePacketsInFlight() {
        Hopper h = new Hopper(null, 1.0, 1.5, 2.5, 4.0, 0.8, 1.0, 10);
        Hopper.State s = new Hopper.State();
        Hopper.newEpoch(s, 0);
        for (int i = 0; i < 5; i++) h.sample(s, 10_000 + 1_000L * i); // 10, 11, ..., 14 us
        assertThat(s.avgRttPs).isEqualTo(14_000.0); // alpha = 1: the last sample
        assertThat(Hopper.extrapolate(s, 3)).isCloseTo(17_000.0, within(1e-6));
        Hopper.newEpoch(s, 0);
        for (int i = 0; i < 4; i++) h.sample(s, 20_000 - 1_000L * i); // falling: no extrapolation
        assertThat(Hopper.extrapolate(s, 10)).isEqualTo(17_000.0);
        Hopper smooth = new Hopper(null, 0.25, 1.5, 2.5, 4.0, 0.8, 1.0, 10);
        Hopper.newEpoch(s, 0);
        smooth.sample(s, 8_000);
        smooth.sample(s, 16_000);
        assertThat(s.avgRttPs).isEqualTo(10_000.0);
    }
}

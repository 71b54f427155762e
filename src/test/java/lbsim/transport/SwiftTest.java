package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** Swift's window rules in isolation, and its delay target holding a bottleneck queue in an incast. */
class SwiftTest {
    private static final int MSS = 4160;
    private static final long US = 1_000_000L;

    private long now;

    private Swift swift(double initPackets) {
        return new Swift((long) (initPackets * MSS), MSS, 100_000_000_000L, 10 * US, 3, 10 * US, () -> now);
    }

    @Test
    void belowTargetTheWindowGrowsByOnePacketPerWindowOfAcks() {
        Swift s = swift(10);
        double w0 = s.cwndPackets();
        for (int i = 0; i < 10; i++) s.onAck(MSS, 0, 5 * US, i, i + 10);
        assertThat(s.cwndPackets()).isCloseTo(w0 + 1, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void aboveTargetItCutsProportionallyAtMostOncePerRttAndNeverByMoreThanMaxMdf() {
        Swift s = swift(50);
        long target = s.targetPs();
        long delay = target * 2;
        now = 100 * US;
        s.onAck(MSS, 0, delay, 1, 50);
        double expected = 50 * Math.max(1 - Swift.BETA * (delay - target) / (double) delay, 1 - Swift.MAX_MDF);
        assertThat(s.cwndPackets()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));
        double afterFirst = s.cwndPackets();
        now += US; // well within one RTT: no second cut
        s.onAck(MSS, 0, delay, 2, 50);
        assertThat(s.cwndPackets()).isEqualTo(afterFirst);
        now += 100_000 * US; // long after the smoothed RTT, which the huge sample itself inflates
        s.onAck(MSS, 0, 100 * target, 3, 50); // a huge delay is capped at max_mdf
        assertThat(s.cwndPackets()).isCloseTo(afterFirst * (1 - Swift.MAX_MDF), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theTargetGrowsAsTheWindowShrinksAndRepeatedTimeoutsResetToTheMinimum() {
        assertThat(swift(0.5).targetPs()).isGreaterThan(swift(50).targetPs());
        Swift s = swift(20);
        for (int i = 0; i < Swift.RETX_RESET; i++) s.onTimeout();
        assertThat(s.cwndPackets()).isEqualTo(Swift.MIN_CWND);
        // below one packet it paces: one packet per srtt / cwnd
        assertThat(s.rateBps()).isLessThan(100_000_000_000L / 10);
    }

    private static final String INCAST = """
            name: swift
            topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 5, link_gbps: 100}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 20000000}, {src: 2, dst: 0, size_bytes: 20000000},
                       {src: 3, dst: 0, size_bytes: 20000000}, {src: 4, dst: 0, size_bytes: 20000000}]}
            """;

    private static RunResult run(String... set) {
        return Runner.run(ScenarioLoader.parse("t", INCAST, null, List.of(set), null), Runner.Progress.NONE);
    }

    @Test
    void inAnIncastTheQueueStaysNearTheDelayTargetAndTheLinkStaysBusy() {
        RunResult r = run("transport.cc=swift", "transport.swift_base_target_us=10");
        RunResult fixed = run("transport.cc=fixed-rate");
        assertThat(r.completed()).isTrue();
        assertThat(r.packetsSent()).isEqualTo(r.packetsDelivered() + r.packetsDropped());
        long q = r.links().stream().filter(l -> l.from().equals("leaf0") && l.to().equals("h0"))
                .mapToLong(LinkRecord::maxQueueBytes).max().orElseThrow();
        // 10 us base + 1 hop allowance + flow scaling at ~ (queue / 4 flows) windows: a queue of tens of us at 100G,
        // far below what four line-rate senders build
        long fixedQ = fixed.links().stream().filter(l -> l.from().equals("leaf0") && l.to().equals("h0"))
                .mapToLong(LinkRecord::maxQueueBytes).max().orElseThrow();
        assertThat(q).isLessThan(fixedQ / 4);
        double max = r.flows().stream().mapToDouble(FlowRecord::fctNs).max().orElseThrow();
        double min = r.flows().stream().mapToDouble(FlowRecord::fctNs).min().orElseThrow();
        assertThat(max).isLessThan(1.15 * 4 * 20_000_000 * 8 / 100e9 * 1e9);
        assertThat(min / max).isGreaterThan(0.8);
    }

    /**
     * The default base target (swift_base_target_us: 0) is the fabric's unloaded RTT over its longest
     * path, so it must cover the serialisation on the fabric's slowest links: with 5 Gbps uplinks
     * under 400 Gbps hosts and 1 ns links, one idle-path packet takes about 15 us against a target
     * computed at the hosts' rate (under 1 us plus allowances); every RTT sample was above target,
     * the window fell to its minimum and a lone 300 KB flow took 86.6 ms instead of 0.49 ms.
     */
    @Test
    void aLoneFlowOverSlowUplinksIsNotThrottledByTheDefaultTarget() {
        String yaml = """
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 1, link_gbps: 400, uplink_gbps: 5,
                           link_latency_ns: 1}
                transport: {cc: swift}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 300000}]}
                """;
        RunResult r = Runner.run(ScenarioLoader.parse("t", yaml, null, List.of(), null), Runner.Progress.NONE);
        assertThat(r.completed()).isTrue();
        // 74 packets pipelined through two 5 Gbps hops (store and forward, 1 ns links): about 300 KB x 8 / 5 Gbps
        double physics = 494_341.92;
        assertThat(r.flows().get(0).fctNs()).isBetween(physics - 1, 1.05 * physics);
    }
}

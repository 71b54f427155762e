package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ACK coalescing ({@code ack_every} n) with windows smaller than n packets: the sender asks for
 * the ACK it waits on (AckReq), so no flow waits for a retransmission timeout. Before AckReq a
 * lone 2 MB flow with ack_every 16 on a zero-latency fabric (window 2 packets) sent 34 packets in
 * 5 ms, every one after a timeout.
 */
class AckCoalescingTest {
    /** The defect's repro: zero latency, so the one-BDP window is two packets. */
    static final String LONE = """
            name: ack
            max_time_ms: 20
            topology: {leaves: 2, spines: 1, hosts_per_leaf: 1, link_latency_ns: 0}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 2000000}]}
            """;

    /** Three senders into one host at zero latency: the ToR port marks, so windows are cut under packets in flight. */
    static final String INCAST = """
            name: incast
            max_time_ms: 20
            topology: {leaves: 2, spines: 2, hosts_per_leaf: 2, link_latency_ns: 0}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 500000}, {src: 2, dst: 0, size_bytes: 500000},
                                            {src: 3, dst: 0, size_bytes: 500000}]}
            """;

    /** 400G NICs on a 10G fabric: the leaf uplink queues, marks and (for delay-based Swift) delays. */
    static final String FAST_NIC = """
            name: fastnic
            max_time_ms: 20
            topology: {leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 10, host_link_gbps: 400, link_latency_ns: 100}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 300000}]}
            """;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String fabric : List.of("LONE", "INCAST", "FAST_NIC")) {
            for (int n : new int[] {1, 4, 16, 64}) {
                for (String cc : CongestionControls.NAMES) out.add(Arguments.of(fabric, n, cc, "go-back-n", "ecmp"));
                for (String lr : LossRecoveries.IMPLEMENTED) {
                    if (!lr.equals("go-back-n")) out.add(Arguments.of(fabric, n, "dctcp", lr, "ecmp"));
                }
                for (String lr : List.of("go-back-n", "irn")) out.add(Arguments.of(fabric, n, "swift", lr, "spray-host"));
            }
        }
        return out.stream();
    }

    static String yaml(String fabric) {
        return switch (fabric) {
            case "LONE" -> LONE;
            case "INCAST" -> INCAST;
            default -> FAST_NIC;
        };
    }

    @ParameterizedTest(name = "{0} ack_every {1} {2} {3} {4}")
    @MethodSource("cases")
    void coalescedAcksNeverLeaveAWindowLimitedSenderWaitingForTheTimeout(String fabric, int n, String cc, String lr, String scheme) {
        // sprayed packets reorder: a receiver that keeps them, or the in-order one of the roce NIC would go back
        String reorder = scheme.equals("spray-host") ? "nic.reorder=unbounded" : "nic.reorder=" + (lr.equals("go-back-n") ? "in-order" : "unbounded");
        RunResult r = Scenarios.run(yaml(fabric), "transport.ack_every=" + n, "transport.cc=" + cc,
                "transport.loss_recovery=" + lr, "load_balancer.scheme=" + scheme, reorder);
        Scenarios.assertConserved(r);
        assertThat(r.timeouts()).as("timeouts").isZero();
        assertThat(r.packetsDropped()).isZero();
        // a timeout (1 ms) would cost several times the ideal on these fabrics. With a window of
        // about one BDP, a receiver that ACKs once per window idles the pipe for part of each
        // round trip (IRN's fixed BDP cap on the zero-latency fabric: 1.77x ideal against 1.02x)
        RunResult perPacket = n == 1 ? r : Scenarios.run(yaml(fabric), "transport.cc=" + cc,
                "transport.loss_recovery=" + lr, "load_balancer.scheme=" + scheme, reorder);
        assertThat(r.completionNs()).as("against ack_every 1").isLessThan(1.8 * perPacket.completionNs());
        if (fabric.equals("FAST_NIC")) {
            // the ideal of a flows workload counts the 400G NIC only; the idle FCT counts the 10G fabric.
            // Swift is far from it on this fabric with or without coalescing (slowdown 57 with ack_every 1)
            double slowdown = r.flows().get(0).slowdown();
            if (!cc.equals("swift")) assertThat(slowdown).as("slowdown").isLessThan(1.8);
        } else {
            assertThat(r.normalised()).as("completion / ideal").isLessThan(1.8);
        }
    }

    @Test
    void theDefectsReproFinishesWithoutATimeout() {
        RunResult r = Scenarios.run(LONE.replace("max_time_ms: 20", "max_time_ms: 5"), "transport.ack_every=16");
        Scenarios.assertConserved(r);
        assertThat(r.timeouts()).isZero();
        assertThat(r.normalised()).isLessThan(1.2);
    }

    /**
     * DCTCP cuts its window on an ECN echo while packets sent without an ACK request are in flight:
     * fewer than ack_every of them arrive unmarked after the last ACK, so the receiver never ACKs
     * them and the blocked sender sends one packet past the window carrying the request
     * ({@code QueuePair.ackRequestOwed}). Found by a random search of incasts; without it each of
     * these two runs waits for a timeout.
     */
    @ParameterizedTest(name = "{1}")
    @MethodSource("windowCutCases")
    void aWindowCutUnderUnrequestedPacketsDoesNotWaitForTheTimeout(String yaml, String sets) {
        RunResult r = Scenarios.run(yaml, sets.split(" "));
        Scenarios.assertConserved(r);
        assertThat(r.timeouts()).as("timeouts").isZero();
    }

    static Stream<Arguments> windowCutCases() {
        return Stream.of(
                Arguments.of("""
                        name: cut1
                        max_time_ms: 50
                        topology: {leaves: 3, spines: 2, hosts_per_leaf: 4, link_latency_ns: 1000, link_gbps: 25}
                        workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 89472, start_ns: 14244},
                          {src: 2, dst: 0, size_bytes: 198103, start_ns: 4185}, {src: 3, dst: 0, size_bytes: 10672, start_ns: 5448},
                          {src: 4, dst: 0, size_bytes: 244276, start_ns: 4912}]}
                        """, "transport.ack_every=8 transport.cc=dctcp transport.loss_recovery=tcp transport.pfc=true"),
                Arguments.of("""
                        name: cut2
                        max_time_ms: 50
                        topology: {leaves: 3, spines: 2, hosts_per_leaf: 4, link_latency_ns: 0, link_gbps: 25}
                        workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 335647, start_ns: 19988},
                          {src: 2, dst: 0, size_bytes: 186110, start_ns: 19601}, {src: 3, dst: 0, size_bytes: 172429, start_ns: 1848},
                          {src: 4, dst: 0, size_bytes: 43830, start_ns: 15959}, {src: 5, dst: 0, size_bytes: 152041, start_ns: 19555},
                          {src: 6, dst: 0, size_bytes: 366257, start_ns: 19062}, {src: 7, dst: 0, size_bytes: 45019, start_ns: 4424},
                          {src: 8, dst: 0, size_bytes: 250279, start_ns: 13987}]}
                        """, "transport.ack_every=4 transport.cc=dctcp transport.loss_recovery=go-back-n transport.pfc=false"));
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import lbsim.lb.Schemes;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every loss recovery end to end on small lossy fabrics (no PFC, small buffers). */
class LossRecoveryRunTest {
    /** Seven senders into one host through a 60 KB shared buffer: the receiver's ToR port overflows. */
    static final String INCAST = """
            name: incast
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, switch_buffer_bytes: 60000}
            transport: {pfc: false}
            workload: {kind: flows, flows: [%s]}
            max_time_ms: 50
            """.formatted(incastFlows());

    /** The permutation of SchemeContractTest, lossy. */
    static final String LOSSY = """
            name: lossy
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4, link_gbps: 100, switch_buffer_bytes: 150000}
            transport: {pfc: false, timeout_us: 1000}
            nic: {retry_count: 0}
            workload: {kind: permutation, size_bytes: 400000, concurrent: 2}
            max_time_ms: 100
            """;

    private static String incastFlows() {
        List<String> f = new ArrayList<>();
        for (int s = 1; s < 8; s++) f.add("{src: " + s + ", dst: 0, size_bytes: 300000}");
        return String.join(", ", f);
    }

    @Test
    void withTrimmingNoPayloadLossGoesUnreportedWhileHeadersFit() {
        for (String r : List.of("trim", "trim-rts")) {
            for (String cc : List.of("dctcp", "fixed-rate")) {
                RunResult res = Scenarios.run(INCAST, "transport.loss_recovery=" + r, "transport.cc=" + cc);
                Scenarios.assertConserved(res);
                String as = r + " " + cc;
                assertThat(res.packetsTrimmed()).as(as + ": the buffer overflowed").isPositive();
                assertThat(res.packetsDropped()).as(as + ": every overflow became a header").isZero();
                // each trimmed payload is resent exactly once, and nothing waits for a timeout
                assertThat(res.packetsRetransmitted()).as(as).isEqualTo(res.packetsTrimmed());
                assertThat(res.timeouts()).as(as).isZero();
            }
        }
    }

    @Test
    void headersThatDoNotFitAreDroppedAndLeftToTheTimeout() {
        for (String r : List.of("trim", "trim-rts")) {
            // a buffer of about one queued packet (a packet's bytes leave it when its serialisation
            // starts): data fills it and headers often find no room either. 4 300 B: a header fits
            // beside a queued one (trim: 1 260 trimmed, 742 dropped); 4 200 B: never (trim-rts: 0
            // trimmed, 1 062 dropped; with 4 300 B every trim-rts header fits)
            String buffer = r.equals("trim") ? "4300" : "4200";
            RunResult res = Scenarios.run(INCAST, "transport.loss_recovery=" + r, "transport.cc=fixed-rate",
                    "topology.switch_buffer_bytes=" + buffer, "transport.timeout_us=100");
            Scenarios.assertConserved(res);
            if (r.equals("trim")) assertThat(res.packetsTrimmed()).as(r).isPositive();
            assertThat(res.packetsDropped()).as(r + ": dropped headers").isPositive();
            assertThat(res.timeouts()).as(r).isPositive();
            assertThat(res.packetsRetransmitted()).as(r).isGreaterThanOrEqualTo(res.packetsTrimmed());
        }
    }

    @Test
    void withoutTrimmingTheSameIncastDropsPackets() {
        RunResult res = Scenarios.run(INCAST, "transport.loss_recovery=irn", "transport.cc=fixed-rate");
        Scenarios.assertConserved(res);
        assertThat(res.packetsTrimmed()).isZero();
        assertThat(res.packetsDropped()).isPositive();
    }

    @Test
    void selectiveRecoveriesResendFarLessThanGoBackN() {
        RunResult gbn = Scenarios.run(LOSSY, "transport.loss_recovery=go-back-n");
        Scenarios.assertConserved(gbn);
        assertThat(gbn.packetsDropped()).as("the scenario must lose packets").isPositive();
        for (String r : List.of("irn", "tcp")) {
            RunResult sel = Scenarios.run(LOSSY, "transport.loss_recovery=" + r);
            Scenarios.assertConserved(sel);
            assertThat(sel.packetsDropped()).as(r).isPositive();
            assertThat((double) sel.packetsRetransmitted() / sel.packetsDropped()).as(r + " resent per drop")
                    .isLessThan((double) gbn.packetsRetransmitted() / gbn.packetsDropped());
        }
    }

    @Test
    void erasureNeverResendsEvenWhenItLoses() {
        RunResult e = Scenarios.run(LOSSY, "transport.loss_recovery=erasure", "transport.cc=fixed-rate");
        Scenarios.assertConserved(e);
        assertThat(e.packetsDropped()).isPositive();
        assertThat(e.packetsRetransmitted()).isZero();
        long needed = 16 * 2 * ((400000 + 4095) / 4096);
        assertThat(e.packetsDelivered()).isGreaterThanOrEqualTo(needed);
        RunResult five = Scenarios.run(LOSSY, "transport.loss_recovery=erasure", "transport.cc=fixed-rate",
                "transport.erasure_overhead=0.05");
        Scenarios.assertConserved(five);
        assertThat(five.packetsDelivered()).isGreaterThanOrEqualTo(16 * 2 * (long) Math.ceil((400000 + 4095) / 4096 * 1.05));
    }

    static Stream<Arguments> recoveryBySchemes() {
        List<Arguments> a = new ArrayList<>();
        for (String r : LossRecoveries.IMPLEMENTED) for (String s : Schemes.available()) a.add(Arguments.of(r, s));
        return a.stream();
    }

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("recoveryBySchemes")
    void everyRecoveryCompletesAndConservesUnderEveryScheme(String recovery, String scheme) {
        RunResult r = Scenarios.run(LOSSY, "transport.loss_recovery=" + recovery, "load_balancer.scheme=" + scheme);
        Scenarios.assertConserved(r);
        // erasure never resends; DNLB's hosts re-post a timed-out QP's data on other QPs, and
        // what of it was sent before counts as retransmitted, whatever the recovery
        if (recovery.equals("erasure") && !scheme.equals("dnlb")) assertThat(r.packetsRetransmitted()).isZero();
        if (recovery.equals("erasure") && r.timeouts() == 0) assertThat(r.packetsRetransmitted()).isZero();
        if (!recovery.startsWith("trim")) assertThat(r.packetsTrimmed()).isZero();
        for (var l : r.links()) assertThat(l.utilisation()).as(l.from() + "->" + l.to()).isLessThanOrEqualTo(1.0);
    }

    @Test
    void erasuresSurplusAfterCompletionCountsInTheUtilisationWindow() {
        // a whole-flow window: the coded surplus is still leaving the NIC when the flow completes
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100, link_latency_ns: 1000}
                transport: {cc: dctcp, init_cwnd_bytes: 100000000, loss_recovery: erasure}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 1000000}]}
                """);
        Scenarios.assertConserved(r);
        var nic = r.links().stream().filter(l -> l.from().equals("h0")).findFirst().orElseThrow();
        // bytes the NIC sent, at 100 Gb/s, take longer than the flow's completion: the surplus drained after it
        double busyNs = nic.bytes() * 8.0 / 100.0;
        assertThat(busyNs).isGreaterThan(r.simTimeNs());
        assertThat(nic.utilisation()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
    }

    @Test
    void keysAreReadAndChecked() {
        var irn = Scenarios.parse(LOSSY, "transport.loss_recovery=irn", "nic.reorder_window_packets=8",
                "transport.irn_rto_low_us=50", "transport.dupack_threshold=5", "transport.erasure_overhead=0.1");
        assertThat(irn.transport().recovery()).isEqualTo(new RecoveryParams(50_000_000L, 5, 0.1, 0));
        assertThat(irn.nic().reorderWindowPackets()).isEqualTo(8);
        assertThat(Scenarios.parse(LOSSY, "transport.irn_nack=beyond-window").transport().recovery().irnNackInWindow()).isFalse();
        for (String bad : List.of("nic.reorder_window_packets=-1", "transport.irn_window_packets=8", "transport.dupack_threshold=0",
                "transport.erasure_overhead=-0.1", "transport.loss_recovery=selective", "transport.irn_nack=sometimes")) {
            assertThatThrownBy(() -> Scenarios.parse(LOSSY, bad)).as(bad).isInstanceOf(BadInputException.class)
                    .hasMessageContaining(bad.substring(0, bad.indexOf('=')));
        }
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * What a sprayed flow costs each NIC receiver (nic.reorder). One 400-packet flow is sprayed over
 * two spines whose links differ in latency by 4 us, so packets through the slow spine arrive about
 * 12 packet times (4 us / 333 ns at 100 Gb/s) after later ones through the fast one: a fixed,
 * loss-free reordering depth that no receiver can avoid seeing.
 */
class NicReceiverTest {
    static final String SKEWED = """
            name: skewed
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 100, link_latency_ns: 1000,
                       link_overrides: [{links: "leaf*-spine1", latency_ns: 3000}]}
            transport: {timeout_us: 1000}
            load_balancer: {scheme: spray-host}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 1638400}]}
            """;

    static RunResult run(String... overrides) {
        RunResult r = Scenarios.run(SKEWED, overrides);
        Scenarios.assertConserved(r);
        assertThat(r.packetsDropped()).as("nothing is lost: only reordered").isZero();
        assertThat(r.outOfOrderPackets()).as("the skew reorders").isPositive();
        return r;
    }

    @Test
    void anInOrderReceiverMakesASprayedFlowGoBackWhereAnUnboundedOneResendsNothing() {
        RunResult inOrder = run("nic.reorder=in-order");
        RunResult unbounded = run("nic.reorder=unbounded");
        assertThat(unbounded.packetsRetransmitted()).isZero();
        assertThat(inOrder.packetsRetransmitted()).as("Go-Back-N resends what the receiver discarded").isPositive();
        FlowRecord a = inOrder.flows().get(0);
        FlowRecord b = unbounded.flows().get(0);
        assertThat(a.fctNs()).isGreaterThan(b.fctNs());
        // the default NIC is the in-order RoCE one
        assertThat(Scenarios.run(SKEWED).packetsRetransmitted()).isEqualTo(inOrder.packetsRetransmitted());
    }

    @Test
    void aWindowAbsorbsReorderingWithinItAndResendsBeyondIt() {
        // 12 packet times of skew: a 64-packet window holds every early packet, a 4-packet one cannot
        RunResult wide = run("transport.loss_recovery=irn", "transport.irn_nack=beyond-window", "nic.reorder_window_packets=64");
        RunResult narrow = run("transport.loss_recovery=irn", "transport.irn_nack=beyond-window", "nic.reorder_window_packets=4");
        assertThat(wide.nic().get("reorder")).isEqualTo("window");
        assertThat(wide.packetsRetransmitted()).isZero();
        assertThat(narrow.packetsRetransmitted()).isPositive();
        assertThat(narrow.flows().get(0).fctNs()).isGreaterThan(wide.flows().get(0).fctNs());
    }

    @Test
    void theSenderSideCompletionIsTheLastAckAfterTheReceiverSideOne() {
        for (RunResult r : new RunResult[] {run("nic.reorder=in-order"), run("nic.profile=multipath")}) {
            FlowRecord f = r.flows().get(0);
            // the last ACK crosses the fabric back: at least the 2 us of propagation of the fast path
            assertThat(f.fctAckNs()).isGreaterThan(f.fctNs() + 2000);
        }
    }
}

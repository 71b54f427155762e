package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.net.Packet;
import org.junit.jupiter.api.Test;

/**
 * {@code transport.ack_out_of_order}: with {@code coalesced} a receiver counts sprayed packets that arrive beyond a
 * gap towards {@code ack_every} (uet-htsim's UecSink) and SACKs them in a bitmap, instead of ACKing each at once.
 */
class AckOutOfOrderTest {
    /** 2 leaves x 4 spines, 8 hosts per leaf, a permutation of 1 MB flows, sprayed: many packets reorder. */
    private static final String SPRAYED = """
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000,
                       port_buffer_bytes: 200000}
            transport: {cc: uec, loss_recovery: trim, pfc: false, ack_every: 4, timeout_us: 100}
            nic: {profile: multipath}
            load_balancer: {scheme: spray-host}
            workload: {kind: permutation, size_bytes: 1000000}
            """;

    /** What crossed the leaf uplinks: data packets, and ACKs that neither echo ECN nor answer an ACK request. */
    private record Counted(RunResult run, long data, long plainAcks) {}

    private static Counted run(String mode) {
        Set<Long> requested = new HashSet<>(); // (QP, sequence) of data packets that asked for an ACK
        long[] n = new long[2];
        RunResult r = Observed.run(SPRAYED, d -> {
            if (d.candidates().length < 2) return; // each inter-leaf packet once, at its leaf's uplink choice
            Packet p = d.p();
            if (p.kind == Packet.DATA) {
                n[0]++;
                if (p.ackReq) requested.add(((long) p.qp << 32) | p.seq);
            } else if (p.kind == Packet.ACK && p.ecnEchoCount == 0 && !requested.contains(((long) p.qp << 32) | p.sackSeq)) {
                n[1]++;
            }
        }, "transport.ack_out_of_order=" + mode);
        return new Counted(r, n[0], n[1]);
    }

    @Test
    void coalescedReceiversAckUnforcedOnlyEveryFourthPacketWhereAtOnceAcksEachReorderedOne() {
        Counted atOnce = run("at-once");
        Counted coalesced = run("coalesced");
        for (Counted c : List.of(atOnce, coalesced)) {
            Scenarios.assertConserved(c.run());
            assertThat(c.run().timeouts()).as("timeouts").isZero();
            assertThat(c.run().outOfOrderPackets()).as("reordered packets").isGreaterThan(c.run().packetsSent() / 4);
        }
        // coalesced: an ACK that is neither ECN nor requested comes after 4 new packets (or ends the flow)
        assertThat(coalesced.plainAcks()).isLessThanOrEqualTo(coalesced.data() / 4 + 16);
        // at once: each reordered packet is ACKed as it comes
        assertThat(atOnce.plainAcks()).isGreaterThan(2 * coalesced.plainAcks());
    }
}

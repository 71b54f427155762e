package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.plan.SubflowPlan;
import org.junit.jupiter.api.Test;

/**
 * McClure §6.2 / §7 on a k = 4 fat-tree with 32 KB buffers and host spraying: with one flow per
 * sender (full-rate flows) spraying reorders enough to trigger TCP's dupACK retransmissions
 * spuriously, with many flows per sender (all-to-all) it does not, and TCP over the Eq. 1
 * subflow count ("SF") removes the spurious ones; trimming beats TCP at one flow per sender.
 *
 * <p>Every lost packet needs at least one retransmission, so {@code retransmitted - dropped}
 * is a lower bound on the spurious retransmissions.
 */
class McClureReorderingClaimTest {
    private static final String FABRIC = """
            name: reorder
            topology: {kind: fat-tree, k: 4, link_gbps: 100, link_latency_ns: 1000, port_buffer_bytes: 32768}
            transport: {cc: fixed-rate, rate_coefficient: 1.0, loss_recovery: tcp, pfc: false}
            load_balancer: {scheme: spray-host}
            """;
    private static final String PERMUTATION = FABRIC + "workload: {kind: permutation, size_bytes: 1000000, start_jitter_ns: 333}\n";
    // 16 ranks, 62.5 KB to each of the 15 others (15 flows per sender)
    private static final String ALL_TO_ALL = FABRIC
            + "workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 1000000, start_jitter_ns: 5000}\n";

    private static RunResult run(String yaml, String... sets) {
        RunResult r = Scenarios.run(yaml, sets);
        Scenarios.assertConserved(r);
        return r;
    }

    private static long spuriousAtLeast(RunResult r) {
        return r.packetsRetransmitted() - r.packetsDropped();
    }

    @Test
    void reorderingTriggersSpuriousTcpRetransmitsOnlyAtHighPerFlowRatesAndSubflowsRemoveThem() {
        RunResult tcp = run(PERMUTATION);
        long packets = tcp.packetsSent() - tcp.packetsRetransmitted();
        // one flow per sender: many retransmissions that no loss explains (paper: ~99 per 500-packet flow)
        assertThat(spuriousAtLeast(tcp)).as("TCP, 1 flow/sender: retransmitted %d, dropped %d", tcp.packetsRetransmitted(),
                tcp.packetsDropped()).isGreaterThan(packets / 100);

        // SF: TCP over ceil(4 q / (p f t)) = 11 sprayed subflows; one delayed packet causes at most 32/11 < 3 dupACKs
        long s = SubflowPlan.subflows(32768, 4096, 1, 3, SubflowPlan.FAT_TREE_QUEUES);
        assertThat(s).isEqualTo(11);
        RunResult sf = run(PERMUTATION, "load_balancer={scheme: subflows, spray: true, count: " + s + "}");
        assertThat(sf.outOfOrderPackets()).as("SF still sprays (reorders) packets").isPositive();
        assertThat(spuriousAtLeast(sf)).as("SF: retransmitted %d, dropped %d", sf.packetsRetransmitted(), sf.packetsDropped())
                .isLessThan(Math.max(5, spuriousAtLeast(tcp) / 20));

        // many flows per sender (all-to-all): the per-flow rate is low, reordering rarely reaches 3 dupACKs (paper: < 1 per flow)
        RunResult ata = run(ALL_TO_ALL);
        long ataPackets = ata.packetsSent() - ata.packetsRetransmitted();
        assertThat(spuriousAtLeast(ata)).as("TCP all-to-all: retransmitted %d, dropped %d", ata.packetsRetransmitted(),
                ata.packetsDropped()).isLessThan(ataPackets / 1000 + 5);

        // trimming notifies losses explicitly and ignores order: it beats TCP at one flow per sender (§6.2, Fig. 9)
        RunResult trim = run(PERMUTATION, "transport.loss_recovery=trim");
        assertThat(trim.normalised()).isLessThan(tcp.normalised());
    }
}

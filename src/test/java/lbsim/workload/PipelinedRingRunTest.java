package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transfer's pipeline pieces go out one after another (docs/collectives.md §3.7), so a ring
 * broadcast or reduce overlaps its hops piece by piece instead of hop by hop.
 */
class PipelinedRingRunTest {
    static final double GBPS = 100;
    static final int MTU = 4096;
    static final int HDR = 64;
    static final double PACKET_NS = (MTU + HDR) * 8 / GBPS;   // 332.8 ns
    static final double LINK_NS = 1000;
    static final int HOSTS_PER_LEAF = 4;
    static final int N = 8;
    static final long SIZE = 8L << 20;
    static final long PIECE = 512L << 10;                     // NCCL's ring broadcast / reduce piece (§3.7)

    static String fabric(String op, long size) {
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000,
                           mtu_bytes: 4096}
                transport: {cc: dctcp, pfc: true, header_bytes: 64}
                load_balancer: {scheme: ecmp}
                workload: {kind: collective, op: %s, algorithm: ring, size_bytes: %d, placement: contiguous}
                """.formatted(op, size);
    }

    /** Propagation plus store-and-forward of one packet per switch between two hosts: 2 links and a leaf, or 4 links and 3 switches. */
    static double hopLatencyNs(int from, int to) {
        boolean sameLeaf = from / HOSTS_PER_LEAF == to / HOSTS_PER_LEAF;
        return sameLeaf ? 2 * LINK_NS + PACKET_NS : 4 * LINK_NS + 3 * PACKET_NS;
    }

    /**
     * Pipelined chain of n ranks, K pieces of p bytes, each piece sent whole before the next:
     * the first piece crosses n - 1 hops (each its wire time t_p plus the hop latency), the
     * other K - 1 arrive behind it one t_p apart:
     * <pre>T = (K + n - 2) t_p + sum over hops of latency_h,  t_p = p / MTU x (MTU + header) x 8 / B</pre>
     * A lower bound for in-order pieces; the simulated chain is slower only by the ACKs each
     * forwarding NIC sends on the egress its data uses (64 B per 4160 B packet, 1.5 %).
     */
    static double pipelinedChainNs(int[] chain) {
        int k = (int) (SIZE / PIECE);
        double pieceNs = PIECE / MTU * PACKET_NS;
        double latency = 0;
        for (int h = 0; h + 1 < chain.length; h++) latency += hopLatencyNs(chain[h], chain[h + 1]);
        return (k + chain.length - 2) * pieceNs + latency;
    }

    @ParameterizedTest
    @ValueSource(strings = {"broadcast", "reduce"})
    void ringBroadcastAndReducePipelinePieceByPiece(String op) {
        RunResult r = Scenarios.run(fabric(op, SIZE));
        Scenarios.assertConserved(r);
        int[] chain = new int[N];
        int first = op.equals("broadcast") ? 0 : 1;              // root 0: reduce runs 1, 2, ..., 7, 0
        for (int i = 0; i < N; i++) chain[i] = (first + i) % N;
        double bound = pipelinedChainNs(chain);
        double unpipelined = (N - 1) * SIZE * 8 / GBPS;          // hop after hop: what concurrent pieces gave (3.8 ms)
        assertThat((double) r.cctNs()).as("%s cct vs pipelined bound %.0f ns", op, bound)
                .isBetween(bound, 1.03 * bound);
        assertThat((double) r.cctNs()).isLessThan(0.3 * unpipelined);
    }

    /** Ring all-reduce keeps its bandwidth bound, and no piece of a transfer starts before the previous one could have been sent. */
    @Test
    void ringAllReducePiecesStartInOrderAndStayNearTheBandwidthBound() {
        long size = 32L << 20;                                     // blocks of 4 MiB: 4 pieces of 1 MiB per transfer
        RunResult r = Scenarios.run(fabric("all-reduce", size));
        Scenarios.assertConserved(r);
        double bandwidthBoundNs = 2.0 * (N - 1) / N * size * 8 / GBPS;
        assertThat((double) r.cctNs()).isBetween(bandwidthBoundNs, 1.05 * bandwidthBoundNs);

        Pattern piece = Pattern.compile("^(.*) k(\\d+)$");
        Map<String, FlowRecord> previous = new HashMap<>();
        int followed = 0;
        for (FlowRecord f : r.flows()) {
            Matcher m = piece.matcher(f.label());
            assertThat(m.matches()).as(f.label()).isTrue();
            FlowRecord before = previous.put(f.src() + ">" + f.dst() + " " + m.group(1), f);
            if (before == null) continue;
            // the earlier piece's last packet can leave no sooner than its other packets' serialisation after its start
            double earliestSentNs = before.startNs() + (before.packets() - 1) * PACKET_NS;
            assertThat(f.startNs()).as("%s after %s", f.label(), before.label()).isGreaterThanOrEqualTo(earliestSentNs - 1);
            followed++;
        }
        assertThat(followed).as("pieces that follow another").isEqualTo(2 * (N - 1) * N * 3);
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** Two DCTCP flows through one bottleneck (the receiver's ToR port) share it fairly. */
class DctcpFairnessTest {
    static final long SIZE = 8L << 20;
    static final double GBPS = 100;
    /** Wire time of one flow alone at line rate, ns (4096 B payload + 64 B header per packet). */
    static final double ALONE_NS = SIZE / 4096.0 * 4160 * 8 / GBPS;

    static String scenario(int src1, int src2, int dst, long start2Ns) {
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 3, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096}
                transport: {cc: dctcp, header_bytes: 64}
                workload: {kind: flows, flows: [{src: %d, dst: %d, size_bytes: %d, start_ns: 0},
                                                {src: %d, dst: %d, size_bytes: %d, start_ns: %d}]}
                max_time_ms: 100
                """.formatted(src1, dst, SIZE, src2, dst, SIZE, start2Ns);
    }

    @Test
    void twoEqualFlowsIntoOneHostFinishTogether() {
        // hosts 0 and 1 (leaf0) to host 2 (leaf0): the bottleneck is leaf0 -> h2
        check(Scenarios.run(scenario(0, 1, 2, 0)));
        // hosts on different leaves into one host: bottleneck leaf1 -> h3
        check(Scenarios.run(scenario(0, 4, 3, 0)));
    }

    private static void check(RunResult r) {
        Scenarios.assertConserved(r);
        FlowRecord a = r.flows().get(0), b = r.flows().get(1);
        double longer = Math.max(a.fctNs(), b.fctNs());
        double shorter = Math.min(a.fctNs(), b.fctNs());
        assertThat(shorter / longer).as("fct %s vs %s", a.fctNs(), b.fctNs()).isGreaterThan(0.9);
        // the bottleneck stays busy: both done in about 2 x size / rate
        assertThat(longer).isCloseTo(2 * ALONE_NS, within(0.1 * 2 * ALONE_NS));
        assertThat(r.ecnMarked()).as("DCTCP held the queue with ECN").isPositive();
    }

    @Test
    void aLateFlowGetsItsFairShare() {
        // A alone for t0, then both at rate/2 until A ends, then B alone. With fair sharing
        // both FCTs equal 2 S/R - t0 and B finishes at 2 S/R; if A kept the link, A's FCT would
        // be near S/R and B's near 2 S/R - t0 only by luck of ordering.
        long t0 = 200_000;
        RunResult r = Scenarios.run(scenario(0, 1, 2, t0));
        Scenarios.assertConserved(r);
        double fair = 2 * ALONE_NS - t0;
        FlowRecord a = r.flows().get(0), b = r.flows().get(1);
        assertThat(a.fctNs()).isCloseTo(fair, within(0.1 * fair));
        assertThat(b.fctNs()).isCloseTo(fair, within(0.1 * fair));
        assertThat(b.finishNs()).isCloseTo(2 * ALONE_NS, within(0.1 * 2 * ALONE_NS));
    }
}

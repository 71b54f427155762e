package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.engine.Simulation;
import lbsim.experiment.Scenarios;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import lbsim.net.Network;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
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
        // hosts 0 and 1 (leaf0) to host 3 (leaf1), through the spines: the bottleneck is
        // leaf1 -> h3 and both flows have the same base RTT
        check(Scenarios.run(scenario(0, 1, 3, 0)));
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

    /**
     * A second flow joins a running one. DCTCP converges slowly when the newcomer starts with
     * alpha = 1 and the incumbent has a small alpha (RFC 8257), and the more slowly the deeper
     * the ECN threshold; with K = 60 KB at 100 Gbps it converges within about a millisecond.
     * Throughput of each flow is measured from its acknowledged bytes over a window
     * 1.5 to 4.5 ms after the join.
     */
    @Test
    void aLateFlowConvergesToItsFairShare() {
        long rate = 100_000_000_000L;
        Topology topo = LeafSpine.builder(2, 2, 3, 1, rate, rate, 1_000_000L).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults().withEcn(60_000, 60_000, 1.0), scheme.switches());
        TransportConfig cfg = new TransportConfig("dctcp", "go-back-n", 4096, 64, 64, 1, Simulation.PS_PER_MS,
                500 * Simulation.PS_PER_US, 116_896, 1.0 / 16, 1.0, 0);
        long joinPs = 200 * Simulation.PS_PER_US;
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 2, 32L << 20, 0));
        g.add(FlowSpec.simple(1, 1, 2, 32L << 20, joinPs));
        WorkloadDriver[] d = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, cfg, scheme.host(), f -> d[0].onFlowDelivered(f));
        d[0] = new WorkloadDriver(sim, tr, g);
        d[0].start();

        long from = joinPs + 1500 * Simulation.PS_PER_US;
        long to = joinPs + 4500 * Simulation.PS_PER_US;
        sim.run(from);
        long a0 = tr.queuePairs().get(0).sndUna(), b0 = tr.queuePairs().get(1).sndUna();
        sim.run(to);
        long a = tr.queuePairs().get(0).sndUna() - a0, b = tr.queuePairs().get(1).sndUna() - b0;
        assertThat(tr.queuePairs().get(0).isFinished()).as("window ends before the flows do").isFalse();
        double linePackets = (to - from) / 1e12 * rate / 8 / 4160;
        assertThat((double) (a + b)).as("bottleneck busy").isGreaterThan(0.9 * linePackets);
        assertThat((double) Math.min(a, b) / Math.max(a, b)).as("packets acked in window: %d vs %d", a, b).isGreaterThan(0.9);

        sim.run(Long.MAX_VALUE);
        assertThat(d[0].allDelivered()).isTrue();
    }

    /**
     * Same join through the scenario API, judged by FCT: with fair sharing after the join both
     * FCTs equal 2 S/R - t0 and the late flow ends at 2 S/R; if the first flow kept the link
     * its FCT would be about S/R.
     */
    @Test
    void staggeredFlowsFinishAsFairSharingPredicts() {
        long size = 64L << 20;
        double alone = size / 4096.0 * 4160 * 8 / GBPS;
        long t0 = 200_000;
        RunResult r = Scenarios.run(scenario(0, 1, 2, t0).replace(String.valueOf(SIZE), String.valueOf(size)),
                "switch.ecn_kmin_bytes=60000", "switch.ecn_kmax_bytes=60000");
        Scenarios.assertConserved(r);
        double fair = 2 * alone - t0;
        FlowRecord a = r.flows().get(0), b = r.flows().get(1);
        assertThat(a.fctNs()).isCloseTo(fair, within(0.1 * fair));
        assertThat(b.fctNs()).isCloseTo(fair, within(0.1 * fair));
        assertThat(b.finishNs()).isCloseTo(2 * alone, within(0.1 * 2 * alone));
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.net.Network;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
import org.junit.jupiter.api.Test;

/**
 * Memory does not grow with simulated time: packets are pooled, so a run ten times as long (every
 * flow ten times as large) creates about as many as the short one, a number set by what is in
 * flight at once, far below what the run sends. (Event records: EventQueueTest.)
 */
class MemoryBoundTest {
    static final long RATE = 100_000_000_000L;
    static final int HOSTS_PER_LEAF = 4;
    static final int LEAVES = 4;

    record Usage(long packetsAllocated, long packetsSent, long events) {}

    /** A permutation (host i -> i + 5) on a 4-leaf, 2-spine fabric (2:1 oversubscribed: queues build), DCTCP with PFC. */
    static Usage run(long flowBytes) {
        Topology topo = LeafSpine.builder(LEAVES, 2, HOSTS_PER_LEAF, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(7);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
        long bdp = 120_000;
        TransportConfig cfg = new TransportConfig("dctcp", "go-back-n", 4096, 64, 64, 1, Simulation.PS_PER_MS,
                500 * Simulation.PS_PER_US, bdp, 1.0 / 16, 1.0, 0);
        FlowGraph g = new FlowGraph();
        int hosts = LEAVES * HOSTS_PER_LEAF;
        for (int h = 0; h < hosts; h++) g.add(FlowSpec.simple(h, h, (h + 5) % hosts, flowBytes, 0));
        WorkloadDriver[] d = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, cfg, scheme.host(), f -> d[0].onFlowDelivered(f));
        d[0] = new WorkloadDriver(sim, tr, g);
        d[0].start();
        sim.run(Long.MAX_VALUE);
        assertThat(d[0].allDelivered()).isTrue();
        assertThat(net.pool().live()).isZero();
        return new Usage(net.pool().allocated(), net.dataInjected(), sim.eventsProcessed());
    }

    @Test
    void aTenTimesLongerRunCreatesAboutAsManyPackets() {
        Usage shortRun = run(1_000_000);
        Usage longRun = run(10_000_000);
        assertThat(longRun.packetsSent()).isGreaterThan(9 * shortRun.packetsSent());
        assertThat(longRun.events()).isGreaterThan(9 * shortRun.events());
        assertThat(longRun.packetsAllocated()).as("packets ever created: bounded by those in flight")
                .isLessThan(2 * shortRun.packetsAllocated())
                .isLessThan(longRun.packetsSent() / 10);
    }
}

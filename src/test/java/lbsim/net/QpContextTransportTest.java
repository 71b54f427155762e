package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.transport.Transport;
import lbsim.transport.TransportConfig;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
import org.junit.jupiter.api.Test;

/**
 * Queue pairs of the real transport (DCQCN, go-back-N, ACKs, NACKs and CNPs at both ends) on NICs
 * with context misses and turns: every flow completes and every packet is accounted for.
 */
class QpContextTransportTest {
    record Outcome(boolean delivered, long misses, long injected, long deliveredPackets, long dropped, long live) {}

    static Outcome run(NicConfig nic) {
        long rate = 100_000_000_000L;
        Topology topo = LeafSpine.builder(2, 2, 3, 1, rate, rate, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(3);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
        if (nic != null) net.configureNics(nic);
        TransportConfig cfg = new TransportConfig("dcqcn", "go-back-n", 4096, 64, 64, 1, Simulation.PS_PER_MS,
                500 * Simulation.PS_PER_US, 116_896, 1.0 / 16, 1.0, 0);
        FlowGraph g = new FlowGraph();
        int id = 0;
        for (int s = 0; s < 6; s++) {
            for (int d = 0; d < 6; d++) {
                if (s != d) g.add(FlowSpec.simple(id++, s, d, 256L << 10, 0));
            }
        }
        WorkloadDriver[] driver = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, cfg, scheme.host(), f -> driver[0].onFlowDelivered(f));
        driver[0] = new WorkloadDriver(sim, tr, g);
        driver[0].start();
        sim.run(Long.MAX_VALUE);
        long injected = net.dataInjected() + net.controlInjected();
        long deliveredPackets = net.dataDelivered() + net.controlDelivered();
        long dropped = net.dataDropped() + net.controlDropped();
        return new Outcome(driver[0].allDelivered(), net.contextMisses(), injected, deliveredPackets,
                dropped, net.pool().live());
    }

    @Test
    void flowsCompleteAndPacketsAreConservedWithContextMisses() {
        Outcome ideal = run(null);
        // 30 QPs, 10 contexts per NIC (5 requester + 5 responder per host): misses on both sides
        Outcome missing = run(new NicConfig("test", NicConfig.Reorder.UNBOUNDED, 0, NicConfig.Timer.PER_QP, 0, 4,
                500 * Simulation.PS_PER_NS, 0));
        Outcome turns = run(new NicConfig("test", NicConfig.Reorder.UNBOUNDED, 0, NicConfig.Timer.PER_QP, 0, 4,
                500 * Simulation.PS_PER_NS, 16_384));
        for (Outcome o : new Outcome[] {ideal, missing, turns}) {
            assertThat(o.delivered()).isTrue();
            assertThat(o.injected()).isEqualTo(o.deliveredPackets() + o.dropped());
            assertThat(o.live()).isZero();
        }
        assertThat(ideal.misses()).isZero();
        assertThat(missing.misses()).isPositive();
        assertThat(turns.misses()).isPositive().isLessThan(missing.misses());   // longer turns switch QPs less often
    }
}

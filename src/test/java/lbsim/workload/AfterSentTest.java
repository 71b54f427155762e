package lbsim.workload;

import lbsim.transport.FlowSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.net.Network;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.transport.Flow;
import lbsim.transport.Transport;
import lbsim.transport.TransportConfig;
import org.junit.jupiter.api.Test;

/**
 * FlowSpec.afterSent: a flow starts when the flows it follows have put their last new packet on
 * the wire, not when they are delivered; the gap counts from its delivery dependencies only.
 */
class AfterSentTest {
    static final long RATE = 100_000_000_000L;
    /** Serialisation of one 4096 + 64 byte packet at 100 Gbps. */
    static final long PACKET_PS = 332_800;
    static final long MIB = 1L << 20;

    /** Runs {@code g} on an idle 2 x 2 leaf-spine (3 hosts per leaf, 1 us links) and returns the driver. */
    static WorkloadDriver run(FlowGraph g) {
        Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
        TransportConfig cfg = new TransportConfig("dctcp", "go-back-n", 4096, 64, 64, 1, Simulation.PS_PER_MS,
                500 * Simulation.PS_PER_US, 116_896, 1.0 / 16, 1.0, 0);
        WorkloadDriver.Relay relay = new WorkloadDriver.Relay();
        Transport tr = new Transport(sim, net, cfg, scheme.host(), relay);
        WorkloadDriver d = relay.attach(new WorkloadDriver(sim, tr, g));
        d.start();
        sim.run(Long.MAX_VALUE);
        assertThat(d.allDelivered()).isTrue();
        return d;
    }

    static FlowSpec following(int id, int src, int dst, long bytes, int[] after, long gapPs, int[] afterSent) {
        return new FlowSpec(id, src, dst, bytes, 0, after, after.length, gapPs, -1, 0, "", FlowSpec.NO_DEPS, afterSent);
    }

    @Test
    void aFlowAfterSentStartsWhenTheOthersLastPacketLeavesNotAtItsDelivery() {
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 1, MIB, 0));
        g.add(following(1, 0, 2, MIB, FlowSpec.NO_DEPS, 0, new int[] {0}));
        Flow[] f = run(g).flows();
        // the idle NIC sends flow 0's 256 packets back to back: the last one leaves after 255 others
        assertThat(f[0].sentPs()).isEqualTo(255 * PACKET_PS);
        assertThat(f[1].startPs()).isEqualTo(f[0].sentPs());
        assertThat(f[1].startPs()).isLessThan(f[0].deliveredPs());
        // the NIC never idles between them: flow 1's last packet leaves 256 packets after flow 0's
        assertThat(f[1].sentPs()).isEqualTo(f[0].sentPs() + 256 * PACKET_PS);
    }

    @Test
    void theGapCountsFromTheDeliveryDependenciesOnly() {
        long gap = 10 * Simulation.PS_PER_US;
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 1, MIB, 0));              // sent after about 85 us
        g.add(FlowSpec.simple(1, 3, 4, 4096, 0));             // delivered after a few us
        g.add(following(2, 0, 2, MIB, new int[] {1}, gap, new int[] {0}));
        g.add(following(3, 3, 5, MIB, new int[] {1}, 200 * Simulation.PS_PER_US, new int[] {0}));
        Flow[] f = run(g).flows();
        assertThat(f[1].deliveredPs() + gap).isLessThan(f[0].sentPs());
        assertThat(f[2].startPs()).as("sent last: no gap after it").isEqualTo(f[0].sentPs());
        assertThat(f[3].startPs()).as("delivered + gap last").isEqualTo(f[1].deliveredPs() + 200 * Simulation.PS_PER_US);
    }

    @Test
    void flowGraphRefusesAnAfterSentOnALaterFlow() {
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 1, MIB, 0));
        assertThatThrownBy(() -> g.add(following(1, 0, 2, MIB, FlowSpec.NO_DEPS, 0, new int[] {1})))
                .hasMessageContaining("depends on unknown or later flow 1");
    }
}

package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A switch's live next hops toward a ToR (two leaves, two spines, one host each): the forwarding
 * strategy chooses only among two or more next hops, a single one is taken directly, and a ToR
 * with no next hop left drops the packet and counts it; detected failures change all three.
 */
class SwitchRoutingTest {
    static final long RATE = 100_000_000_000L;
    static final long LATENCY_PS = 1_000_000;

    final Simulation sim = new Simulation(1);
    final Topology topo = LeafSpine.builder(2, 2, 1, 1, RATE, RATE, LATENCY_PS).build();
    final List<String> choices = new ArrayList<>();   // "switch:candidates" for every strategy call
    final Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> {
        choices.add(s.name() + ":" + c.length);
        return c[c.length - 1];
    });
    final List<Integer> arrivals = new ArrayList<>();

    SwitchRoutingTest() {
        net.setSink((h, p) -> {
            arrivals.add(h.id);
            net.release(p);
        });
    }

    void sendFromHost0() {
        Packet p = net.newPacket();
        p.src = 0;
        p.dst = 1;
        p.wireBytes = 1000;
        net.host(0).sendAtDataPriority(p);
        sim.run(Long.MAX_VALUE);
    }

    void failDetectedAtOnce(String name) {
        for (int l = 0; l < topo.linkCount(); l++) {
            if (topo.linkName(l).equals(name)) {
                net.failLink(l, 0);
                return;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void onlyAGroupOfTwoOrMoreNextHopsAsksTheStrategy() {
        sendFromHost0();
        assertThat(arrivals).containsExactly(1);
        assertThat(choices).as("leaf0 chooses a spine; the spine and leaf1 have one next hop each").containsExactly("leaf0:2");
    }

    @Test
    void aDetectedFailureLeavesOneNextHopTakenDirectly() {
        failDetectedAtOnce("leaf0-spine1");
        sendFromHost0();
        assertThat(arrivals).containsExactly(1);
        assertThat(choices).isEmpty();
        assertThat(net.port(topo.linkPortA(link("leaf0-spine0"))).stats().txPackets()
                + net.port(topo.linkPortB(link("leaf0-spine0"))).stats().txPackets()).isEqualTo(1);
    }

    @Test
    void noNextHopLeftDropsAndCounts() {
        failDetectedAtOnce("leaf0-spine0");
        failDetectedAtOnce("leaf0-spine1");
        sendFromHost0();
        assertThat(arrivals).isEmpty();
        assertThat(choices).isEmpty();
        assertThat(net.dataDropped()).isEqualTo(1);
        assertThat(net.pool().live()).isZero();
    }

    int link(String name) {
        for (int l = 0; l < topo.linkCount(); l++) if (topo.linkName(l).equals(name)) return l;
        throw new AssertionError(name);
    }
}

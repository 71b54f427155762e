package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The NIC serves its queue pairs round-robin and only those with data (Host's ring): a packet
 * costs O(1) pulls whatever the number of connections, which is what keeps the simulator's rate
 * from collapsing with connections per host (issue 2; htsim's per-host queue is O(connections)).
 */
class NicSchedulingTest {
    static final long RATE = 100_000_000_000L;

    final Simulation sim = new Simulation(1);
    final Topology topo = LeafSpine.builder(1, 0, 2, 1, RATE, RATE, Simulation.PS_PER_US).build();
    final Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
    final Host host = net.host(0);
    final List<Integer> delivered = new ArrayList<>();   // client id of each packet, in arrival order
    long pulls;

    NicSchedulingTest() {
        net.setSink((h, p) -> {
            delivered.add(p.qp);
            net.release(p);
        });
    }

    /** A queue pair with {@code packets} to send; counts every pull. */
    final class Client extends NicClient {
        final int id;
        int left;

        Client(int id, int packets) {
            this.id = id;
            this.left = packets;
        }

        @Override
        protected Packet pull() {
            pulls++;
            if (left == 0) return null;
            left--;
            Packet p = net.newPacket();
            p.src = 0;
            p.dst = 1;
            p.qp = id;
            p.wireBytes = 1000;
            return p;
        }
    }

    @Test
    void activeClientsTakeTurnsOnePacketEach() {
        Client a = new Client(0, 3);
        Client b = new Client(1, 1);
        Client c = new Client(2, 2);
        host.activate(a);   // the idle NIC starts a's first packet at once
        host.activate(b);
        host.activate(c);
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).containsExactly(0, 0, 1, 2, 0, 2);
    }

    @Test
    void idleConnectionsCostNoPull() {
        // 10 000 connections that once sent a packet and are now idle, then one with 1 000 packets
        List<Client> idle = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Client c = new Client(i, 1);
            idle.add(c);
            host.activate(c);
        }
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).hasSize(10_000);
        Client busy = new Client(10_000, 1_000);
        pulls = 0;
        host.activate(busy);
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).hasSize(11_000);
        // one pull per packet and the one that finds it empty: none of the idle connections is asked
        assertThat(pulls).isEqualTo(1_001);
        assertThat(host.idle()).isTrue();
    }

    @Test
    void aClientThatRanDryIsServedAgainOnceReactivated() {
        Client a = new Client(7, 2);
        host.activate(a);
        sim.run(Long.MAX_VALUE);
        a.left = 3;
        long before = pulls;
        host.activate(a);
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).containsExactly(7, 7, 7, 7, 7);
        assertThat(pulls - before).isEqualTo(4);
    }
}

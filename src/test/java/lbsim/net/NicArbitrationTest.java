package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Arbitration between QPs ({@link NicConfig#arbitrationBytes()}): the client at the head of the
 * NIC's ring keeps its turn until it has sent at least that many wire bytes or runs dry; up to
 * one packet per turn is the plain per-packet round robin of {@link NicSchedulingTest}.
 */
class NicArbitrationTest {
    static final long RATE = 100_000_000_000L;

    final Simulation sim = new Simulation(1);
    final Topology topo = LeafSpine.builder(1, 0, 2, 1, RATE, RATE, Simulation.PS_PER_US).build();
    final Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
    final Host host = net.host(0);
    final List<Integer> delivered = new ArrayList<>();   // client id of each packet, in arrival order
    final List<Long> times = new ArrayList<>();
    long pulls;

    NicArbitrationTest() {
        net.setSink((h, p) -> {
            delivered.add(p.qp);
            times.add(sim.now());
            net.release(p);
        });
    }

    static NicConfig arbitration(long bytes) {
        return new NicConfig("test", NicConfig.Reorder.UNBOUNDED, 0, NicConfig.Timer.PER_QP, 0, 0, 0, bytes);
    }

    final class Client extends NicClient {
        final int id;
        int left;
        int bytes = 1000;

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
            p.wireBytes = bytes;
            return p;
        }
    }

    private List<Integer> ids(String s) {
        List<Integer> l = new ArrayList<>();
        for (char c : s.toCharArray()) l.add(c - 'A');
        return l;
    }

    @Test
    void eachTurnLastsArbitrationBytes() {
        net.configureNics(arbitration(3000));
        host.activate(new Client(0, 6));
        host.activate(new Client(1, 6));
        host.activate(new Client(2, 6));
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).isEqualTo(ids("AAABBBCCCAAABBBCCC"));
    }

    @Test
    void aTurnEndsOnceAtLeastArbitrationBytesAreSent() {
        net.configureNics(arbitration(2500));   // 2.5 packets: the third one ends the turn
        host.activate(new Client(0, 4));
        host.activate(new Client(1, 4));
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).isEqualTo(ids("AAABBBAB"));
    }

    @Test
    void aClientThatRunsDryGivesUpItsTurn() {
        net.configureNics(arbitration(3000));
        host.activate(new Client(0, 2));
        host.activate(new Client(1, 4));
        host.activate(new Client(2, 1));
        sim.run(Long.MAX_VALUE);
        // A runs dry after two; B's turn ends after three; C runs dry after one; B again
        assertThat(delivered).isEqualTo(ids("AABBBCB"));
    }

    @Test
    void aReactivatedClientJoinsTheBackWithAFreshTurn() {
        net.configureNics(arbitration(3000));
        Client a = new Client(0, 1);
        Client b = new Client(1, 5);
        host.activate(a);
        host.activate(b);
        sim.run(sim.now() + 100_000);   // A's packet is out, A ran dry, B is in its turn
        a.left = 4;
        host.activate(a);
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).isEqualTo(ids("ABBBAAABBA"));
    }

    @Test
    void upToOnePacketPerTurnIsPerPacketRoundRobin() {
        List<List<Long>> runs = new ArrayList<>();
        for (long arb : new long[] {0, 1, 1000}) {
            NicArbitrationTest t = new NicArbitrationTest();
            t.net.configureNics(arbitration(arb));
            t.host.activate(t.new Client(0, 3));
            t.host.activate(t.new Client(1, 1));
            t.host.activate(t.new Client(2, 2));
            t.sim.run(Long.MAX_VALUE);
            assertThat(t.delivered).containsExactly(0, 0, 1, 2, 0, 2);
            runs.add(t.times);
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
        assertThat(runs.get(2)).isEqualTo(runs.get(0));
    }

    @Test
    void idleConnectionsCostNoPullWithTurns() {
        net.configureNics(arbitration(3000));
        for (int i = 0; i < 10_000; i++) host.activate(new Client(i, 1));
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).hasSize(10_000);
        pulls = 0;
        host.activate(new Client(10_000, 1_000));
        sim.run(Long.MAX_VALUE);
        assertThat(delivered).hasSize(11_000);
        assertThat(pulls).isEqualTo(1_001);
        assertThat(host.idle()).isTrue();
    }

    @Test
    void turnsKeepTheLinkBusy() {
        net.configureNics(arbitration(4000));
        for (int i = 0; i < 4; i++) host.activate(new Client(i, 10));
        sim.run(Long.MAX_VALUE);
        long s = 1000 * 8 * Simulation.PS_PER_S / RATE;
        for (int i = 1; i < times.size(); i++) assertThat(times.get(i) - times.get(i - 1)).isEqualTo(s);
    }
}

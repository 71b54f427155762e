package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.net.Network;
import lbsim.net.NicConfig;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * nic.timer: one flow loses three chosen packets on its first transmission, and only a timer can
 * find them (selective repeat on a receiver that keeps every packet and never NACKs). With one
 * timer per packet each lost packet times out on its own, one timeout after it was sent; with
 * one timer per QP a single expiry resends every outstanding packet the receiver lacks.
 */
class PerPacketTimerTest {
    static final long RATE = 100_000_000_000L;
    static final long RTO_PS = 200 * Simulation.PS_PER_US;
    static final int PACKETS = 300;

    record Outcome(QueuePair qp, long fctPs) {}

    static Outcome run(NicConfig.Timer timer, Set<Integer> dropped) {
        Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
        int uplinkPort = net.host(0).port(0).id;
        int link = topo.portLink(uplinkPort);
        int[] count = new int[1];
        lbsim.net.LinkLoss chosen = now -> dropped.contains(++count[0]);
        if (topo.linkPortA(link) == uplinkPort) net.setLinkLoss(link, chosen, null);
        else net.setLinkLoss(link, null, chosen);
        NicConfig nic = new NicConfig("test", NicConfig.Reorder.UNBOUNDED, 0, timer, 0, 0, 0, 0);
        TransportConfig cfg = new TransportConfig("fixed-rate", "sack", 4096, 64, 64, 1, RTO_PS, 500 * Simulation.PS_PER_US,
                SingleLossRecoveryTest.BDP, 1.0 / 16, 1.0, RATE, 0, 3, 0, RecoveryParams.defaults(), RtoBackoff.NONE, nic);
        OneFlowRun r = OneFlowRun.run(sim, net, cfg, scheme, PACKETS * 4096L, timer.key);
        var f = r.driver().flows()[0];
        return new Outcome(r.qp(), f.deliveredPs() - f.startPs());
    }

    @Test
    void perPacketTimersFirePerLostPacketAndEachResendsOnlyItsPacket() {
        Outcome perPacket = run(NicConfig.Timer.PER_PACKET, Set.of(20, 120, 220));
        assertThat(perPacket.qp().timeouts()).isEqualTo(3);
        assertThat(perPacket.qp().retransmittedPackets()).isEqualTo(3);
        // the last hole (sent at packet 220, about 220 x 333 ns in) is resent one RTO after it was sent
        long packetPs = 4160L * 8 * Simulation.PS_PER_S / RATE;
        long lastLossSent = 219 * packetPs;
        assertThat(perPacket.fctPs()).isBetween(lastLossSent + RTO_PS, lastLossSent + RTO_PS + 20 * Simulation.PS_PER_US);
    }

    @Test
    void oneTimerPerQpFiresOnceAndResendsEveryHoleWhenItExpires() {
        Outcome perQp = run(NicConfig.Timer.PER_QP, Set.of(20, 120, 220));
        assertThat(perQp.qp().timeouts()).isEqualTo(1);
        assertThat(perQp.qp().retransmittedPackets()).isEqualTo(3);
        // RFC 6298: the timer restarts on every advance of the cumulative ACK, and the first hole stops
        // the advances, so it expires one RTO after the last advance (about packet 20's ACK)
        long packetPs = 4160L * 8 * Simulation.PS_PER_S / RATE;
        assertThat(perQp.fctPs()).isBetween(20 * packetPs + RTO_PS, 20 * packetPs + RTO_PS + 20 * Simulation.PS_PER_US);
    }
}

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
import org.junit.jupiter.api.Test;

/**
 * Ethereal (paper 000, Algorithm 1 {@code NAck()}): one lost packet moves its QP to a new path once,
 * however many NACKs the loss causes (go-back-N: one; IRN: one per out-of-order arrival).
 */
class EtherealNackRerouteTest {
    static final long RATE = 100_000_000_000L;
    static final long BDP = 116_896;

    /** Host 0 -> host 3 (other leaf, 2 spines: two QPs), losing the 20th data packet on host 0's uplink. */
    private static OneFlowRun run(String recovery) {
        Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ethereal", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
        int uplinkPort = net.host(0).port(0).id;
        int link = topo.portLink(uplinkPort);
        int[] count = new int[1];
        lbsim.net.LinkLoss nth = now -> ++count[0] == 20;
        if (topo.linkPortA(link) == uplinkPort) net.setLinkLoss(link, nth, null);
        else net.setLinkLoss(link, null, nth);
        TransportConfig cfg = new TransportConfig("dctcp", recovery, 4096, 64, 64, 1, Simulation.PS_PER_MS,
                500 * Simulation.PS_PER_US, BDP, 1.0 / 16, 1.0, 0, 0, 3, 0, RecoveryParams.defaults().withBdp(BDP),
                RtoBackoff.NONE, SingleLossRecoveryTest.nicFor(recovery));   // Go-Back-N's receiver is in-order: the gap is NACKed
        OneFlowRun r = OneFlowRun.run(sim, net, cfg, scheme, 400 * 4096L, recovery);
        assertThat(net.dataDropped()).as(recovery).isEqualTo(1);
        return r;
    }

    @Test
    void oneLossMovesItsQpOnceWithoutATimeout() {
        for (String recovery : new String[] {"go-back-n", "irn"}) {
            OneFlowRun r = run(recovery);
            assertThat(r.transport().queuePairs()).as(recovery).hasSize(2);
            int changes = 0;
            for (QueuePair qp : r.transport().queuePairs()) {
                assertThat(qp.timeouts()).as(recovery).isZero();
                changes += qp.pathChanges();
            }
            assertThat(changes).as(recovery + ": path changes over both QPs").isEqualTo(1);
        }
    }
}

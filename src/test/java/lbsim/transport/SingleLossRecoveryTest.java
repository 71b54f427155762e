package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

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
 * One flow across a 2-leaf fabric loses exactly one chosen packet on its first transmission
 * (on the sender's uplink, so no switch trims it): what each loss recovery resends, and when.
 */
class SingleLossRecoveryTest {
    static final long RATE = 100_000_000_000L;
    static final int PACKETS = 200;
    /** About one base RTT x 100 Gbps of 4160-byte packets on this fabric (28 packets). */
    static final long BDP = 116_896;
    static final long RTO_PS = Simulation.PS_PER_MS;

    /** What one run left behind. */
    record Outcome(QueuePair qp, long fctPs, long sent, long delivered, long dropped, long flowSentPs) {
        long retransmitted() {
            return qp.retransmittedPackets();
        }
    }

    /** Runs the flow host 0 -> host 3 dropping its {@code dropNth} data packet (1-based; 0 = none). */
    /** The receiver each recovery runs on by default (NicSpec's profiles): in-order for Go-Back-N, IRN's 30-packet window, else unbounded. */
    static NicConfig nicFor(String recovery) {
        return switch (recovery) {
            case "go-back-n" -> nic(NicConfig.Reorder.IN_ORDER, 0);
            case "irn" -> nic(NicConfig.Reorder.WINDOW, 30);
            default -> NicConfig.IDEAL;
        };
    }

    static NicConfig nic(NicConfig.Reorder reorder, int window) {
        return new NicConfig("test", reorder, window, NicConfig.Timer.PER_QP, 0, 0, 0, 0);
    }

    static Outcome run(String recovery, String cc, int dropNth, RecoveryParams params) {
        return run(recovery, cc, dropNth, params, nicFor(recovery));
    }

    static Outcome run(String recovery, String cc, int dropNth, RecoveryParams params, NicConfig nic) {
        Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        SwitchConfig sc = SwitchConfig.defaults();
        Network net = new Network(sim, topo, sc, scheme.switches());
        int uplinkPort = net.host(0).port(0).id;
        int link = topo.portLink(uplinkPort);
        int[] count = new int[1];
        lbsim.net.LinkLoss nth = now -> ++count[0] == dropNth;
        if (topo.linkPortA(link) == uplinkPort) net.setLinkLoss(link, nth, null);
        else net.setLinkLoss(link, null, nth);
        TransportConfig cfg = new TransportConfig(cc, recovery, 4096, 64, 64, 1, RTO_PS, 500 * Simulation.PS_PER_US, BDP,
                1.0 / 16, 1.0, cc.equals("fixed-rate") ? RATE : 0, 0, 3, 0, params.withBdp(BDP), RtoBackoff.NONE, nic);
        OneFlowRun run = OneFlowRun.run(sim, net, cfg, scheme, PACKETS * 4096L, recovery);
        var f = run.driver().flows()[0];
        return new Outcome(run.qp(), f.deliveredPs() - f.startPs(), net.dataInjected(), net.dataDelivered(),
                net.dataDropped(), f.sentPs());
    }

    static Outcome run(String recovery, int dropNth) {
        return run(recovery, "dctcp", dropNth, RecoveryParams.defaults());
    }

    @Test
    void irnResendsOnlyTheLostPacketWhereGoBackNResendsTheWindow() {
        Outcome gbn = run("go-back-n", 20);
        Outcome irn = run("irn", 20);
        assertThat(gbn.dropped()).isEqualTo(1);
        assertThat(irn.dropped()).isEqualTo(1);
        // about one BDP of packets was in flight behind the hole: Go-Back-N sends them all again
        assertThat(gbn.retransmitted()).isGreaterThan(10);
        assertThat(irn.retransmitted()).isEqualTo(1);
        assertThat(irn.qp().timeouts()).isZero();
        assertThat(irn.sent()).isEqualTo(PACKETS + 1);
        // (both stall about one RTT: Go-Back-N resending, IRN at its BDP cap until the hole is filled)
    }

    /** Losing the last packet delays the delivery, not the moment the flow counts as sent (FlowSpec.afterSent). */
    @Test
    void aFlowIsSentAtTheFirstTransmissionOfItsLastPacket() {
        for (String recovery : new String[] {"go-back-n", "irn"}) {
            Outcome clean = run(recovery, 0);
            Outcome lastLost = run(recovery, PACKETS);
            assertThat(lastLost.dropped()).as(recovery).isEqualTo(1);
            assertThat(clean.flowSentPs()).as(recovery).isPositive().isLessThan(clean.fctPs());
            assertThat(lastLost.flowSentPs()).as(recovery).isEqualTo(clean.flowSentPs());
            assertThat(lastLost.fctPs()).as(recovery).isGreaterThan(clean.fctPs());
        }
    }

    @Test
    void irnCapsUnacknowledgedDataAtOneBdp() {
        // fixed-rate has no window of its own: only IRN's BDP-FC keeps the span of outstanding packets
        Outcome irn = run("irn", "fixed-rate", 20, RecoveryParams.defaults());
        assertThat(irn.retransmitted()).isEqualTo(1);
        Outcome narrow = run("irn", "fixed-rate", 20, new RecoveryParams(100 * Simulation.PS_PER_US, 3, 0, 0));
        assertThat(narrow.retransmitted()).isEqualTo(1);
    }

    @Test
    void irnRecoversATailLossWithItsLowTimeout() {
        Outcome irn = run("irn", PACKETS);
        Outcome tcp = run("tcp", PACKETS);
        assertThat(irn.qp().timeouts()).isEqualTo(1);
        assertThat(tcp.qp().timeouts()).isEqualTo(1);
        assertThat(irn.retransmitted()).isEqualTo(1);
        // RTO_low is 100 us (algorithms.md §3.2) against the configured 1 ms
        long wire = PACKETS * 4160L * 8 * Simulation.PS_PER_S / RATE;
        assertThat(irn.fctPs()).isBetween(wire + 100 * Simulation.PS_PER_US, wire + 150 * Simulation.PS_PER_US);
        assertThat(tcp.fctPs()).isGreaterThan(wire + RTO_PS);
    }

    @Test
    void irnWithATinyReorderWindowStillCompletes() {
        Outcome irn = run("irn", "fixed-rate", 20, RecoveryParams.defaults(), nic(NicConfig.Reorder.WINDOW, 2));
        // packets beyond the 2-packet window are discarded and must be sent again
        assertThat(irn.retransmitted()).isGreaterThan(1);
        assertThat(irn.sent()).isEqualTo(PACKETS + irn.retransmitted());
    }

    @Test
    void tcpFastRetransmitsTheHoleOnTheThirdDuplicateAck() {
        Outcome tcp = run("tcp", 20);
        assertThat(tcp.retransmitted()).isEqualTo(1);
        assertThat(tcp.qp().timeouts()).isZero();
        // the hole is resent about one RTT after it was sent, not after the 1 ms timeout
        assertThat(tcp.fctPs()).isLessThan(RTO_PS / 4);
        // with fewer packets after the hole than the threshold, only the timeout recovers it
        Outcome late = run("tcp", PACKETS - 1);
        assertThat(late.qp().timeouts()).isEqualTo(1);
        assertThat(late.retransmitted()).isEqualTo(1);
    }

    @Test
    void trimmingCannotSeeALossOnTheWireSoTheTimeoutResendsOnlyTheHole() {
        for (String r : new String[] {"trim", "trim-rts"}) {
            Outcome t = run(r, 20);
            assertThat(t.qp().timeouts()).as(r).isEqualTo(1);
            assertThat(t.retransmitted()).as(r).isEqualTo(1);
        }
    }

    @Test
    void idealErasureCodingNeverResendsAndCompletesWhenTheMessageSizeHasArrived() {
        // fixed-rate at line rate, so that timing depends only on which packets arrive
        RecoveryParams ideal = RecoveryParams.defaults();
        Outcome clean = run("erasure", "fixed-rate", 0, ideal);
        Outcome gbn = run("go-back-n", "fixed-rate", 0, ideal);
        assertThat(clean.retransmitted()).isZero();
        assertThat(clean.qp().ackTarget()).isEqualTo(PACKETS);
        assertThat(clean.qp().sndUna()).isEqualTo(PACKETS);
        // no loss: delivery is the arrival of the message's last packet, as with any recovery
        assertThat(clean.fctPs()).isEqualTo(gbn.fctPs());

        Outcome lossy = run("erasure", "fixed-rate", 20, ideal);
        assertThat(lossy.retransmitted()).isZero();
        assertThat(lossy.dropped()).isEqualTo(1);
        assertThat(lossy.qp().sndUna()).isEqualTo(PACKETS);
        // one more coded packet makes up for the lost one: completion a packet time later
        long packetPs = 4160L * 8 * Simulation.PS_PER_S / RATE;
        assertThat(lossy.fctPs()).isBetween(clean.fctPs() + packetPs - 1000, clean.fctPs() + packetPs + 1000);
        assertThat(lossy.sent()).isGreaterThan(PACKETS);
    }

    @Test
    void erasureWithFivePercentOverheadNeedsOnePointZeroFiveTimesTheMessage() {
        RecoveryParams five = new RecoveryParams(100 * Simulation.PS_PER_US, 3, 0.05, 0);
        Outcome e = run("erasure", "fixed-rate", 0, five);
        assertThat(e.qp().ackTarget()).isEqualTo(210); // ceil(200 x 1.05)
        assertThat(e.qp().sndUna()).isEqualTo(210);
        assertThat(e.delivered()).isGreaterThanOrEqualTo(210);
        assertThat(e.retransmitted()).isZero();
        long packetPs = 4160L * 8 * Simulation.PS_PER_S / RATE;
        Outcome ideal = run("erasure", "fixed-rate", 0, RecoveryParams.defaults());
        assertThat(e.fctPs() - ideal.fctPs()).isBetween(10 * packetPs - 1000, 10 * packetPs + 1000);
    }
}

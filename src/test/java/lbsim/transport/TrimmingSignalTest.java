package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.net.Network;
import lbsim.net.NicConfig;
import lbsim.net.Packet;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A trimmed packet is a congestion signal under every congestion control but fixed-rate: when the
 * sender learns that one of its outstanding packets was trimmed (the receiver's NACK with the
 * trimmed flag, or the header returned to it), its window or rate falls at once. One flow runs
 * until ACKs have come back; then exactly one trim notice for a packet still in flight is handed
 * to the transport, and the window (rate for dcqcn) is read just before and just after.
 */
class TrimmingSignalTest {
    static final long RATE = 100_000_000_000L;
    static final long BDP = 116_896;
    static final long BASE_RTT_PS = 10 * Simulation.PS_PER_US;

    /** The window (bytes) or, for the rate-based ones, the pacing rate (bit/s) that a trim should lower. */
    static long throttle(CongestionControl cc) {
        long w = cc.windowBytes();
        return w == Long.MAX_VALUE ? cc.rateBps() : w;
    }

    /** Window or rate before and after one trim notice, 20 us into a lone 2 MB flow. */
    static long[] beforeAndAfter(String cc, String recovery) {
        Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
        Simulation sim = new Simulation(1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        SwitchConfig sc = SwitchConfig.defaults();
        Network net = new Network(sim, topo, sc, scheme.switches());
        TransportConfig cfg = new TransportConfig(cc, recovery, 4096, 64, 64, 1, Simulation.PS_PER_MS, 500 * Simulation.PS_PER_US,
                cc.equals("uec") ? 0 : BDP, 1.0 / 16, 1.0, cc.equals("fixed-rate") ? RATE : 0, BASE_RTT_PS, 3, BASE_RTT_PS,
                RecoveryParams.defaults().withBdp(BDP), RtoBackoff.NONE, NicConfig.IDEAL);
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 3, 2_000_000, 0));
        WorkloadDriver[] d = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, cfg, scheme.host(), f -> d[0].onFlowDelivered(f));
        d[0] = new WorkloadDriver(sim, tr, g);
        d[0].start();
        sim.run(20 * Simulation.PS_PER_US);
        QueuePair qp = tr.queuePairs().get(0);
        assertThat(qp.sndUna()).as("ACKs came back").isPositive();
        long seq = qp.highestSent() - 1;
        assertThat(seq).as("a packet in flight").isGreaterThanOrEqualTo(qp.sndUna());
        long before = throttle(qp.congestionControl());
        Packet p = net.newPacket();
        p.qp = qp.id;
        p.sentAtPs = sim.now() - 12 * Simulation.PS_PER_US;
        p.sport = qp.sport();
        if (recovery.equals("trim")) {
            // the receiver's NACK for the trimmed packet: cumulative ACK unchanged, the packet as its SACK field
            p.kind = Packet.NACK;
            p.trimmed = true;
            p.src = 3;
            p.dst = 0;
            p.seq = qp.sndUna();
            p.sackSeq = seq;
            p.wireBytes = 64;
        } else {
            // trim-rts: the header itself comes back to the sender
            p.kind = Packet.DATA;
            p.trimmed = true;
            p.src = 3;
            p.dst = 0;
            p.seq = seq;
            p.wireBytes = 64;
        }
        tr.deliver(net.host(0), p);
        long after = throttle(qp.congestionControl());
        // a second notice for the same packet (already queued for resending) is not a new signal
        Packet again = net.newPacket();
        again.qp = qp.id;
        again.kind = Packet.NACK;
        again.trimmed = true;
        again.src = 3;
        again.dst = 0;
        again.seq = qp.sndUna();
        again.sackSeq = seq;
        again.sentAtPs = p.sentAtPs;
        again.wireBytes = 64;
        tr.deliver(net.host(0), again);
        return new long[] {before, after, throttle(qp.congestionControl())};
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"dctcp, trim", "dcqcn, trim", "swift, trim", "uec, trim", "dctcp, trim-rts", "dcqcn, trim-rts",
            "swift, trim-rts", "uec, trim-rts"})
    void aTrimmedPacketLowersTheWindowOrRate(String cc, String recovery) {
        long[] r = beforeAndAfter(cc, recovery);
        assertThat(r[1]).as(cc + " after the trim").isLessThan(r[0]);
        assertThat(r[2]).as(cc + ": a repeated notice of the same packet changes nothing").isEqualTo(r[1]);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"trim", "trim-rts"})
    void fixedRateIgnoresTrimming(String recovery) {
        long[] r = beforeAndAfter("fixed-rate", recovery);
        assertThat(r[1]).isEqualTo(r[0]);
    }

    /** DCTCP reads a trim as one marked MSS: the cut is cwnd x alpha / 2 with the current alpha (1 at the start, RFC 8257). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"trim", "trim-rts"})
    void dctcpCutsAsForOneMarkedPacket(String recovery) {
        long[] r = beforeAndAfter("dctcp", recovery);
        // alpha has decayed a little from 1 by now (one update per window of data), so a little less than half comes off
        assertThat(r[1]).isBetween(r[0] / 2, r[0] * 6 / 10);
    }

    /** Swift reads a trim as a loss: the maximum multiplicative decrease, 0.5. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"trim", "trim-rts"})
    void swiftHalvesItsWindow(String recovery) {
        long[] r = beforeAndAfter("swift", recovery);
        assertThat((double) r[1]).isCloseTo(r[0] * 0.5, org.assertj.core.data.Offset.offset(4160.0));
    }
}

package lbsim.lb;

import lbsim.topology.Topology;
import lbsim.transport.QueuePair;
import lbsim.transport.TransportConfig;

/**
 * A QP's unloaded round-trip time, the reference of RTT-threshold schemes (Hopper's base
 * RTT, FlowBender's RTT signal): a full data packet out and an ACK back over the links of
 * the pair's first equal-cost path, each link adding its latency twice and the
 * serialisation of both packets (store and forward), as lbsim measures RTT from the
 * packet's send time at the NIC.
 */
final class UnloadedRtt {
    private UnloadedRtt() {}

    static long of(QueuePair qp) {
        Topology t = qp.transport().network().topology();
        TransportConfig c = qp.transport().config();
        long dataBits = 8L * (c.mtuBytes() + c.headerBytes());
        long ackBits = 8L * c.ackBytes();
        int[] path = qp.src() == qp.dst() ? new int[0] : t.routing().pathPorts(qp.src(), qp.dst(), 0);
        long rtt = link(t, t.hostPort(qp.src()), dataBits, ackBits);
        for (int port : path) rtt += link(t, port, dataBits, ackBits);
        return rtt;
    }

    private static long link(Topology t, int port, long dataBits, long ackBits) {
        int back = t.portPeer(port);
        return t.portLatencyPs(port) + t.portLatencyPs(back) + dataBits * 1_000_000_000_000L / t.portRateBps(port)
                + ackBits * 1_000_000_000_000L / t.portRateBps(back);
    }
}

package lbsim.net;

import lbsim.engine.EventQueue;

/**
 * The fields of a {@link Port} that only a packet that waits in its queue reads (the queue tails,
 * the high-priority bytes, the end-of-serialisation record), laid out after
 * {@link PortTxState}'s and before Port's rarely read ones (see there).
 */
abstract class PortQueueState extends PortTxState {
    final Network net;
    public final Node owner;
    Packet hiTail;
    long hiBytes;
    Packet dataTail;
    final EventQueue.Ev txDone;    // the end-of-serialisation record (at most one pending)
    TrafficSource source;          // a host NIC's QPs (hasSource); null on switch ports

    PortQueueState(int ownKind, int txDoneKind, Network net, Node owner, long latencyPs) {
        super(ownKind, net.sim(), latencyPs);
        this.net = net;
        this.owner = owner;
        this.txDone = new EventQueue.Ev(this, txDoneKind);
    }
}

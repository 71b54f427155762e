package lbsim.net;

import lbsim.engine.HotEventHandler;
import lbsim.engine.Simulation;

/**
 * The fields of a {@link Port} that an arrival reads: the port's own event record (inherited;
 * it carries the wire-head arrival) and the packets propagating on its link. Fields of a
 * superclass are laid out first in the object, so these share the port's first cache lines
 * instead of being spread over its five (a hop touches two ports: on large fabrics each line is
 * a cache miss). {@link PortQueueState} holds what an enqueue and a serialisation start read;
 * Port itself holds the configuration and counters read rarely.
 */
abstract class PortWireState extends HotEventHandler {
    final long latencyPs;
    // read by every arrival (it schedules the wire's next head): here, not with the transmit fields
    // of PortTxState, so the arrival touches the port's wire lines only
    final Simulation sim;
    // Packets propagating on the wire, in departure order, linked through Packet.next. Latency
    // is constant per link, so they arrive in that order: only the head has an event in the
    // global queue, which keeps it as small as the number of busy links instead of the number of
    // packets in flight. Each packet carries the arrival time of the one behind it
    // (Packet.nextArrivalPs), so an arrival schedules the next without loading that packet.
    Packet wireHead;
    Packet wireTail;
    Node peer;
    int peerLocal;
    Packet doomed;        // a packet whose link went down during its serialisation: lost on arrival

    // The receiving switch's PFC ingress account for this link (SharedBuffer): bytes it holds that
    // came over this link, and whether it has paused this port. Kept on the sending port, which an
    // arrival has just read, rather than on the switch's own port of the link: a hop touches one
    // port less. (No account when the receiver is a host.)
    long ingressHeld;
    boolean ingressPaused;

    PortWireState(int ownKind, Simulation sim, long latencyPs) {
        super(ownKind);
        this.sim = sim;
        this.latencyPs = latencyPs;
    }
}

package lbsim.net;

import lbsim.engine.EventQueue;
import lbsim.engine.Simulation;

/**
 * The fields of a {@link Port} that enqueueing a packet and starting its serialisation read and
 * write, laid out after {@link PortWireState}'s and before Port's rarely read ones (see there).
 */
abstract class PortQueueState extends PortWireState {
    final Network net;
    final Simulation sim;
    public final Node owner;
    long psPerByte;       // serialisation ps per byte when the rate divides 8e12 exactly, else 0
    // Strict-priority output queues, high priority (control) and data, as lists linked through
    // Packet.next: a hop touches the packets, which it reads anyway, and no ring array (on large
    // fabrics each array access was a cache miss).
    Packet hiHead;
    Packet hiTail;
    long hiBytes;
    Packet dataHead;
    Packet dataTail;
    long dataBytes;
    boolean busy;         // an end-of-serialisation event is pending (a packet waits to start)
    long txEndPs = Long.MIN_VALUE;  // end of the latest serialisation
    int txBytesInProgress; // bytes of that packet, and whether it is data (stats() before its end)
    boolean txDataInProgress;
    boolean txLost;       // that packet was lost at its start (link down or loss); else it is the wire's tail
    boolean dataPaused;
    boolean up = true;
    LinkLoss loss;
    TrafficSource source;
    final EventQueue.Ev txDone;    // the end-of-serialisation record (at most one pending)

    // the owning switch's buffer accounting for this port (SharedBuffer), kept here for locality
    long bufEgress;             // bytes held for this egress port: queued (they leave when serialisation starts)
    long ecnKmin;               // RED threshold on this egress data queue (Switch.maybeMark)

    // counters every packet updates
    long txBytes;
    long txPackets;
    long txDataPackets;
    long maxQueueBytes;

    PortQueueState(int ownKind, int txDoneKind, Network net, Node owner, long latencyPs) {
        super(ownKind, latencyPs);
        this.net = net;
        this.sim = net.sim();
        this.owner = owner;
        this.txDone = new EventQueue.Ev(this, txDoneKind);
    }
}

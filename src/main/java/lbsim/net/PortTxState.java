package lbsim.net;

import lbsim.engine.Simulation;

/**
 * The fields of a {@link Port} that every packet it forwards reads or writes, whether it waits
 * or starts at once: serialisation, the egress buffer and ECN checks, the per-packet counters and
 * the queue heads. Laid out right after {@link PortWireState}'s (superclass fields come first),
 * before {@link PortQueueState}'s, which only a packet that waits touches: on large fabrics each
 * cache line of the egress port is a miss, and an idle port's hop now reads three lines, not four.
 */
abstract class PortTxState extends PortWireState {
    long psPerByte;       // serialisation ps per byte when the rate divides 8e12 exactly, else 0
    long txEndPs = Long.MIN_VALUE;  // end of the latest serialisation
    int txBytesInProgress; // bytes of that packet, and whether it is data (stats() before its end)
    boolean busy;         // an end-of-serialisation event is pending (a packet waits to start)
    boolean txDataInProgress;
    boolean txLost;       // that packet was lost at its start (link down or loss); else it is the wire's tail
    boolean dataPaused;
    boolean up = true;
    boolean hasSource;    // source != null, read by every packet without loading the reference (a host's NIC port)
    LinkLoss loss;
    // Strict-priority output queues, high priority (control) and data, as lists linked through
    // Packet.next: a hop touches the packets, which it reads anyway, and no ring array (on large
    // fabrics each array access was a cache miss). The heads are read by every packet (is the
    // queue empty?), the tails only when a packet waits (PortQueueState).
    Packet hiHead;
    Packet dataHead;
    long dataBytes;

    // the owning switch's buffer accounting for this port (SharedBuffer), kept here for locality
    long bufEgress;             // bytes held for this egress port: queued (they leave when serialisation starts)
    long ecnKmin;               // RED threshold on this egress data queue (Switch.maybeMark)

    // counters every packet updates
    long txBytes;
    long txPackets;
    long txDataPackets;
    long maxQueueBytes;

    PortTxState(int ownKind, Simulation sim, long latencyPs) {
        super(ownKind, sim, latencyPs);
    }
}

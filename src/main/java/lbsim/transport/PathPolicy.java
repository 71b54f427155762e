package lbsim.transport;

import lbsim.net.Packet;
import lbsim.transport.FlowSpec;

/**
 * The host half of a load-balancing scheme: how a flow is split into QPs, which entropy
 * (UDP source port) or source route each QP and packet uses, and how it reacts to ACKs and
 * timeouts. Implementations live in the lb package, one file per scheme.
 */
public interface PathPolicy {
    /** Opens the QPs that carry a flow; by default one (or the flow's NCCL QP count). */
    default void openFlow(Transport transport, Flow flow) {
        transport.openQps(flow, Math.max(1, flow.spec().qps()));
    }

    /**
     * The fewest QPs {@link #openFlow} opens for {@code spec} the moment it starts (a lower bound of
     * the heap the run needs, checked before it starts); 0 for a policy whose flows share QPs that
     * outlive them. By default the flow's QP count, as {@link #openFlow}.
     */
    default int qpsAtLeast(FlowSpec spec) {
        return Math.max(1, spec.qps());
    }

    /**
     * How this policy sends {@code spec} alone on an idle fabric, the reference of its FCT slowdown
     * ({@code metrics/IdleFct}); a policy that splits, paces or sprays differently from the default
     * {@link #openFlow} (the flow's bytes evenly over its QPs, each on one path, or on several
     * at once when {@link #spraysPackets}) says so here.
     */
    default IdleSplit idleSplit(Transport transport, FlowSpec spec) {
        IdleSplit s = IdleSplit.evenly(spec.sizeBytes(), Math.max(1, spec.qps()));
        return spraysPackets() ? s.withSpraying() : s;
    }

    /**
     * What the source-route path IDs this policy sets name ({@link lbsim.topology.PathControl}); the
     * transport has the network's switches read them so. LAG (next-hop switches) unless overridden.
     */
    default lbsim.topology.PathControl pathControl() {
        return lbsim.topology.PathControl.LAG;
    }

    /** Chooses the QP's initial entropy / path before its first packet. */
    void initQp(QueuePair qp);

    /** Stamps routing fields on a data packet; by default the QP's port and path. */
    default void beforeSend(QueuePair qp, Packet p) {
        p.sport = qp.sport();
        p.pathId = qp.pathId();
        p.sourceRouted = qp.sourceRouted();
    }

    default void onAck(QueuePair qp, Packet ack, long rttPs) {}

    default void onTimeout(QueuePair qp) {}

    /** A probe this QP sent ({@link QueuePair#sendProbe}) came back; {@code ack.sport} is the probed port. */
    default void onProbeAck(QueuePair qp, Packet ack, long rttPs) {}

    /** Adds the scheme's run counters (e.g. probes, path switches) to {@code out}; reported as summary.json {@code lb}. */
    default void addCounters(java.util.Map<String, Long> out) {}

    /** Remarks for the run result's warnings (e.g. a configuration the scheme's paper rules out). */
    default java.util.List<String> warnings() {
        return java.util.List.of();
    }

    /**
     * Whether packets of one QP may take different paths (the receiver must then reorder): sprayed,
     * or moved to another path while earlier ones are still in flight (PLB, FlowBender, Hopper).
     * One QP can then be on several paths at once, so its idle FCT is the multi-path one.
     */
    default boolean spraysPackets() {
        return false;
    }
}

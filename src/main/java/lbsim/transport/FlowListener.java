package lbsim.transport;

/**
 * Told when every byte of a flow has left its sender, when every byte has reached its
 * receiver, and when its sender has them all acknowledged.
 */
public interface FlowListener {
    void onFlowDelivered(Flow flow);

    /** Every QP of the flow has put its last new packet on the wire; before or with the delivery. */
    default void onFlowSent(Flow flow) { }

    /** Every QP of the flow has the ACK of its last byte (htsim's "send done"); after or with the delivery. */
    default void onFlowAcknowledged(Flow flow) { }
}

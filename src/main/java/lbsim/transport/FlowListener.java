package lbsim.transport;

/** Told when every byte of a flow has reached its receiver, and when its sender has them all acknowledged. */
public interface FlowListener {
    void onFlowDelivered(Flow flow);

    /** Every QP of the flow has the ACK of its last byte (htsim's "send done"); after or with the delivery. */
    default void onFlowAcknowledged(Flow flow) { }
}

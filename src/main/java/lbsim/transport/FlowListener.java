package lbsim.transport;

/** Told when every byte of a flow has reached its receiver. */
public interface FlowListener {
    void onFlowDelivered(Flow flow);
}

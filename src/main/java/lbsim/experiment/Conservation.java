package lbsim.experiment;

import lbsim.net.Network;
import lbsim.transport.Flow;
import lbsim.transport.Transport;
import lbsim.workload.FlowGraph;
import lbsim.workload.WorkloadDriver;

/**
 * End-of-run conservation, checked after every completed run: every packet injected was
 * delivered or dropped (and counted), none is left in a queue or on a wire, every flow was
 * delivered, and every QP was acknowledged. A violation is a simulator bug (exit code 1).
 */
final class Conservation {
    private Conservation() {}

    static void check(Network net, Transport transport, FlowGraph graph, WorkloadDriver driver) {
        StringBuilder err = new StringBuilder();
        if (net.dataInjected() != net.dataDelivered() + net.dataDropped()) {
            err.append(String.format("data packets: sent %d != delivered %d + dropped %d; ", net.dataInjected(),
                    net.dataDelivered(), net.dataDropped()));
        }
        if (net.controlInjected() != net.controlDelivered() + net.controlDropped()) {
            err.append(String.format("control packets: sent %d != delivered %d + dropped %d; ", net.controlInjected(),
                    net.controlDelivered(), net.controlDropped()));
        }
        if (net.pool().live() != 0) err.append(net.pool().live()).append(" packets still queued or in flight; ");
        for (var p : net.ports()) {
            if (p.queuedBytes() != 0) err.append("port ").append(p.id).append(" not empty; ");
        }
        for (Flow f : driver.flows()) {
            if (f == null || !f.isDelivered()) {
                err.append("a flow was not delivered; ");
                break;
            }
        }
        if (transport.openQpCount() != 0) err.append(transport.openQpCount()).append(" QPs still open; ");
        if (err.length() > 0) throw new IllegalStateException("conservation violated: " + err);
    }
}

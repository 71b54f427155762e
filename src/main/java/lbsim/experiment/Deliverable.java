package lbsim.experiment;

import java.util.ArrayList;
import java.util.List;
import lbsim.net.Network;
import lbsim.transport.Flow;
import lbsim.transport.FlowSpec;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.workload.FlowGraph;
import lbsim.workload.WorkloadDriver;

/**
 * Whether anything of a run can still finish once links are down (issue 31): an undelivered flow
 * whose hosts some path of links that are up still joins and that does not wait for a flow cut off
 * for good, or an open QP whose hosts are still joined. When none is left, every
 * remaining flow is cut off for good (a link that goes down stays down), so the run can stop
 * instead of waiting for max_time_ms. Checked in amortised constant time per step: the candidates
 * are listed when links change and dropped from the front as they finish (finishing is final).
 */
final class Deliverable {
    private final Network net;
    private final FlowGraph graph;
    private final WorkloadDriver driver;
    private final Transport transport;
    private long seenChanges;
    private final List<FlowSpec> flows = new ArrayList<>();
    private final List<QueuePair> qps = new ArrayList<>();
    private int flowAt, qpAt;

    Deliverable(Network net, FlowGraph graph, WorkloadDriver driver, Transport transport) {
        this.net = net;
        this.graph = graph;
        this.driver = driver;
        this.transport = transport;
    }

    /** False only when some flow is undelivered and nothing still reachable is unfinished. */
    boolean anyLeft() {
        if (net.linkStateChanges() == 0 || driver.allDelivered()) return true;   // no link down: the run ends by itself
        if (net.linkStateChanges() != seenChanges) list();
        Flow[] started = driver.flows();
        while (flowAt < flows.size()) {
            Flow live = started[flows.get(flowAt).id()];
            if (live == null || !live.isDelivered()) return true;
            flowAt++;
        }
        while (qpAt < qps.size()) {
            if (!qps.get(qpAt).isFinished()) return true;
            qpAt++;
        }
        return false;
    }

    /**
     * Whether a flow not yet started can never start: fewer of its delivery and ACK dependencies than it
     * needs ({@code afterCount}) can still be met, or a flow it must see sent never will be (cut off
     * before all of it was sent). A flow waiting on a cut-off flow is cut off too, however well joined
     * its own hosts are.
     */
    private static boolean waitsForever(FlowSpec f, boolean[] doomed, Flow[] started) {
        int possible = 0;
        for (int d : f.after()) if (!doomed[d]) possible++;
        for (int d : f.afterAcked()) if (!doomed[d]) possible++;
        if (possible < f.afterCount()) return true;
        for (int d : f.afterSent()) if (doomed[d] && (started[d] == null || !started[d].isSent())) return true;
        return false;
    }

    /** The undelivered flows that can still finish (hosts joined by links that are up, dependencies not cut off) and open QPs. */
    private void list() {
        seenChanges = net.linkStateChanges();
        int[] component = net.componentsOfUpLinks();
        flows.clear();
        qps.clear();
        flowAt = qpAt = 0;
        Flow[] started = driver.flows();
        // dependencies name earlier flows (FlowGraph.add), so one pass in id order settles every flow
        boolean[] doomed = new boolean[graph.size()];
        for (FlowSpec f : graph.flows()) {
            Flow live = started[f.id()];
            if (live != null && live.isDelivered()) continue;
            if (component[f.src()] != component[f.dst()] || (live == null && waitsForever(f, doomed, started))) {
                doomed[f.id()] = true;
                continue;
            }
            flows.add(f);
        }
        for (QueuePair qp : transport.queuePairs()) {
            if (!qp.isFinished() && component[qp.src()] == component[qp.dst()]) qps.add(qp);
        }
    }
}

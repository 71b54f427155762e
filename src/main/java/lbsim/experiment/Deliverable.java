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
 * or an open QP whose hosts some path of links that are up still joins. When none is left, every
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

    /** The undelivered flows and open QPs whose hosts are still joined by links that are up. */
    private void list() {
        seenChanges = net.linkStateChanges();
        int[] component = net.componentsOfUpLinks();
        flows.clear();
        qps.clear();
        flowAt = qpAt = 0;
        Flow[] started = driver.flows();
        for (FlowSpec f : graph.flows()) {
            Flow live = started[f.id()];
            if ((live == null || !live.isDelivered()) && component[f.src()] == component[f.dst()]) flows.add(f);
        }
        for (QueuePair qp : transport.queuePairs()) {
            if (!qp.isFinished() && component[qp.src()] == component[qp.dst()]) qps.add(qp);
        }
    }
}

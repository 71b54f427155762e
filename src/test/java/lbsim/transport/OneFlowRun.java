package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.net.Network;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;

/** Runs one flow from host 0 to host 3 to completion on a prepared network and checks conservation. */
record OneFlowRun(Transport transport, WorkloadDriver driver) {
    static OneFlowRun run(Simulation sim, Network net, TransportConfig cfg, Scheme scheme, long bytes, String label) {
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 3, bytes, 0));
        WorkloadDriver[] d = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, cfg, scheme.host(), f -> d[0].onFlowDelivered(f));
        d[0] = new WorkloadDriver(sim, tr, g);
        d[0].start();
        sim.run(Long.MAX_VALUE);
        assertThat(d[0].allDelivered()).as(label).isTrue();
        assertThat(tr.openQpCount()).as(label + ": QPs acknowledged").isZero();
        assertThat(net.pool().live()).as(label + ": nothing left in flight").isZero();
        assertThat(net.dataInjected()).as(label + ": sent == delivered + dropped")
                .isEqualTo(net.dataDelivered() + net.dataDropped());
        return new OneFlowRun(tr, d[0]);
    }

    QueuePair qp() {
        return transport.queuePairs().get(0);
    }
}

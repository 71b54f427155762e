package lbsim.transport;

import java.util.List;
import lbsim.engine.Simulation;
import lbsim.experiment.*;
import lbsim.lb.*;
import lbsim.net.*;
import lbsim.topology.*;
import lbsim.workload.*;
import org.junit.jupiter.api.Test;

class ScratchProbeTest {
    @Test
    void probe() {
        for (long kmin : new long[] {-1, 60000}) { long start2 = 200_000_000L;
        Topology topo = LeafSpine.builder(2, 2, 3, 1, 100_000_000_000L, 100_000_000_000L, 1_000_000L).build();
        Simulation sim = new Simulation(1);
        SwitchConfig scfg = SwitchConfig.defaults().withEcn(kmin, kmin, -1);
        Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, scfg, scheme.switches());
        TransportConfig tcfg = new TransportConfig("dctcp", "go-back-n", 4096, 64, 64, 1, 1_000_000_000L, 500_000_000L, 116896, 1.0/16, 1.0, 0);
        FlowGraph g = new FlowGraph();
        g.add(FlowSpec.simple(0, 0, 2, 64L << 20, 0));
        g.add(FlowSpec.simple(1, 1, 2, 64L << 20, start2));
        WorkloadDriver[] d = new WorkloadDriver[1];
        Transport tr = new Transport(sim, net, tcfg, scheme.host(), f -> d[0].onFlowDelivered(f));
        d[0] = new WorkloadDriver(sim, tr, g);
        d[0].start();
        long[] last = new long[2];
        for (long t = 500; t <= 12000; t += 500) {
            sim.run(t * Simulation.PS_PER_US);
            StringBuilder sb = new StringBuilder("t=" + t);
            for (QueuePair q : tr.queuePairs()) {
                sb.append(String.format("  qp%d una=%d d=%d cwnd=%d alpha=%.3f", q.id, q.sndUna(), q.sndUna() - last[q.id], q.congestionControl().windowBytes(), ((Dctcp) q.congestionControl()).alpha()));
                last[q.id] = q.sndUna();
            }
            sb.append(" q=" + net.switchNode(topo.nodeId("leaf0")).egressBytes(2));
            System.out.println(sb + " kmin=" + kmin);
        }
        }
    }
}

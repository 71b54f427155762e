package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import org.junit.jupiter.api.Test;

class EtherealPlanTest {
    @Test
    void aBatchToOneRackLoadsEveryUplinkEquallyAndRackLocalFlowsStayUnrouted() {
        // 3 leaves x 4 spines x 4 hosts; host 0 sends 6 equal flows to leaf 1 and one to its own rack
        Topology topo = LeafSpine.builder(3, 4, 4, 1, 100_000_000_000L, 100_000_000_000L, 1_000_000L).build();
        FlowGraph g = new FlowGraph();
        for (int i = 0; i < 6; i++) g.add(FlowSpec.simple(i, 0, 4 + (i % 4), 4_000_000, 0));
        g.add(FlowSpec.simple(6, 0, 1, 1_000_000, 0));
        EtherealPlan plan = EtherealPlan.compute(topo, g);
        Map<Integer, Long> perUplink = new HashMap<>();
        for (EtherealPlan.Row r : plan.rows()) {
            if (r.flow() == 6) {
                assertThat(r.pathId()).isNull();
                continue;
            }
            perUplink.merge(r.uplink(), r.bytes(), Long::sum);
        }
        assertThat(perUplink).hasSize(4).allSatisfy((u, b) -> assertThat(b).isEqualTo(6L * 4_000_000 / 4));
        // 6 flows on 4 paths: 4 whole + 2 split in halves (g = gcd(2,4) = 2, s/g = 2) -> 8 routed QPs + 1 local
        assertThat(plan.rows()).hasSize(9);
        assertThat(plan.maxQpsPerNic()).isEqualTo(9);
        assertThat(plan.render(PlanFormat.CSV)).startsWith("flow,src,dst,qp,bytes,path_id,tor_uplink");
    }
}

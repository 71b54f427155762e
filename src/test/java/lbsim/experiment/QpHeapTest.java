package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.engine.Simulation;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.metrics.RunResult;
import lbsim.topology.Topology;
import lbsim.transport.PathPolicy;
import lbsim.workload.FlowGraph;
import org.junit.jupiter.api.Test;

/**
 * The heap check before a run counts a lower bound of the QPs open at once: on random small
 * workloads under every scheme, each host's count never passes the most QPs its NIC really held
 * (summary.json max_qps_per_nic per host); and a bound over the heap is refused naming the keys.
 */
class QpHeapTest {
    private static final String[] WORKLOADS = {
        "{kind: collective, op: all-to-all, algorithm: direct, size_bytes: %d, qps_per_connection: %d}",
        "{kind: permutation, size_bytes: %d, concurrent: 3, start_jitter_ns: %d}",
        "{kind: collective, op: all-reduce, algorithm: ring, size_bytes: %d, qps_per_connection: %d}",
        "{kind: flows, flows: [{src: 0, dst: 5, size_bytes: %d}, {src: 0, dst: 9, size_bytes: 1000, start_ns: %d},"
                + " {src: 1, dst: 0, size_bytes: 4096, after: [0]}]}",
    };

    @Test
    void countsNoMoreQpsThanEachNicHolds() {
        SplittableRandom rnd = new SplittableRandom(20261127);
        for (String scheme : Schemes.available()) {
            for (int i = 0; i < 2; i++) {
                int w = rnd.nextInt(WORKLOADS.length);
                long size = 1 + rnd.nextLong(200_000);
                int second = w == 1 || w == 3 ? rnd.nextInt(20_000) : rnd.nextInt(3);
                boolean ownQps = Schemes.ownQpCount(scheme) != null;
                if (ownQps && (w == 0 || w == 2)) second = 0;   // those schemes refuse a workload QP count
                String yaml = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8}\nworkload: "
                        + WORKLOADS[w].formatted(size, second) + "\nload_balancer: {scheme: " + scheme + "}\n";
                Scenario sc = ScenarioLoader.parse("t", yaml, null, List.of(), null);
                long[] bound = bound(sc);
                RunResult r = Runner.run(sc, Runner.Progress.NONE);
                for (int h = 0; h < bound.length; h++) {
                    assertThat(bound[h]).as("%s, host %d: %s", scheme, h, yaml).isLessThanOrEqualTo(r.maxQpsByNic()[h]);
                }
            }
        }
    }

    /** The bound's QPs per host, from the workload the run draws and the scheme's host half. */
    private static long[] bound(Scenario sc) {
        Topology topo = sc.topology().build(sc.file());
        Simulation sim = new Simulation(sc.seed());
        FlowGraph graph = sc.workload().build(topo, sim.random().stream("workload"));
        PathPolicy policy = sc.schemeFactory().apply(new SchemeContext(sim, topo)).host();
        return QpHeap.qpsByHost(graph, topo, policy);
    }

    @Test
    void theBoundCountsOnlyFlowsThatCannotHaveEndedBeforeOthersStart() {
        Scenario sc = ScenarioLoader.parse("t", """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
                workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 125000}, {src: 1, dst: 5, size_bytes: 1000, start_ns: 9000},
                  {src: 2, dst: 6, size_bytes: 1000, start_ns: 11000}, {src: 3, dst: 7, size_bytes: 1000, after: [0]}]}
                """, null, List.of(), null);
        // 125 kB at 100 Gbit/s is 10 us on the wire: the flow at 9 us certainly overlaps it, the one at 11 us may not
        assertThat(bound(sc)).containsExactly(1, 1, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aStartTooLargeForTheHeapIsRefusedNamingWhatShrinksIt() {
        QpHeap heap = new QpHeap(16_256, 1_040_384);
        assertThat(heap.heapBytes()).isEqualTo(16_256 * QpHeap.HEAP_BYTES_PER_FLOW + 1_040_384 * QpHeap.HEAP_BYTES_PER_QP);
        heap.check("s.yaml", "ecmp", heap.heapBytes());   // fits exactly: no error
        assertThatThrownBy(() -> heap.check("s.yaml", "ecmp", 48L << 20)).isInstanceOf(BadInputException.class)
                .hasMessageContainingAll("s.yaml: 16256 flows start together with 1040384 queue pairs", "48 MiB",
                        "workload.qps_per_connection", "-Xmx");
        assertThatThrownBy(() -> heap.check("s.yaml", "subflows", 48L << 20)).hasMessageContaining("its load_balancer.count");
    }
}

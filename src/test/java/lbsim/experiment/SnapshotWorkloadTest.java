package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.collective.BinaryTree;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.Collectives;
import lbsim.workload.collective.Placement;
import lbsim.workload.collective.Snapshot;
import org.junit.jupiter.api.Test;

/** workload.snapshot (ParaLet §6 traffic snapshots): the collective's distinct pairs, once each, all at time 0. */
class SnapshotWorkloadTest {

    private static FlowGraph snapshot(String alg, int n, long bytes) {
        FlowGraph g = new FlowGraph();
        Collectives.append(g, CollectiveSpec.builder("all-reduce", alg, 8L << 20, Placement.contiguous(n)).build());
        return Snapshot.of(g, bytes);
    }

    private static Set<String> pairs(FlowGraph g) {
        Set<String> s = new HashSet<>();
        for (FlowSpec f : g.flows()) s.add(f.src() + ">" + f.dst());
        return s;
    }

    @Test
    void ringSnapshotIsOneFlowPerRankToItsSuccessor() {
        int n = 12;
        FlowGraph g = snapshot("ring", n, 1000);
        Set<String> want = new HashSet<>();
        for (int r = 0; r < n; r++) want.add(r + ">" + (r + 1) % n);
        assertThat(g.size()).isEqualTo(n);
        assertThat(pairs(g)).isEqualTo(want);
        for (FlowSpec f : g.flows()) {
            assertThat(f.sizeBytes()).isEqualTo(1000);
            assertThat(f.startPs()).isZero();
            assertThat(f.after()).isEmpty();
        }
    }

    @Test
    void dbtSnapshotIsEveryEdgeOfBothNcclTreesInBothDirections() {
        for (int n : new int[] {8, 13, 64}) {
            Set<String> want = new HashSet<>();
            for (int t = 0; t < 2; t++) {
                BinaryTree tree = BinaryTree.nccl(n, t);
                for (int x = 0; x < n; x++) {
                    int p = tree.parent()[x];
                    if (p < 0) continue;
                    want.add(x + ">" + p);
                    want.add(p + ">" + x);
                }
            }
            FlowGraph g = snapshot("double-binary-tree", n, 4096);
            assertThat(g.size()).as("n=%d: no pair twice", n).isEqualTo(want.size());
            assertThat(pairs(g)).as("n=%d", n).isEqualTo(want);
        }
    }

    private static final String RING = """
            topology: {kind: fat-tree, k: 4, link_gbps: 100, link_latency_ns: 1000}
            load_balancer: {scheme: spray-switch}
            workload: {kind: collective, op: all-reduce, algorithm: ring, placement: random, snapshot: true, size_bytes: 200000}
            """;

    @Test
    void aRunOfARandomlyPlacedRingSnapshotIsOneCycleOverAllHostsAndItsCctIsTheLastFct() {
        RunResult r = Scenarios.run(RING);
        Scenarios.assertConserved(r);
        assertThat(r.flows()).hasSize(16);
        int[] next = new int[16];
        java.util.Arrays.fill(next, -1);
        double maxFct = 0;
        for (FlowRecord f : r.flows()) {
            assertThat(next[f.src()]).as("host %d sends once", f.src()).isEqualTo(-1);
            next[f.src()] = f.dst();
            assertThat(f.startNs()).isZero();
            assertThat(f.sizeBytes()).isEqualTo(200000);
            maxFct = Math.max(maxFct, f.fctNs());
        }
        int h = 0, steps = 0;
        do {
            h = next[h];
            steps++;
        } while (h != 0 && steps <= 16);
        assertThat(steps).as("one ring through all 16 hosts").isEqualTo(16);
        assertThat((double) r.cctNs()).isCloseTo(maxFct, org.assertj.core.api.Assertions.within(1.0));
        // no longer a collective: no per-collective bound; the ideal is one 200 KB flow per NIC
        assertThat(r.collectives()).isEmpty();
        double serialisationNs = 200000 * 8 / 100.0;
        assertThat(r.idealCctNs()).isBetween((long) serialisationNs, (long) serialisationNs + 10_000);
        assertThat(r.cctNs()).isGreaterThanOrEqualTo(r.idealCctNs());
        // a new seed places the ranks anew
        RunResult other = Scenarios.run(RING, "seed=2");
        Set<String> a = new HashSet<>(), b = new HashSet<>();
        for (FlowRecord f : r.flows()) a.add(f.src() + ">" + f.dst());
        for (FlowRecord f : other.flows()) b.add(f.src() + ">" + f.dst());
        assertThat(a).isNotEqualTo(b);
    }
}

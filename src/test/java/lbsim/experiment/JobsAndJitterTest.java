package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import lbsim.metrics.CollectiveResult;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import org.junit.jupiter.api.Test;

/** workload.jobs / placement: rail / start_jitter_ns, and the per-collective summary. */
class JobsAndJitterTest {
    static final String COLL = """
            name: jobs
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
            """;

    static FlowGraph graph(String yaml, String... overrides) {
        Scenario sc = Scenarios.parse(yaml, overrides);
        Topology topo = sc.topology().build(sc.file());
        return sc.workload().build(topo, new SplittableRandom(1));
    }

    static Set<Integer> hostsOfGroup(FlowGraph g, int group) {
        Set<Integer> s = new HashSet<>();
        for (FlowSpec f : g.flows()) {
            if (f.group() == group) {
                s.add(f.src());
                s.add(f.dst());
            }
        }
        return s;
    }

    @Test
    void twoConcurrentJobsReportBothCctsAndNcclTestsBandwidths() {
        RunResult r = Scenarios.run(COLL, "workload.jobs=2");
        Scenarios.assertConserved(r);
        List<CollectiveResult> cs = r.collectives();
        assertThat(cs).hasSize(2);
        long worst = 0;
        for (int j = 0; j < 2; j++) {
            CollectiveResult c = cs.get(j);
            assertThat(c.label()).startsWith("job " + j + ":");
            assertThat(c.ranks()).isEqualTo(8);
            assertThat(c.cctNs()).isPositive();
            assertThat(c.cctNs()).isGreaterThanOrEqualTo(c.idealNs());
            // NCCL-tests: algbw = S / t, busbw = algbw x 2(n-1)/n for all-reduce; in Gbit/s
            assertThat(c.algbwGbps()).isCloseTo(1048576 * 8.0 / c.cctNs(), within(0.01));
            assertThat(c.busbwGbps()).isCloseTo(c.algbwGbps() * 2 * 7 / 8, within(1e-9));
            assertThat(c.busbwGbps()).isLessThanOrEqualTo(100.0);
            worst = Math.max(worst, c.cctNs());
        }
        assertThat(r.cctNs()).isEqualTo(worst);
        // contiguous blocks: job 0 on hosts 0..7, job 1 on 8..15
        FlowGraph g = graph(COLL, "workload.jobs=2");
        assertThat(hostsOfGroup(g, 0)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(hostsOfGroup(g, 1)).containsExactlyInAnyOrder(8, 9, 10, 11, 12, 13, 14, 15);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> json = (List<Map<String, Object>>) ResultWriter.summary(r).get("collectives");
        assertThat(json).hasSize(2);
        assertThat(json.get(0)).containsKeys("op", "algorithm", "size_bytes", "cct_ns", "algbw_gbps", "busbw_gbps");
    }

    /** 3 jobs on 16 hosts with ranks: 0 take 5 hosts each; the idle one is said, not left to be noticed. */
    @Test
    void jobsThatLeaveHostsIdleSaySoInTheWarnings() {
        RunResult r = Scenarios.run(COLL, "workload.jobs=3", "workload.size_bytes=65536");
        assertThat(r.warnings()).contains("workload.jobs: 3 jobs x 5 ranks (ranks: 0 = the hosts split evenly) use 15 of the 16 hosts;"
                + " 1 hosts stay idle");
        assertThat(Scenarios.run(COLL, "workload.jobs=2", "workload.size_bytes=65536").warnings()).isEmpty();
    }

    @Test
    void aSingleCollectiveAlsoListsItsBandwidth() {
        RunResult r = Scenarios.run(COLL);
        assertThat(r.collectives()).hasSize(1);
        assertThat(r.collectives().get(0).cctNs()).isEqualTo(r.cctNs());
        assertThat(r.collectives().get(0).ranks()).isEqualTo(16);
        // the per-collective bound uses the shortest host-to-host latency, so it stays below the CCT
        // even for a latency-bound 1 MiB ring that mostly stays inside a rack
        assertThat(r.collectives().get(0).idealNs()).isLessThanOrEqualTo(r.cctNs());
        RunResult local = Scenarios.run(COLL, "workload.ranks=8");
        assertThat(local.collectives().get(0).idealNs()).isLessThanOrEqualTo(local.cctNs());
    }

    @Test
    void randomJobsUseDisjointHosts() {
        FlowGraph g = graph(COLL, "workload.jobs=3", "workload.ranks=4", "workload.placement=random");
        Set<Integer> all = new HashSet<>();
        for (int j = 0; j < 3; j++) {
            Set<Integer> h = hostsOfGroup(g, j);
            assertThat(h).hasSize(4);
            for (int x : h) assertThat(all.add(x)).as("host %d in two jobs", x).isTrue();
        }
    }

    @Test
    void railPlacementPutsNicIOfEveryServerOnRailI() {
        String fabric = COLL.replace("leaves: 2, spines: 4, hosts_per_leaf: 8", "leaves: 4, spines: 4, hosts_per_leaf: 4");
        // 4 servers x 2 NICs: NIC 0 of server s is host s (leaf 0), NIC 1 is host 4 + s (leaf 1)
        FlowGraph g = graph(fabric, "workload.placement=rail", "workload.nics_per_server=2", "workload.ranks=8");
        assertThat(hostsOfGroup(g, 0)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        for (FlowSpec f : g.flows()) {
            // ring neighbours: rank r -> r+1, i.e. between the two NICs of a server or NIC 1 to the next server's NIC 0
            assertThat(f.src()).isLessThan(8);
        }
        // two jobs of two servers each
        FlowGraph two = graph(fabric, "workload.placement=rail", "workload.nics_per_server=2", "workload.ranks=4",
                "workload.jobs=2");
        assertThat(hostsOfGroup(two, 0)).containsExactlyInAnyOrder(0, 4, 1, 5);
        assertThat(hostsOfGroup(two, 1)).containsExactlyInAnyOrder(2, 6, 3, 7);
        RunResult r = Scenarios.run(fabric, "workload.placement=rail", "workload.nics_per_server=2", "workload.ranks=4",
                "workload.jobs=2");
        Scenarios.assertConserved(r);
        assertThat(r.collectives()).hasSize(2);
    }

    @Test
    void singleRailKeepsAServersNicsOnConsecutiveHosts() {
        String fabric = COLL.replace("leaves: 2, spines: 4, hosts_per_leaf: 8", "leaves: 4, spines: 4, hosts_per_leaf: 4");
        FlowGraph two = graph(fabric, "workload.placement=single-rail", "workload.nics_per_server=2", "workload.ranks=4",
                "workload.jobs=2");
        assertThat(hostsOfGroup(two, 0)).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(hostsOfGroup(two, 1)).containsExactlyInAnyOrder(4, 5, 6, 7);
        assertThatThrownBy(() -> graph(fabric, "workload.placement=single-rail", "workload.nics_per_server=3", "workload.ranks=4"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("whole servers");
    }

    /** workload.root is a rank of each job: every job's broadcast starts at, and reduce ends at, its own rank root. */
    @Test
    void rootIsARankOfEveryJob() {
        for (String hosts : new String[] {"disjoint", "shared"}) {
            FlowGraph bcast = graph(COLL, "workload.jobs=2", "workload.ranks=5", "workload.job_hosts=" + hosts,
                    "workload.op=broadcast", "workload.algorithm=direct", "workload.root=3");
            assertThat(bcast.flows()).hasSize(8);
            for (FlowSpec f : bcast.flows()) {
                int first = hosts.equals("shared") ? 0 : 5 * f.group();
                assertThat(f.src()).as("%s job %d", hosts, f.group()).isEqualTo(first + 3);
            }
            FlowGraph reduce = graph(COLL, "workload.jobs=2", "workload.ranks=5", "workload.job_hosts=" + hosts,
                    "workload.op=reduce", "workload.algorithm=ring", "workload.root=4");
            for (FlowSpec f : reduce.flows()) {
                int first = hosts.equals("shared") ? 0 : 5 * f.group();
                assertThat(f.src()).as("%s job %d: the chain ends at root 4", hosts, f.group()).isNotEqualTo(first + 4);
            }
        }
        // a root beyond a job's ranks (but within all jobs' hosts) is refused, not replaced by 0
        assertThatThrownBy(() -> graph(COLL, "workload.jobs=2", "workload.ranks=5", "workload.op=broadcast", "workload.root=7"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("root 7 is not a rank (0..4)");
    }

    @Test
    void badJobLayoutsAreBadInput() {
        assertThatThrownBy(() -> Scenarios.run(COLL, "workload.jobs=3", "workload.ranks=6"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("3 jobs x 6 ranks");
        assertThatThrownBy(() -> Scenarios.run(COLL, "workload.placement=rail", "workload.nics_per_server=3"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("nics_per_server");
        assertThatThrownBy(() -> Scenarios.parse(COLL, "workload.nics_per_server=2"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("nics_per_server");
        assertThatThrownBy(() -> Scenarios.parse(COLL.replace("{kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}",
                "{kind: training, start_jitter_ns: 5}")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("start_jitter_ns");
    }

    @Test
    void startJitterDelaysOnlyFlowsThatWaitForNothing() {
        FlowGraph plain = graph(COLL);
        FlowGraph jit = graph(COLL, "workload.start_jitter_ns=300");
        assertThat(jit.size()).isEqualTo(plain.size());
        Set<Long> starts = new HashSet<>();
        for (int i = 0; i < plain.size(); i++) {
            FlowSpec a = plain.flows().get(i), b = jit.flows().get(i);
            if (a.afterCount() == 0) {
                assertThat(b.startPs()).isBetween(a.startPs(), a.startPs() + 300_000);
                starts.add(b.startPs());
            } else {
                assertThat(b.startPs()).isEqualTo(a.startPs());
            }
            assertThat(b.after()).isEqualTo(a.after());
        }
        assertThat(starts.size()).as("distinct jittered starts").isGreaterThan(8);
        // deterministic per seed, and the run starts each first-step flow at its jittered time
        assertThat(graph(COLL, "workload.start_jitter_ns=300").flows().get(0).startPs()).isEqualTo(jit.flows().get(0).startPs());
        RunResult r = Scenarios.run(COLL, "workload.start_jitter_ns=300");
        Scenarios.assertConserved(r);
        Scenario sc = Scenarios.parse(COLL, "workload.start_jitter_ns=300");
        FlowGraph runGraph = sc.workload().build(sc.topology().build(sc.file()),
                new lbsim.engine.Simulation(sc.seed()).random().stream("workload"));
        for (FlowSpec f : runGraph.flows()) {
            if (f.afterCount() == 0) assertThat(r.flows().get(f.id()).startNs()).isCloseTo(f.startPs() / 1000.0, within(1e-3));
        }
    }

    @Test
    void startJitterOnExplicitFlows() {
        String flows = COLL.replace("{kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}",
                "{kind: flows, start_jitter_ns: 1000, flows: [{src: 0, dst: 9, size_bytes: 5000, start_ns: 100},"
                        + " {src: 1, dst: 9, size_bytes: 5000}, {src: 2, dst: 3, size_bytes: 5000, after: [0]}]}");
        RunResult r = Scenarios.run(flows);
        Scenarios.assertConserved(r);
        List<FlowRecord> f = r.flows();
        assertThat(f.get(0).startNs()).isBetween(100.0, 1100.0);
        assertThat(f.get(1).startNs()).isBetween(0.0, 1000.0);
        assertThat(f.get(0).startNs() - 100 != f.get(1).startNs()).isTrue();
        assertThat(f.get(2).startNs()).isGreaterThanOrEqualTo(f.get(0).finishNs());
    }
}

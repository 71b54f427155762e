package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import lbsim.cli.PlanEtherealCommand;
import lbsim.experiment.Scenario;
import lbsim.experiment.Scenarios;
import lbsim.plan.EtherealPlan;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * plan.md: {@code lbsim plan ethereal} shows the same QPs and path IDs as the {@code ethereal} scheme in a run. Ethereal
 * batches by the instant flows start (Sec. 3.1), so for flows that wait on others the plan is recorded from a run; for
 * flows that all start at their start times it is computed, and both must equal what a run's scheme opens.
 */
class EtherealPlanMatchesRunTest {
    private static final int MTU = 4096;

    /** The audit's e9: flows 1 and 2 wait on flow 0 and start together when it finishes (flow 2's start_ns 10 has passed). */
    private static final String E9 = """
            name: e9
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            load_balancer: {scheme: ethereal}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 100000}, {src: 0, dst: 4, size_bytes: 400000, after: [0]},
                       {src: 0, dst: 5, size_bytes: 400000, start_ns: 10, after: [0]}]}
            """;

    /** The audit's halving-doubling all-reduce on two channels: flows of both channels' steps start at the same instant. */
    private static final String HD = """
            name: hd
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            load_balancer: {scheme: ethereal}
            workload: {kind: collective, op: all-reduce, algorithm: halving-doubling, size_bytes: 524288, channels: 2}
            """;

    /** No dependencies: flows that start together (and one that starts later) from one source. */
    private static final String INDEPENDENT = """
            name: ind
            topology: {kind: leaf-spine, leaves: 3, spines: 4, hosts_per_leaf: 2, link_gbps: 100}
            load_balancer: {scheme: ethereal}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 300000}, {src: 0, dst: 3, size_bytes: 300000},
                       {src: 0, dst: 4, size_bytes: 100000}, {src: 0, dst: 1, size_bytes: 5000}, {src: 0, dst: 2, size_bytes: 70000, start_ns: 2000},
                       {src: 1, dst: 5, size_bytes: 200000}, {src: 3, dst: 0, size_bytes: 200000, start_ns: 500}]}
            """;

    /** A fat-tree with 2-link bundles: the same flows and a dependent collective, under either path_control. */
    private static final String BUNDLED_FLOWS = """
            name: bundled
            topology: {kind: fat-tree, pods: 2, tors_per_pod: 2, aggs_per_pod: 2, cores: 4, hosts_per_tor: 2, parallel_links: 2}
            load_balancer: {scheme: ethereal}
            workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 300000}, {src: 0, dst: 5, size_bytes: 300000},
                       {src: 0, dst: 2, size_bytes: 100000}, {src: 0, dst: 1, size_bytes: 5000}, {src: 0, dst: 7, size_bytes: 70000, start_ns: 2000},
                       {src: 1, dst: 6, size_bytes: 200000}, {src: 6, dst: 0, size_bytes: 200000, start_ns: 500}]}
            """;
    private static final String BUNDLED_HD = """
            name: bundled-hd
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, parallel_links: 2, link_gbps: 100}
            load_balancer: {scheme: ethereal}
            workload: {kind: collective, op: all-reduce, algorithm: halving-doubling, size_bytes: 524288, channels: 2}
            """;

    @Test
    void onBundledFabricsThePlanMatchesTheRunUnderPortAndLag() {
        for (String control : List.of("port", "lag")) {
            for (String yaml : List.of(BUNDLED_FLOWS, BUNDLED_HD)) {
                String y = yaml.replace("scheme: ethereal}", "scheme: ethereal, path_control: " + control + "}");
                List<String> plan = plan(y);
                assertThat(plan).as(control).isEqualTo(run(y));
                // flows 0 and 1 go to one ToR of the other pod: 2 flows over 4 x 4 port paths (4 ToR uplinks, 4 agg uplinks),
                // 8 QPs each; over 2 x 2 switch-level paths (lag), 2 QPs each
                long qps = plan.stream().filter(q -> q.startsWith("0 ")).count();
                if (yaml == BUNDLED_FLOWS) assertThat(qps).as(control).isEqualTo(control.equals("port") ? 8 : 2);
            }
        }
    }

    /** Per QP in the order a run's scheme opened them: "flow path-id packets" (path -1: rack-local), sorted. */
    private static List<String> run(String yaml) {
        List<String> out = new ArrayList<>();
        for (ObservedHost.Opened o : ObservedHost.run(yaml).opened()) {
            out.add(o.qp().flow().spec().id() + " " + (o.qp().sourceRouted() ? o.qp().pathId() : -1) + " " + o.qp().packets());
        }
        return out.stream().sorted().toList();
    }

    private static List<String> plan(String yaml) {
        Scenario sc = Scenarios.parse(yaml);
        Topology topo = sc.topology().build(sc.file());
        EtherealPlan p = PlanEtherealCommand.plan(sc, topo, List.of());
        assertThat(p.warnings()).isEmpty();
        return p.rows().stream().map(r -> r.flow() + " " + (r.pathId() == null ? -1 : r.pathId()) + " "
                + Math.max(1, (r.bytes() + MTU - 1) / MTU)).sorted().toList();
    }

    @Test
    void dependentFlowsThatStartTogetherAreOneBatchAsInTheRun() {
        List<String> plan = plan(E9);
        assertThat(plan).isEqualTo(run(E9));
        // flows 1 and 2 started together: two QPs each (not four of 100000 B each)
        assertThat(plan.stream().filter(s -> s.startsWith("1 "))).hasSize(2);
        assertThat(plan.stream().filter(s -> s.startsWith("2 "))).hasSize(2);
    }

    @Test
    void collectiveStepsOfTwoChannelsMatchTheRun() {
        assertThat(plan(HD)).isEqualTo(run(HD));
    }

    @Test
    void withoutDependenciesTheStaticPlanEqualsTheRun() {
        assertThat(plan(INDEPENDENT)).isEqualTo(run(INDEPENDENT));
        assertThat(plan(INDEPENDENT.replace("scheme: ethereal", "scheme: ethereal, start_jitter_ns: 300")))
                .isEqualTo(run(INDEPENDENT.replace("scheme: ethereal", "scheme: ethereal, start_jitter_ns: 300")));
    }
}

package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Path state carried over the QPs of one connection ({@code state: per-connection}, {@code repath: between-qps}):
 * chunks of a transfer posted one after another, as in Hopper's testbed (004 §4.2.1), on the 2-leaf fabric whose
 * leaf0-spine0 uplink keeps 10 % of its rate.
 */
class ConnectionStateTest {
    /** Flow 1 is the next chunk of flow 0's connection (group -1); flow 2 follows it in group 0, another connection. */
    private static final String CHUNKS = PlbTest.DEGRADED.replace(
            "flows: [{src: 0, dst: 1, size_bytes: 2000000}]",
            "flows: [{src: 0, dst: 1, size_bytes: 2000000}, {src: 0, dst: 1, size_bytes: 2000000, after: [0]}, "
                    + "{src: 0, dst: 1, size_bytes: 2000000, after: [1], group: 0}]");

    private static ObservedHost.Run run(String lb, String... overrides) {
        return ObservedHost.run(CHUNKS + "load_balancer: " + lb + "\n", ConnectionStateTest::copy, overrides);
    }

    /** Hopper's state as a QP opens: probe-table entries and RTT average (the state object itself changes later). */
    private static Object copy(Object state) {
        return state instanceof Hopper.State h ? new double[] {h.used, h.avgRttPs} : state;
    }

    /** Where flow 0's QP was when flow 1's opened, and where flow 1's started. */
    private static int[] handOver(ObservedHost.Run r) {
        ObservedHost.Opened first = r.ofFlow(0), second = r.ofFlow(1);
        return new int[] {second.earlierPorts()[first.qp().id], second.startPort()};
    }

    @Test
    void hoppersNextQpStartsOnThePortTheLastOneSwitchedTo() {
        ObservedHost.Run r = run("{scheme: hopper, state: per-connection}", "seed=2");
        Scenarios.assertConserved(r.result());
        ObservedHost.Opened first = r.ofFlow(0);
        int[] h = handOver(r);
        assertThat(r.result().flows().get(0).pathChanges()).as("precondition: flow 0 switched").isPositive();
        assertThat(h[0]).as("precondition: flow 0 left its first port").isNotEqualTo(first.startPort());
        assertThat(h[1]).as("flow 1 starts on flow 0's final port").isEqualTo(h[0]);
        double[] s1 = (double[]) r.ofFlow(1).state();
        assertThat(s1[0]).as("flow 1 took over flow 0's probe table").isPositive();
        assertThat(s1[1]).as("and its RTT average").isPositive();
        assertThat(r.result().flows().get(1).group()).isEqualTo(-1);
        assertThat(r.result().flows().get(2).group()).isZero();
        // flow 2 is another connection (group 0): a fresh state
        assertThat((double[]) r.ofFlow(2).state()).containsExactly(0, 0);
        // per-qp (the default): flow 1 draws its own port and starts with nothing
        ObservedHost.Run perQp = run("{scheme: hopper}", "seed=2");
        assertThat(handOver(perQp)[1]).isNotEqualTo(handOver(perQp)[0]);
        assertThat((double[]) perQp.ofFlow(1).state()).containsExactly(0, 0);
    }

    @Test
    void flowBendersNextQpStartsOnThePortTheLastOneWasReroutedTo() {
        ObservedHost.Run r = run("{scheme: flowbender, state: per-connection}", "seed=1");
        Scenarios.assertConserved(r.result());
        int[] h = handOver(r);
        assertThat(r.result().flows().get(0).pathChanges()).as("precondition: flow 0 rerouted").isPositive();
        assertThat(h[0]).isNotEqualTo(r.ofFlow(0).startPort());
        assertThat(h[1]).isEqualTo(h[0]);
        ObservedHost.Run perQp = run("{scheme: flowbender}", "seed=1");
        assertThat(handOver(perQp)[1]).isNotEqualTo(handOver(perQp)[0]);
    }

    /** Between QPs: flow 0 stays on the degraded spine and plans the move; flow 1 runs on the idle spine from its start. */
    @Test
    void betweenQpsTheDecisionMovesOnlyTheNextQp() {
        String two = "{scheme: hopper, state: per-connection, repath: between-qps}";
        ObservedHost.Run r = ObservedHost.run(CHUNKS.replace(", {src: 0, dst: 1, size_bytes: 2000000, after: [1], group: 0}", "")
                + "load_balancer: " + two + "\n", "seed=2");
        RunResult res = r.result();
        Scenarios.assertConserved(res);
        assertThat(res.flows()).hasSize(2);
        assertThat(res.flows().get(0).pathChanges()).as("no move within a QP").isZero();
        assertThat(res.flows().get(1).pathChanges()).isZero();
        int[] h = handOver(r);
        assertThat(h[0]).as("flow 0 never left its first port").isEqualTo(r.ofFlow(0).startPort());
        assertThat(h[1]).as("flow 1 starts on the planned port").isNotEqualTo(h[0]);
        assertThat(res.lbCounters()).containsEntry("path_switches", 1L);
        // flow 0's 2 MB on the degraded spine, flow 1's on the other (probes and ACK-path traffic aside)
        assertThat(Scenarios.bytes(res, "leaf0", "spine0")).isBetween(2_000_000L, 2_200_000L);
        assertThat(Scenarios.bytes(res, "leaf0", "spine1")).isBetween(2_000_000L, 2_200_000L);
    }

    @Test
    void flowBenderBetweenQpsPlansTheMoveForTheNextQp() {
        ObservedHost.Run r = run("{scheme: flowbender, state: per-connection, repath: between-qps}", "seed=1");
        Scenarios.assertConserved(r.result());
        assertThat(r.result().flows().get(0).pathChanges()).isZero();
        int[] h = handOver(r);
        assertThat(h[0]).isEqualTo(r.ofFlow(0).startPort());
        assertThat(h[1]).as("flow 0's congested rounds planned a move").isNotEqualTo(h[0]);
        assertThat(r.result().lbCounters().get("path_switches")).isPositive();
    }

    /**
     * A window-less QP (DCQCN) sends a 200 KB chunk at 100 Gbps before the first ACK is back from the 1 Gbps spine, so
     * its first RTT round is the whole chunk and would end with its last ACK, after the next chunk has started; the hand-over
     * ends it instead (the testbed judges a chunk when it completes), and the next chunk leaves the slow spine.
     */
    @Test
    void flowBendersOpenRoundEndsAtTheChunkBoundary() {
        String slow = PlbTest.DEGRADED.replace("capacity_fraction: 0.1", "capacity_fraction: 0.01")
                .replace("flows: [{src: 0, dst: 1, size_bytes: 2000000}]",
                        "flows: [{src: 0, dst: 1, size_bytes: 200000}, {src: 0, dst: 1, size_bytes: 200000, after: [0]}]")
                .replace("transport: {cc: dctcp}", "transport: {cc: dcqcn}");
        for (String repath : new String[] {"within-qp", "between-qps"}) {
            ObservedHost.Run r = ObservedHost.run(slow + "load_balancer: {scheme: flowbender, signal: rtt, state: per-connection, "
                    + "repath: " + repath + "}\n", "seed=1");
            RunResult res = r.result();
            Scenarios.assertConserved(res);
            assertThat(res.flows().get(0).pathChanges()).as("precondition: one round, no move within flow 0").isZero();
            assertThat(Scenarios.bytes(res, "leaf0", "spine0")).as("precondition: flow 0 on the slow spine").isGreaterThan(200_000);
            int[] h = handOver(r);
            assertThat(h[1]).as(repath + ": flow 1 starts elsewhere").isNotEqualTo(h[0]);
            // the move at the hand-over, and any of flow 1's own
            assertThat(res.lbCounters()).containsEntry("path_switches", 1L + res.flows().get(1).pathChanges());
        }
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        String yaml = CHUNKS + "load_balancer: {scheme: hopper}\n";
        assertThatThrownBy(() -> Scenarios.parse(yaml, "load_balancer.state=shared")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("load_balancer.state").hasMessageContaining("per-qp, per-connection");
        assertThatThrownBy(() -> Scenarios.parse(yaml, "load_balancer.repath=later")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("load_balancer.repath").hasMessageContaining("within-qp, between-qps");
        assertThatThrownBy(() -> Scenarios.parse(yaml, "load_balancer.repath=between-qps")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("load_balancer.repath").hasMessageContaining("state: per-connection");
        assertThatThrownBy(() -> Scenarios.parse(yaml, "load_balancer.scheme=flowbender", "load_balancer.repath=between-qps"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("load_balancer.repath");
        assertThatThrownBy(() -> Scenarios.parse(CHUNKS.replace("group: 0", "group: 3") + "load_balancer: {scheme: ecmp}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("workload.flows[2].group")
                .hasMessageContaining("[0, 2]");
    }
}

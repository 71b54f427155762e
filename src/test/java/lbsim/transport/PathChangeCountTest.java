package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * flows.csv's path_changes counts every move after a QP's first packet, also a move made on a
 * timeout that lost the QP's first packets (Go-Back-N has then put the send pointer back to 0):
 * those were not counted (a flow with 4 timeouts under PLB showed 0 path changes).
 */
class PathChangeCountTest {
    // a spine link dies at 1 us, before any ACK is back: flows hashed onto it lose their first packets
    private static final String EARLY_FAILURE = """
            max_time_ms: 300
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 100000}, {src: 1, dst: 5, size_bytes: 100000},
                                            {src: 2, dst: 6, size_bytes: 100000}, {src: 3, dst: 7, size_bytes: 100000}]}
            failures: [{at_us: 1, link: "leaf0-spine0", kind: down, detect_ms: 100}]
            transport: {timeout_us: 1000}
            nic: {retry_count: 0}
            """;

    @Test
    void everyTimeoutRepathIsCountedEvenWhenItLostTheFirstPackets() {
        long timeouts = 0;
        for (String scheme : new String[] {"plb", "flowbender"}) {
            for (int seed = 1; seed <= 3; seed++) {
                RunResult r = Scenarios.run(EARLY_FAILURE, "load_balancer.scheme=" + scheme, "seed=" + seed);
                Scenarios.assertConserved(r);
                for (FlowRecord f : r.flows()) {
                    // both draw a new random source port on every timeout (docs/scenario.md)
                    assertThat(f.pathChanges()).as("%s seed %d flow %d", scheme, seed, f.id()).isEqualTo(f.timeouts());
                    timeouts += f.timeouts();
                }
            }
        }
        assertThat(timeouts).as("the failure caused timeouts").isPositive();
    }

    @Test
    void etherealsRerouteOnATimeoutIsCounted() {
        RunResult r = Scenarios.run(EARLY_FAILURE, "load_balancer.scheme=ethereal", "seed=1");
        assertThat(r.flows()).anyMatch(f -> f.timeouts() > 0);
        for (FlowRecord f : r.flows()) {
            if (f.timeouts() > 0) assertThat(f.pathChanges()).as("flow %d", f.id()).isPositive();
        }
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * The Swift stall of the hostile audit (issue 31): after timeouts Swift's window is far below one
 * packet, so it allows a packet only with nothing in flight. The bytes in flight subtracted the
 * packets known to have left at a full MTU each; with the short last packet among them the count
 * went negative, never "nothing in flight", and the lost packets were never resent (seed 1 stopped
 * at 50 ms after 270 timeouts with 4 050 packets sent, for good).
 */
class SwiftStallTest {
    static final String FLAKY = """
            name: swift-stall
            seed: 1
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: swift, loss_recovery: tcp, pfc: false}
            workload: {kind: permutation, size_bytes: 2000000}
            failures: [{at_us: 10, link: "leaf0-spine0", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]
            max_time_ms: 50
            """;

    @Test
    void aSwiftSenderWithATinyWindowResendsItsLastPacketsAfterTimeouts() {
        for (String recovery : new String[] {"tcp", "irn", "trim"}) {
            RunResult r = Scenarios.run(FLAKY, "transport.loss_recovery=" + recovery);
            Scenarios.assertConserved(r);
            assertThat(r.timeouts()).as(recovery).isPositive();
        }
    }
}

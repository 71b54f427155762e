package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** Fixed-rate pacing: a flow runs at rate_coefficient x its fair share however many QPs carry it. */
class FixedRateTest {
    private static final String ONE_FLOW = """
            name: fixed
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 1, link_gbps: 100}
            transport: {cc: fixed-rate, rate_coefficient: 0.5}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 8192000}]}
            """;

    @Test
    void theFlowKeepsItsRateWhenSplitOverQps() {
        // 2000 packets of 4096 + 64 B at half of 100 Gb/s: 1331.2 us of pacing
        double paced = 2000 * (4096 + 64) * 8 / 50e9 * 1e9;
        for (String scheme : new String[] {"ecmp", "subflows", "mprdma"}) {
            RunResult r = Scenarios.run(ONE_FLOW, "load_balancer.scheme=" + scheme);
            Scenarios.assertConserved(r);
            assertThat(r.flows().get(0).fctNs()).as(scheme).isCloseTo(paced, within(0.02 * paced));
        }
    }
}

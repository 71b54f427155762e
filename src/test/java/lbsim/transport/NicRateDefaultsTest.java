package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transport defaults that scale with a NIC (the initial window and IRN's in-flight cap of one
 * BDP, Swift's, the fixed-rate fair share) come from the sending host's own NIC: a NIC elsewhere
 * that runs at 1 Gbps (a host link override) must not throttle a lone flow between two 100 Gbps
 * hosts. They were taken from host 0's NIC for every host, so with h0 at 1 Gbps the flow below
 * took 2.2x (dctcp, swift), 6.6x (irn) or 95x (fixed-rate) its idle time.
 */
class NicRateDefaultsTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cc: dctcp", "cc: swift", "cc: fixed-rate", "loss_recovery: irn"})
    void aSlowNicOnHostZeroLeavesTheOtherHostsAtTheirOwnRate(String transport) {
        String yaml = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096, link_overrides: [{links: "h0-leaf0", gbps: 1}]}
                transport: {%s, header_bytes: 64}
                workload: {kind: flows, flows: [{src: 1, dst: 2, size_bytes: 1048576, start_ns: 0}]}
                max_time_ms: 50
                """.formatted(transport);
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        // h1 -> leaf0 -> spine -> leaf1 -> h2, every link at 100 Gbps
        double expected = LoneFlowTest.analyticFctNs(1048576, 4);
        assertThat(r.flows().get(0).fctNs()).isCloseTo(expected, within(LoneFlowTest.PACKET_NS));
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.metrics.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runner.run checks conservation after every completed run and throws
 * IllegalStateException on a violation; these scenarios must all complete and balance.
 */
class ConservationTest {
    static final String FABRIC = """
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4, link_gbps: 100,
                       link_latency_ns: 1000, mtu_bytes: 4096, switch_buffer_bytes: %d}
            transport: {cc: %s, pfc: %s, timeout_us: 200}
            load_balancer: {scheme: ecmp}
            workload: {kind: permutation, size_bytes: 262144, concurrent: %d}
            max_time_ms: 500
            """;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"permutation", "permutation-dcqcn", "permutation-fixed-rate", "incast-lossy", "flaky",
            "degrade", "down-detected", "fat-tree-lossy"})
    void packetsSentEqualDeliveredPlusDropped(String name) {
        String yaml = switch (name) {
            case "permutation" -> FABRIC.formatted(64L << 20, "dctcp", true, 2);
            case "permutation-dcqcn" -> FABRIC.formatted(64L << 20, "dcqcn", true, 2);
            case "permutation-fixed-rate" -> FABRIC.formatted(64L << 20, "fixed-rate", false, 2);
            case "incast-lossy" -> """
                    topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, switch_buffer_bytes: 150000}
                    transport: {cc: dctcp, pfc: false, timeout_us: 200}
                    workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 500000}, {src: 2, dst: 0, size_bytes: 500000},
                               {src: 4, dst: 0, size_bytes: 500000}, {src: 5, dst: 0, size_bytes: 500000},
                               {src: 6, dst: 0, size_bytes: 500000}, {src: 7, dst: 0, size_bytes: 500000}]}
                    max_time_ms: 500
                    """;
            case "flaky" -> FABRIC.formatted(64L << 20, "dctcp", true, 1)
                    + "failures: [{at_us: 0, link: \"leaf*-spine0\", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]\n";
            case "degrade" -> FABRIC.formatted(64L << 20, "dctcp", true, 2)
                    + "failures: [{at_us: 5, link: \"leaf0-spine1\", kind: degrade, capacity_fraction: 0.25}]\n";
            case "down-detected" -> FABRIC.formatted(64L << 20, "dctcp", true, 1)
                    + "failures: [{at_us: 10, link: \"leaf1-spine0\", kind: down, detect_ms: 1}]\n";
            default -> """
                    topology: {kind: fat-tree, k: 4, switch_buffer_bytes: 100000}
                    transport: {cc: dctcp, pfc: false, timeout_us: 200}
                    workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
                    max_time_ms: 500
                    """;
        };
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.flows()).isNotEmpty();
        if (name.equals("flaky") || name.equals("incast-lossy") || name.equals("down-detected")) {
            assertThat(r.packetsDropped()).as("the failure or the buffer lost packets").isPositive();
            assertThat(r.packetsRetransmitted()).isPositive();
        }
        if (name.startsWith("permutation") && !name.equals("permutation-fixed-rate")) {
            assertThat(r.packetsDropped()).as("lossless with PFC").isZero();
        }
    }
}

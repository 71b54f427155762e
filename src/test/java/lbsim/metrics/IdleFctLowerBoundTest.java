package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lbsim.experiment.Scenarios;
import lbsim.lb.Schemes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The idle FCT is a lower bound under every scheme (docs/workloads.md), also on idle fabrics
 * slower than the NICs, where a scheme that moves a flow to another path while its packets
 * still queue on the old one has it on two paths at once. Before, a lone ConWeave flow from a
 * 400G NIC over 10G uplinks was rerouted mid-flow, used both uplinks and reported slowdown 0.89.
 */
class IdleFctLowerBoundTest {
    /** 400G NICs, 10G fabric: the leaf uplink is the bottleneck, and its queue is what schemes react to. */
    static final String LONE = """
            name: lone
            topology: {leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 10, host_link_gbps: 400, port_buffer_bytes: 65536}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 200000}]}
            """;

    static final String PERMUTATION = """
            name: perm
            topology: {kind: fat-tree, k: 4, link_gbps: 10, host_link_gbps: 400}
            transport: {timeout_us: 1000}
            workload: {kind: permutation, size_bytes: 200000}
            """;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String s : Schemes.available()) {
            out.add(Arguments.of("lone", s, 1L));
            for (long seed = 1; seed <= 3; seed++) out.add(Arguments.of("permutation", s, seed));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("cases")
    void noFlowBeatsItsIdleFct(String workload, String scheme, long seed) {
        var r = Scenarios.run((workload.equals("lone") ? LONE : PERMUTATION) + "seed: " + seed + "\n", "load_balancer.scheme=" + scheme);
        Scenarios.assertConserved(r);
        double min = r.flows().stream().mapToDouble(FlowRecord::slowdown).min().orElseThrow();
        assertThat(min).as("least slowdown").isGreaterThanOrEqualTo(1.0);
    }

    /**
     * The multi-path reference charges the parallel capacity of each hop: a lone sprayed flow from a
     * 400G NIC over two 10G uplinks is within a few percent of it (it was 6.1 times it when every
     * sprayed packet had a middle link of its own).
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"spray-host", "spray-switch", "drill", "reps"})
    void aLoneSprayedFlowIsCloseToTheMultiPathReference(String scheme) {
        var r = Scenarios.run(LONE, "load_balancer.scheme=" + scheme, "nic.profile=multipath"); // a receiver that keeps reordered packets
        Scenarios.assertConserved(r);
        assertThat(r.flows().get(0).slowdown()).isBetween(1.0, 1.2);
    }
}

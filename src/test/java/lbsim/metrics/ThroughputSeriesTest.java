package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/** Total throughput over time: conserves the bytes the host-facing ports sent, and saturates at line rate. */
class ThroughputSeriesTest {
    private static final String PERMUTATION = """
            name: tt
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 4000000}, {src: 2, dst: 0, size_bytes: 4000000},
                       {src: 1, dst: 3, size_bytes: 4000000}, {src: 3, dst: 1, size_bytes: 4000000}]}
            metrics: {throughput_interval_us: 5}
            """;

    @Test
    void theSeriesIntegratesToTheBytesHostFacingPortsSent() {
        RunResult r = Scenarios.run(PERMUTATION, "load_balancer.scheme=spray-switch");
        Scenarios.assertConserved(r);
        ThroughputSeries t = r.throughput();
        assertThat(t.intervalNs()).isEqualTo(5000.0);
        double bits = 0;
        for (double g : t.gbps()) bits += g * t.intervalNs();
        long bytes = r.links().stream().filter(l -> l.from().startsWith("leaf") && l.to().startsWith("h"))
                .mapToLong(LinkRecord::bytes).sum();
        assertThat(bits / 8).isCloseTo(bytes, within(1.0));
        // four flows, non-blocking fabric: the plateau is four NICs at line rate
        assertThat(t.maxGbps()).isCloseTo(400, within(8.0));
        assertThat(t.meanGbps()).isLessThanOrEqualTo(t.maxGbps()).isGreaterThan(300);
    }

    @Test
    void theIntervalIsAScenarioKeyWithAFloor() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenarios.parse(PERMUTATION, "metrics.throughput_interval_us=0"))
                .hasMessageContaining("metrics.throughput_interval_us");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenarios.parse(PERMUTATION, "metrics.sample=1"))
                .hasMessageContaining("unknown key");
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * The QP sweep through the whole stack (examples/qp-scaling.yaml): one 64 MiB transfer split over
 * N QPs (MP-RDMA-N) between two hosts at 100 Gbit/s, paced at line rate. Up to the NIC's 1024
 * cached contexts the transfer runs at line rate whatever N; past it the NICs miss and stall, and
 * the transfer slows toward the all-miss floor of serialisation / (serialisation + miss).
 */
class QpScalingRunTest {
    static final String SWEEP = """
            name: qp-scaling
            topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2, link_gbps: 100}
            transport: {cc: fixed-rate}
            load_balancer: {scheme: mprdma, splits: 1}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 67108864}]}
            """;

    static double fctNs(int qps) {
        RunResult r = Scenarios.run(SWEEP, "load_balancer.splits=" + qps);
        Scenarios.assertConserved(r);
        assertThat(r.maxQpsPerNic()).isEqualTo(qps);
        return r.flows().get(0).fctNs();
    }

    @Test
    void throughputIsFlatUpToTheContextCacheAndFallsBeyondIt() {
        double one = fctNs(1);
        assertThat(fctNs(256)).isEqualTo(one);
        assertThat(fctNs(1024)).as("exactly the cache size: no miss").isEqualTo(one);
        double d1536 = fctNs(1536);
        double d2048 = fctNs(2048);
        double d4096 = fctNs(4096);
        assertThat(d1536).isGreaterThan(1.2 * one);
        assertThat(d2048).isGreaterThan(d1536);
        assertThat(d4096).isGreaterThan(d2048);
        // never slower than every packet missing once at each end, overlapped: (333 + 500) / 333 ns per 4 KiB packet
        double packetNs = 4160 * 8 / 100.0;
        assertThat(d4096).isLessThan(one * (packetNs + 500) / packetNs * 1.02);
        // an unlimited cache (the ideal profile's) keeps line rate
        assertThat(Scenarios.run(SWEEP, "load_balancer.splits=4096", "nic.qp_cache_entries=0").flows().get(0).fctNs()).isEqualTo(one);
    }
}

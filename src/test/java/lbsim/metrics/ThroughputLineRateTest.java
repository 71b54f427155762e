package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/**
 * The throughput series counts the bytes serialised during each interval (a packet pro rata to the
 * part of its serialisation in it): no interval exceeds the host-facing ports' line rate, even at
 * 1 us intervals where a whole 1 KB packet is 8 % of an interval, and the intervals sum to the
 * bytes links.csv says those ports sent.
 */
class ThroughputLineRateTest {
    // 6 hosts at 100G, one per leaf: 600 Gb/s host-facing, i.e. 75,000 bytes per 1 us interval
    private static final String SIX_HOSTS = """
            name: six
            seed: 2
            topology: {kind: leaf-spine, leaves: 6, spines: 1, hosts_per_leaf: 1, link_gbps: 100, link_latency_ns: 1000, port_buffer_bytes: 40000}
            transport: {cc: dctcp, loss_recovery: trim, pfc: false}
            workload: {kind: permutation, size_bytes: 300000, concurrent: 3}
            metrics: {throughput_interval_us: 1}
            """;
    private static final long BYTES_PER_US_100G = 12_500;

    /** Bytes per interval, recovered exactly from the series' Gb/s (each is bytes x 8 / interval). */
    private static long[] bytesPerInterval(ThroughputSeries t) {
        long[] b = new long[t.gbps().length];
        for (int i = 0; i < b.length; i++) b[i] = Math.round(t.gbps()[i] * t.intervalNs() / 8);
        return b;
    }

    private static long hostFacingBytes(RunResult r) {
        return r.links().stream().filter(l -> l.from().startsWith("leaf") && l.to().startsWith("h"))
                .mapToLong(LinkRecord::bytes).sum();
    }

    @Test
    void noIntervalExceedsLineRateAndTheSeriesSumsToTheLinksBytes() {
        RunResult r = Scenarios.run(SIX_HOSTS);
        Scenarios.assertConserved(r);
        ThroughputSeries t = r.throughput();
        assertThat(t.intervalNs()).isEqualTo(1000.0);
        long[] b = bytesPerInterval(t);
        long sum = 0;
        for (int i = 0; i < b.length; i++) {
            assertThat(b[i]).as("interval %d bytes", i).isBetween(0L, 6 * BYTES_PER_US_100G);
            sum += b[i];
        }
        assertThat(sum).isEqualTo(hostFacingBytes(r));
        assertThat(t.maxGbps()).isLessThanOrEqualTo(600.0).isGreaterThan(590.0);
    }

    @Test
    void aRateChangeDuringAPacketKeepsEveryIntervalWithinTheRateOfTheLinks() {
        // leaf0 -> h0 drops to 50G at 5 us, an interval boundary, with a packet likely in serialisation
        RunResult r = Scenarios.run(SIX_HOSTS + "failures: [{at_us: 5, link: h0-leaf0, kind: degrade, capacity_fraction: 0.5}]\n");
        Scenarios.assertConserved(r);
        long[] b = bytesPerInterval(r.throughput());
        long sum = 0;
        for (int i = 0; i < b.length; i++) {
            // the packet in serialisation at 5 us ends at 100G, by 6 us; from then on leaf0 -> h0 sends at 50G
            long cap = i < 6 ? 6 * BYTES_PER_US_100G : 5 * BYTES_PER_US_100G + BYTES_PER_US_100G / 2;
            assertThat(b[i]).as("interval %d bytes", i).isBetween(0L, cap);
            sum += b[i];
        }
        assertThat(sum).isEqualTo(hostFacingBytes(r));
    }

    /**
     * Memory that does not grow with simulated time (issue 2): past throughput_max_intervals the
     * series merges pairs and doubles its interval. The merged series still sums to the ports'
     * bytes and stays under their line rate, and the run itself is the same.
     */
    @Test
    void pastItsMaximumTheSeriesMergesPairsAndStillSumsToTheLinksBytes() {
        RunResult fine = Scenarios.run(SIX_HOSTS);
        RunResult merged = Scenarios.run(SIX_HOSTS.replace("throughput_interval_us: 1}", "throughput_interval_us: 1, throughput_max_intervals: 8}"));
        Scenarios.assertConserved(merged);
        ThroughputSeries t = merged.throughput();
        assertThat(fine.throughput().gbps().length).isGreaterThan(16);
        assertThat(t.gbps().length).isBetween(4, 9);
        assertThat(t.intervalNs()).isGreaterThanOrEqualTo(4000.0);
        // a power-of-two multiple of the 1 us interval, covering the whole run
        assertThat(Long.bitCount(Math.round(t.intervalNs() / 1000))).isEqualTo(1);
        assertThat(t.gbps().length * t.intervalNs()).isGreaterThanOrEqualTo(fine.throughput().gbps().length * 1000.0 - t.intervalNs());
        long[] b = bytesPerInterval(t);
        long sum = 0;
        for (long x : b) {
            assertThat(x).isBetween(0L, Math.round(6 * BYTES_PER_US_100G * t.intervalNs() / 1000));
            sum += x;
        }
        assertThat(sum).isEqualTo(hostFacingBytes(merged));
        assertThat(merged.flows()).isEqualTo(fine.flows());
        assertThat(merged.links()).isEqualTo(fine.links());
    }

    /** A flow that starts long after the first: the idle stretch costs no more than the maximum number of samples. */
    @Test
    void aLongIdleStretchKeepsTheSeriesBounded() {
        RunResult r = Scenarios.run("""
                name: late
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 1, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 100000, start_ns: 0}, {src: 1, dst: 0, size_bytes: 100000, start_ns: 200000000}]}
                metrics: {throughput_interval_us: 1, throughput_max_intervals: 1024}
                """);
        Scenarios.assertConserved(r);
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
        assertThat(r.throughput().gbps().length).isLessThanOrEqualTo(1025);
        assertThat(r.throughput().intervalNs() * r.throughput().gbps().length).isGreaterThanOrEqualTo(200_000_000.0);
    }
}

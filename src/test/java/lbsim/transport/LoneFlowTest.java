package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A lone flow on an idle fabric with equal link rates: the NIC serialises the N packets
 * back to back, every further hop adds the store-and-forward of the last packet only, and
 * every link adds its propagation delay:
 *
 * <pre>FCT = sum over packets of ser(wire_i) + (hops - 1) ser(wire_last') + hops x latency</pre>
 *
 * measured at the receiver (the last byte delivered). With equal link rates a short last
 * packet cannot overtake the full packet ahead of it: at every store-and-forward hop it
 * waits for that packet's serialisation, so {@code wire_last'} is a full packet whenever the
 * flow has more than one packet, and the last (only) packet otherwise.
 */
class LoneFlowTest {
    static final double GBPS = 100;
    static final long LAT_NS = 1000;
    static final int MTU = 4096;
    static final int HDR = 64;
    static final double PACKET_NS = (MTU + HDR) * 8 / GBPS; // 332.8 ns

    static String scenario(int src, int dst, long size) {
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096}
                transport: {cc: dctcp, header_bytes: 64}
                load_balancer: {scheme: ecmp}
                workload: {kind: flows, flows: [{src: %d, dst: %d, size_bytes: %d, start_ns: 0}]}
                max_time_ms: 50
                """.formatted(src, dst, size);
    }

    static double analyticFctNs(long size, int hops) {
        long n = (size + MTU - 1) / MTU;
        long lastPayload = size - (n - 1) * MTU;
        double lastNs = (lastPayload + HDR) * 8 / GBPS;
        double perHopNs = n > 1 ? PACKET_NS : lastNs;
        return (n - 1) * PACKET_NS + lastNs + (hops - 1) * perHopNs + hops * LAT_NS;
    }

    @ParameterizedTest(name = "{0}->{1} {2} B, {3} hops")
    @CsvSource({
            "0, 2, 1048576, 4",   // across the spine: host, leaf0, spine, leaf1
            "0, 2, 100000, 4",    // short last packet
            "3, 1, 4096, 4",      // one packet
            "0, 1, 1048576, 2",   // within one rack: host, leaf0
            "1, 0, 77777, 2",
    })
    void receiverFctIsSerialisationPlusStoreAndForwardPlusPropagation(int src, int dst, long size, int hops) {
        RunResult r = Scenarios.run(scenario(src, dst, size));
        Scenarios.assertConserved(r);
        assertThat(r.packetsDropped()).isZero();
        assertThat(r.packetsRetransmitted()).isZero();
        double expected = analyticFctNs(size, hops);
        assertThat(r.flows().get(0).fctNs()).isCloseTo(expected, within(PACKET_NS));
        // and never faster than physics allows
        assertThat(r.flows().get(0).fctNs()).isGreaterThanOrEqualTo(expected - 1);
    }
}

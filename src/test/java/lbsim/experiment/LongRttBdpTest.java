package lbsim.experiment;

import lbsim.topology.Fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The default window (one BDP) and ParaLet's flowlet (4·BDP/m) on a fabric whose base RTT times
 * NIC rate exceeds a long in ps·bit/s: 400 Gb/s and a 36.5 us RTT (fat-tree, 3 us links) is
 * 1.46e19. The product used to wrap around, the window fell to its 2-packet floor and a lone
 * 1 MB flow took 17x its idle FCT; ParaLet cut flows into 1-MTU flowlets.
 */
class LongRttBdpTest {
    private static final String FABRIC = """
            topology: {kind: fat-tree, k: 4, link_gbps: 400, link_latency_ns: 3000}
            workload: {kind: flows, flows: [{src: 0, dst: 15, size_bytes: 1000000}]}
            max_time_ms: 50
            """;

    @ParameterizedTest
    @ValueSource(strings = {"dctcp", "swift"})
    void loneFlowWithTheDefaultWindowRunsAtItsIdleFct(String cc) {
        RunResult r = Scenarios.run(FABRIC, "transport.cc=" + cc);
        Scenarios.assertConserved(r);
        FlowRecord f = r.flows().get(0);
        // one BDP is more than the flow, so nothing waits for an ACK
        assertThat(f.slowdown()).isCloseTo(1.0, within(1e-3));
    }

    @Test
    void paraletFlowletIsFourBdpOverMWithoutOverflow() {
        RunResult r = Scenarios.run(FABRIC, "load_balancer.scheme=paralet");
        Scenarios.assertConserved(r);
        // Fabric.baseRttPs: 2 x 6 hops x 3 us + 6 x (4160 + 64) B at 400 Gb/s
        long rttPs = 2 * 6 * 3_000_000L + 6 * (4160L + 64) * 8_000_000_000_000L / 400_000_000_000L;
        long bdp = BigInteger.valueOf(rttPs).multiply(BigInteger.valueOf(400_000_000_000L))
                .divide(BigInteger.valueOf(8_000_000_000_000L)).longValueExact();
        long s = ((4 * bdp + 31) / 32 + 4095) / 4096 * 4096;   // m = 32, whole MTUs
        assertThat(r.flows().get(0).qps()).isEqualTo((int) ((1_000_000 + s - 1) / s));
    }

    /** A 1 MiB MTU with 64 KiB headers and ACKs: the base RTT's serialisation term (bytes x 8e12) passes a long. */
    @Test
    void baseRttWithTheLargestPacketsIsExact() {
        var topo = TopologySpec.from(new Section("t", "topology", tools.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("kind", "leaf-spine").put("leaves", 2).put("spines", 1).put("hosts_per_leaf", 1)
                .put("link_gbps", 100).put("link_latency_ns", 0)), null).build("t");
        int data = (1 << 20) + 65536;
        int ack = 65536;
        // 4 hops, latency 0: 4 x (data + ack) x 8 / 100 Gb/s, exactly
        long expected = BigInteger.valueOf(4L * (data + ack)).multiply(BigInteger.valueOf(8_000_000_000_000L))
                .divide(BigInteger.valueOf(100_000_000_000L)).longValueExact();
        assertThat(Fabric.baseRttPs(topo, data, ack, 100_000_000_000L)).isEqualTo(expected).isPositive();
    }
}

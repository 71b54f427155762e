package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The default PFC headroom, 2 x link BDP + 2 packets per ingress port, on long fast links: 25 us
 * at 400 Gbps holds 1.25 MB one way, and latency (ps) x rate (bit/s) = 1e19 no longer fits in a
 * long. The headroom must still be the BDP, not a wrapped-around (negative) value that leaves PFC
 * never pausing and a lossless fabric dropping.
 */
class PfcHeadroomTest {
    static final long RATE = 400_000_000_000L;
    static final long LATENCY_PS = 25 * Simulation.PS_PER_US;
    static final long PACKET = 4096 + 64;

    @Test
    void headroomIsTwoLinkBdpsPlusTwoPacketsOnLongFastLinks() {
        Topology topo = LeafSpine.builder(1, 1, 4, 1, RATE, RATE, LATENCY_PS).build();
        Network net = new Network(new Simulation(1), topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
        Switch leaf = net.switchNode(topo.nodeId("leaf0"));
        long bdp = 1_250_000;   // 25 us x 400 Gbps / 8
        assertThat(leaf.reservedHeadroom()).isEqualTo(leaf.portCount() * (2 * bdp + 2 * PACKET));
    }

    @Test
    void anIncastOverLongFastLinksPausesAndDropsNothing() {
        // three senders at line rate (fixed-rate) into one 400 Gbps port: 16 MB would queue, more
        // than the 14 MB buffer; leaf0's 5 ports reserve 12.5 MB of headroom, so XOFF comes at
        // about 1.5 MB and the headroom absorbs what is in flight when the pause lands
        String yaml = """
                topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 4, link_gbps: 400,
                           link_latency_ns: 25000, switch_buffer_bytes: 14000000}
                transport: {cc: fixed-rate, pfc: true}
                workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 8000000}, {src: 2, dst: 0, size_bytes: 8000000},
                                                {src: 3, dst: 0, size_bytes: 8000000}]}
                max_time_ms: 100
                """;
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.pfcPauses()).isPositive();
        assertThat(r.packetsDropped()).isZero();
        assertThat(r.packetsRetransmitted()).isZero();
    }

    @Test
    void theTwoPacketsOfHeadroomAreWholePacketsWithTheTransportHeader() {
        // zero-latency links leave only the 2-packet part of the headroom: with 2 KB headers a data
        // packet is 6144 B on the wire, so 2 x (MTU + 64) = 8320 B could not hold the two packets
        // that arrive after XOFF, and a 4-to-1 incast paused yet dropped 466 packets
        String yaml = """
                topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 5, link_latency_ns: 0, port_buffer_bytes: 20000}
                transport: {cc: fixed-rate, pfc: true, header_bytes: 2048}
                workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 1000000}, {src: 2, dst: 0, size_bytes: 1000000},
                                                {src: 3, dst: 0, size_bytes: 1000000}, {src: 4, dst: 0, size_bytes: 1000000}]}
                """;
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.pfcPauses()).isPositive();
        assertThat(r.packetsDropped()).isZero();
    }
}

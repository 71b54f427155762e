package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A switch whose ECN threshold no egress queue can reach is named in the run's warnings, for the ECN-driven congestion controls. */
class EcnThresholdWarningTest {
    private static final String INCAST = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
            transport: {cc: dctcp, pfc: false, loss_recovery: trim}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 200000}, {src: 2, dst: 0, size_bytes: 200000},
                                            {src: 5, dst: 0, size_bytes: 200000}]}
            """;

    @Test
    void aPortBufferBelowKminIsWarnedAndNoPacketIsMarked() {
        var r = Scenarios.run(INCAST, "topology.port_buffer_bytes=65536", "switch.ecn_profile=dctcp-hpcc");
        assertThat(r.warnings()).anyMatch(w -> w.contains("ECN Kmin 300000 B") && w.contains("port_buffer_bytes 65536 B")
                && w.contains("never marked"));
        assertThat(r.ecnMarked()).isZero();   // what the warning says: no queue reached Kmin
    }

    @Test
    void reachableThresholdsAndCongestionControlsWithoutEcnAreNotWarned() {
        assertThat(Scenarios.run(INCAST, "topology.port_buffer_bytes=1000000").warnings()).noneMatch(w -> w.contains("ECN Kmin"));
        assertThat(Scenarios.run(INCAST).warnings()).noneMatch(w -> w.contains("ECN Kmin"));
        assertThat(Scenarios.run(INCAST, "topology.port_buffer_bytes=65536", "transport.cc=swift").warnings())
                .noneMatch(w -> w.contains("ECN Kmin"));
    }
}

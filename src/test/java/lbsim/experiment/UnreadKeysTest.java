package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys the chosen cc, loss recovery, switch mode or collective op does not read are warned about, never silent. */
class UnreadKeysTest {
    static final String BASE = """
            topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 10000}]}
            """;

    static List<String> warnings(String yaml, String... overrides) {
        return Scenarios.parse(yaml, overrides).warnings();
    }

    @Test
    void theAuditScenarioWarnsForEveryKeyItsSettingsDoNotRead() {
        String yaml = """
                name: ignored
                topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}
                transport: {cc: dcqcn, loss_recovery: go-back-n, pfc: false, dctcp_g: 0.5, rate_coefficient: 0.3, dupack_threshold: 7, erasure_overhead: 0.3}
                nic: {reorder_window_packets: 5}
                switch: {pfc_headroom_bytes: 5000, pfc_alpha: 2.0}
                workload: {kind: collective, op: all-gather, algorithm: ring, size_bytes: 1000, root: 3, reduce_gbps: 5, job_hosts: shared}
                """;
        var r = Scenarios.run(yaml);
        assertThat(r.warnings()).contains(
                "transport.dctcp_g is not read with cc: dcqcn (read with cc: dctcp)",
                "transport.rate_coefficient is not read with cc: dcqcn (read with cc: fixed-rate)",
                "transport.dupack_threshold is not read with loss_recovery: go-back-n (read with loss_recovery: tcp)",
                "transport.erasure_overhead is not read with loss_recovery: go-back-n (read with loss_recovery: erasure)",
                "nic.reorder_window_packets is not read with reorder: in-order (read with reorder: window)",
                "switch.pfc_headroom_bytes is not read with transport.pfc: false (read with transport.pfc: true)",
                "switch.pfc_alpha is not read with transport.pfc: false (read with transport.pfc: true)",
                "workload.root is not read with op: all-gather (read with op: broadcast | reduce)",
                "workload.job_hosts is not read with jobs: 1 (read with jobs > 1)");
        assertThat(r.warnings()).anyMatch(w -> w.startsWith("workload.reduce_gbps is not read with op: all-gather and algorithm: ring"));
        // one warning per key
        assertThat(r.warnings().stream().filter(w -> w.contains(" is not read ")).count()).isEqualTo(10);
    }

    @Test
    void onlyKeysTheUserGaveWarnAlsoWhenSetToTheirDefault() {
        assertThat(warnings(BASE, "transport.cc=dcqcn", "transport.loss_recovery=irn", "transport.pfc=false")).isEmpty();
        assertThat(warnings(BASE + "transport: {cc: dcqcn, dctcp_g: 0.0625}\n"))
                .containsExactly("transport.dctcp_g is not read with cc: dcqcn (read with cc: dctcp)");
        // --set is the user's too
        assertThat(warnings(BASE, "transport.cc=swift", "transport.rate_coefficient=1.0"))
                .containsExactly("transport.rate_coefficient is not read with cc: swift (read with cc: fixed-rate)");
    }

    @Test
    void keysTheSettingsReadDoNotWarn() {
        assertThat(warnings(BASE + """
                transport: {cc: dctcp, dctcp_g: 0.1, dctcp_alpha0: 0.5, init_cwnd_bytes: 9000, loss_recovery: irn,
                            irn_rto_low_us: 50, irn_rto_high_us: 400, irn_nack: beyond-window, pfc: false}
                switch: {alpha: 2}
                nic: {reorder_window_packets: 8}
                """)).isEmpty();
        assertThat(warnings(BASE + "transport: {cc: swift, init_cwnd_bytes: 9000, swift_base_target_us: 5, loss_recovery: tcp, dupack_threshold: 4}\n"
                + "switch: {pfc_alpha: 2, pfc_headroom_bytes: 50000, pfc_resume_offset_bytes: 9000}\n")).isEmpty();
        assertThat(warnings(BASE + "transport: {cc: fixed-rate, rate_coefficient: 0.5, loss_recovery: erasure, erasure_overhead: 0.1, timeout_us: 300}\n"))
                .isEmpty();
        String coll = "topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}\nworkload: {kind: collective, size_bytes: 100000, ";
        assertThat(warnings(coll + "op: broadcast, root: 1, channels: 2, chunk_bytes: 4096}\n")).isEmpty();
        assertThat(warnings(coll + "op: all-reduce, reduce_gbps: 100, jobs: 2, job_hosts: shared, qps_per_connection: 2, split_data_on_qps: true}\n")).isEmpty();
    }

    @Test
    void nsccKeysAreReadOnlyWithCcUec() {
        assertThat(warnings(BASE + "transport: {cc: uec, init_cwnd_bytes: 9000, uec_target_qdelay_us: 5, loss_recovery: trim, pfc: false}\n"))
                .isEmpty();
        assertThat(warnings(BASE + "transport: {cc: dctcp, uec_target_qdelay_us: 5}\n"))
                .containsExactly("transport.uec_target_qdelay_us is not read with cc: dctcp (read with cc: uec)");
        assertThat(warnings(BASE + "transport: {cc: uec, uec_nscc: c009cb77, loss_recovery: trim, pfc: false}\n")).isEmpty();
        assertThat(warnings(BASE + "transport: {cc: dctcp, uec_nscc: c009cb77}\n"))
                .containsExactly("transport.uec_nscc is not read with cc: dctcp (read with cc: uec)");
        assertThat(warnings(BASE + "transport: {cc: uec, dctcp_g: 0.1}\n"))
                .containsExactly("transport.dctcp_g is not read with cc: uec (read with cc: dctcp)");
    }

    @Test
    void switchAndCollectiveKeysTheModeDoesNotRead() {
        assertThat(warnings(BASE + "switch: {alpha: 2}\n"))
                .containsExactly("switch.alpha is not read with transport.pfc: true (read with transport.pfc: false)");
        assertThat(warnings(BASE + "switch: {alpha: 2, pfc_alpha: 2}\n", "topology.port_buffer_bytes=100000", "transport.pfc=false"))
                .containsExactly("switch.pfc_alpha is not read with transport.pfc: false (read with transport.pfc: true)",
                        "switch.alpha is not read with topology.port_buffer_bytes: 100000 (a static per-port buffer; read with the shared buffer, port_buffer_bytes: 0)");
        String coll = "topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}\nworkload: {kind: collective, size_bytes: 100000, ";
        assertThat(warnings(coll + "snapshot: true, chunk_bytes: 4096, channels: 2, reduce_gbps: 10}\n")).containsExactly(
                "workload.channels is not read with snapshot: true (read with snapshot: false)",
                "workload.chunk_bytes is not read with snapshot: true (read with snapshot: false)",
                "workload.reduce_gbps is not read with snapshot: true (read with snapshot: false)");
        assertThat(warnings(coll + "split_data_on_qps: false}\n"))
                .containsExactly("workload.split_data_on_qps is not read with qps_per_connection: 0 (read with qps_per_connection > 0)");
        assertThat(warnings(BASE + "transport: {loss_recovery: irn, timeout_us: 500, irn_rto_high_us: 400}\n"))
                .singleElement().asString().startsWith("transport.timeout_us is not read with loss_recovery: irn when irn_rto_high_us is set");
        assertThat(warnings(BASE + "transport: {loss_recovery: irn, timeout_us: 500}\n")).isEmpty(); // timeout_us is then RTO_high
        // the QP timer is timeout_us when given; the NIC's local ACK timeout only gives its default
        assertThat(warnings(BASE + "transport: {timeout_us: 500}\nnic: {local_ack_timeout: 14}\n")).singleElement().asString()
                .startsWith("nic.local_ack_timeout is not read when transport.timeout_us is set");
        assertThat(warnings(BASE + "nic: {local_ack_timeout: 14}\n")).isEmpty();
        // the adaptive-routing bands only for schemes whose switches pick the least-loaded port
        assertThat(warnings(BASE + "switch: {ar_levels: 4}\n")).containsExactly("switch.ar_levels is not read with "
                + "load_balancer.scheme: ecmp (read with load_balancer.scheme: spray-adaptive | drill | ecmp-ar | flowlet-switch)");
        for (String s : List.of("spray-adaptive", "drill", "ecmp-ar", "flowlet-switch")) {
            assertThat(warnings(BASE + "switch: {ar_levels: 0}\n", "load_balancer.scheme=" + s)).as(s).isEmpty();
        }
    }

    @Test
    void theResolvedScenarioWarnsExactlyAsItsOriginal() {
        for (String yaml : List.of(BASE, BASE + "transport: {cc: dcqcn, dctcp_g: 0.5, loss_recovery: irn}\n",
                BASE + "transport: {loss_recovery: irn, timeout_us: 500}\n", BASE + "transport: {pfc: false}\n",
                "topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}\nworkload: {kind: collective, op: broadcast, snapshot: true}\n")) {
            Scenario first = Scenarios.parse(yaml);
            Scenario again = Scenarios.parse(ScenarioLoader.toYaml(first.resolved()));
            assertThat(again.warnings()).as(yaml).isEqualTo(first.warnings());
            assertThat(again.transport()).as(yaml).isEqualTo(first.transport());
            assertThat(ScenarioLoader.toYaml(again.resolved())).isEqualTo(ScenarioLoader.toYaml(first.resolved()));
        }
        // defaults the settings do not read are left out of the resolved scenario; a given one is kept (and warned about)
        String resolved = ScenarioLoader.toYaml(Scenarios.parse(BASE + "transport: {cc: dcqcn, dctcp_g: 0.5}\n").resolved());
        assertThat(resolved).contains("dctcp_g: 0.5").doesNotContain("dctcp_alpha0").doesNotContain("reorder_window_packets")
                .doesNotContain("  alpha:").contains("pfc_alpha");
    }

    @Test
    void aSweepReportsEachWarningOnceWithTheGridPointsThatHaveIt() {
        SweepSpec spec = SweepSpec.parse("s.yaml", """
                base:
                  topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}
                  transport: {dctcp_g: 0.1}
                  workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 10000}]}
                grid:
                  transport.cc: [dctcp, dcqcn, swift]
                seeds: 3
                """, null, List.of());
        assertThat(spec.validate()).containsExactly(
                "transport.dctcp_g is not read with cc: dcqcn (read with cc: dctcp) (at 1 of 3 grid points)",
                "transport.dctcp_g is not read with cc: swift (read with cc: dctcp) (at 1 of 3 grid points)");
    }
}

package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lbsim.lb.Schemes;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * A collective's qps_per_connection is never ignored silently: every scheme either splits each
 * flow over that many QPs or refuses the key (exit 2), as a load_balancer key it does not read.
 * The audit found ethereal (1 or 3 QPs) and mprdma (2) running with qps_per_connection: 4.
 */
class QpsPerConnectionTest {
    private static final String YAML = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1}
            workload: {kind: collective, op: send-recv, algorithm: direct, ranks: 2, size_bytes: 40000, qps_per_connection: 4}
            """;

    @Test
    void everySchemeHonoursTheQpCountOrRefusesIt() {
        for (String scheme : Schemes.available()) {
            if (Schemes.ownQpCount(scheme) != null) {
                assertThatThrownBy(() -> Scenarios.parse(YAML, "load_balancer.scheme=" + scheme)).as(scheme)
                        .isInstanceOf(BadInputException.class)
                        .hasMessageContaining("test.yaml: workload.qps_per_connection: scheme " + scheme + " decides its own QPs")
                        .hasMessageContaining("split_data_on_qps: false");
                continue;
            }
            RunResult r = Scenarios.run(YAML, "load_balancer.scheme=" + scheme);
            Scenarios.assertConserved(r);
            assertThat(r.flows()).as(scheme).allSatisfy(f -> assertThat(f.qps()).isEqualTo(4));
        }
    }
}

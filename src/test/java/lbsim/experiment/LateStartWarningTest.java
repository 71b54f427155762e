package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * A flow whose start_ns is at or after max_time_ms can never start: the run says so, instead of
 * leaving the user with "1 flows undelivered" and a flows.csv row whose start_ns -1 the README
 * explains as unmet dependencies.
 */
class LateStartWarningTest {
    static final String YAML = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            max_time_ms: 1
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 10000},
                                            {src: 1, dst: 3, size_bytes: 10000, start_ns: 2000000}]}
            """;

    @Test
    void aFlowStartingAfterMaxTimeIsNamed() {
        RunResult r = Scenarios.run(YAML);
        assertThat(r.completed()).isFalse();
        assertThat(r.flows().get(0).fctNs()).isPositive();
        assertThat(r.warnings()).anyMatch(w -> w.startsWith("1 flows start at or after max_time_ms")
                && w.contains("flow 1 at 2.0 ms"));
    }

    @Test
    void flowsStartingInTimeGiveNoSuchWarning() {
        RunResult r = Scenarios.run(YAML, "workload.flows.1.start_ns=500000");
        assertThat(r.completed()).isTrue();
        assertThat(r.warnings()).noneMatch(w -> w.contains("at or after max_time_ms"));
    }
}

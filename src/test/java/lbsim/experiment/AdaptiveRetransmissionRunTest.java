package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nic.adaptive_retransmission} (NVIDIA ConnectX ADP) in whole runs: determinism, effect and reporting. */
class AdaptiveRetransmissionRunTest {
    @TempDir
    Path tmp;

    /** A RoCE NIC (in-order receiver, go-back-n, 4.3 s local ACK timeout) on links that lose bursts of packets. */
    static final String FLAKY = """
            name: adp-flaky
            max_time_ms: 10000
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            transport: {pfc: false}
            workload: {kind: permutation, size_bytes: 200000, concurrent: 1}
            failures: [{at_us: 0, link: "leaf*-spine0", kind: flaky, mean_gap_us: 20, mean_burst_us: 5}]
            """;

    static RunResult run(long seed, String... overrides) {
        return Runner.run(ScenarioLoader.parse("adp.yaml", FLAKY, null, List.of(overrides), seed), Runner.Progress.NONE);
    }

    @Test
    void theSameSeedWritesIdenticalFilesAndAnotherSeedDrawsOtherTimeouts() throws Exception {
        Path a = tmp.resolve("a"), b = tmp.resolve("b"), c = tmp.resolve("c");
        ResultWriter.write(run(5, "nic.adaptive_retransmission=true"), a);
        ResultWriter.write(run(5, "nic.adaptive_retransmission=true"), b);
        for (String f : List.of("flows.csv", "links.csv", "throughput.csv")) {
            assertThat(Files.readString(b.resolve(f))).as(f).isEqualTo(Files.readString(a.resolve(f)));
        }
        RunResult r = run(5, "nic.adaptive_retransmission=true");
        assertThat(r.timeouts()).as("the flaky links made it non-trivial").isPositive();
        // the QPs' first timeouts are drawn from the seed: another seed times the same losses otherwise
        ResultWriter.write(run(6, "nic.adaptive_retransmission=true"), c);
        assertThat(Files.readString(c.resolve("flows.csv"))).isNotEqualTo(Files.readString(a.resolve("flows.csv")));
    }

    /** A tail loss waits for the 4.3 s local ACK timeout without ADP, for at most a few doublings of 16-128 us with it. */
    @Test
    void onRoceAdaptiveRetransmissionRecoversTailLossesWithinMicrosecondsNotSeconds() {
        RunResult fixed = run(5);
        RunResult adaptive = run(5, "nic.adaptive_retransmission=true");
        Scenarios.assertConserved(adaptive);
        assertThat(adaptive.completed()).isTrue();
        assertThat(fixed.timeouts()).as("a loss only the timer repairs").isPositive();
        assertThat(fixed.simTimeNs()).isGreaterThan(4e9);
        assertThat(adaptive.simTimeNs()).isLessThan(1e7);
    }

    @Test
    void theSummaryAndResolvedScenarioNameAdaptiveRetransmissionOnlyWhenItIsOn() {
        RunResult on = run(5, "nic.adaptive_retransmission=true", "nic.adp_first_timeout_max_us=64", "nic.adp_decrement=halve");
        String json = ResultWriter.summaryJson(on);
        assertThat(json).contains("\"adaptive_retransmission\"", "\"first_timeout_min_us\" : 16", "\"first_timeout_max_us\" : 64",
                "\"retries_per_timeout\" : 1", "\"decrement\" : \"halve\"");
        assertThat(on.nic().get("description").toString()).contains("adaptive retransmission (first timeout 16-64 us");
        Scenario sOn = ScenarioLoader.parse("adp.yaml", FLAKY, null, List.of("nic.adaptive_retransmission=true"), 5L);
        assertThat(ScenarioLoader.toYaml(sOn.resolved())).contains("adaptive_retransmission: true", "adp_first_timeout_min_us: 16",
                "adp_first_timeout_max_us: 128", "adp_retries_per_timeout: 1", "adp_decrement: \"reset\"");

        String off = ResultWriter.summaryJson(run(5));
        assertThat(off).doesNotContain("adaptive_retransmission");
        Scenario sOff = ScenarioLoader.parse("adp.yaml", FLAKY, null, List.of(), 5L);
        assertThat(ScenarioLoader.toYaml(sOff.resolved())).doesNotContain("adaptive", "adp_");
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

class DeterminismTest {
    static final String YAML = """
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4}
            transport: {cc: dctcp, pfc: false, timeout_us: 200}
            switch: {}
            workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
            failures: [{at_us: 0, link: "leaf*-spine0", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]
            """;

    static RunResult run(long seed) {
        return Runner.run(ScenarioLoader.parse("det.yaml", YAML, null, List.of(), seed), Runner.Progress.NONE);
    }

    static String withoutWall(RunResult r) {
        return ResultWriter.summaryJson(r).lines().filter(l -> !l.contains("\"wall_ms\"")).collect(Collectors.joining("\n"));
    }

    @Test
    void sameScenarioAndSeedGiveIdenticalSummaries() {
        RunResult a = run(7), b = run(7);
        assertThat(ResultWriter.summaryJson(a)).contains("\"wall_ms\"");
        assertThat(withoutWall(a)).isEqualTo(withoutWall(b));
        assertThat(a.flows()).isEqualTo(b.flows());
        assertThat(a.links()).isEqualTo(b.links());
        assertThat(a.packetsDropped()).as("the flaky links made it non-trivial").isPositive();
    }

    /** The adaptive-routing schemes draw their tie-breaks from per-switch named streams of the run seed. */
    @Test
    void adaptiveRoutingOnLoadBandsIsDeterministic() {
        for (String s : List.of("spray-adaptive", "drill", "ecmp-ar", "flowlet-switch")) {
            List<String> o = List.of("load_balancer.scheme=" + s);
            RunResult a = Runner.run(ScenarioLoader.parse("det.yaml", YAML, null, o, 7L), Runner.Progress.NONE);
            RunResult b = Runner.run(ScenarioLoader.parse("det.yaml", YAML, null, o, 7L), Runner.Progress.NONE);
            assertThat(withoutWall(a)).as(s).isEqualTo(withoutWall(b));
            assertThat(a.flows()).as(s).isEqualTo(b.flows());
            assertThat(a.links()).as(s).isEqualTo(b.links());
        }
    }

    @Test
    void aDifferentSeedChangesThePermutation() {
        RunResult a = run(7), c = run(8);
        assertThat(pairs(a)).isNotEqualTo(pairs(c));
        assertThat(withoutWall(a).replace("\"seed\" : 7", "")).isNotEqualTo(withoutWall(c).replace("\"seed\" : 8", ""));
    }

    private static List<String> pairs(RunResult r) {
        return r.flows().stream().map((FlowRecord f) -> f.src() + ">" + f.dst()).toList();
    }
}

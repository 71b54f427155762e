package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Every scheme runs on fabrics only a topology file describes: the rail-optimised example (8 NICs per
 * server, each on its own rail switch) and a 3-tier Clos with unequal pods and an oversubscribed pod.
 */
class SchemesOnFileFabricsTest {
    private static RunResult run(String scenario, String scheme) {
        return Runner.run(ScenarioLoader.load(Path.of(scenario), List.of("load_balancer.scheme=" + scheme,
                "workload.size_bytes=256KiB"), null), Runner.Progress.NONE);
    }

    @Test
    void everySchemeCompletesAndConservesOnUnequalPodsWithAMissingLink() {
        String yaml = """
                topology: {kind: file, file: src/test/resources/fabrics/unequal-pods.yaml}
                transport: {cc: dctcp, pfc: true}
                nic: {profile: multipath}
                workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
                """;
        // multipath NICs: an in-order go-back-N receiver under heavy spraying reordering can stall on its 4.3 s RoCE timer on
        // any asymmetric fabric (a generated fat-tree with slow core links too), which is not what this test is about
        for (String s : Schemes.available()) {
            RunResult r = Runner.run(ScenarioLoader.parse("unequal.yaml", yaml, null, List.of("load_balancer.scheme=" + s), null),
                    Runner.Progress.NONE);
            assertThat(r.completed()).as(s + " " + r.warnings()).isTrue();
            assertThat(r.packetsSent()).as(s).isEqualTo(r.packetsDelivered() + r.packetsDropped());
        }
    }

    @Test
    void everySchemeCompletesAndConservesOnTheRailOptimisedExample() {
        for (String s : Schemes.available()) {
            RunResult r = run("examples/rail-optimised-file.yaml", s);
            assertThat(r.completed()).as(s + " " + r.warnings()).isTrue();
            assertThat(r.packetsSent()).as(s).isEqualTo(r.packetsDelivered() + r.packetsDropped());
            assertThat(r.flows()).as(s).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
        }
    }
}

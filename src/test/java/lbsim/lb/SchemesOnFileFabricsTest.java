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

    /** Rails without spines (rail-only): 4 pieces; traffic inside each rail, two senders into one receiver per rail. */
    @Test
    void everySchemeCompletesAndConservesOnARailOnlyFabricInPieces(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        java.nio.file.Files.writeString(tmp.resolve("rail-only.yaml"), """
                link_gbps: 400
                link_latency_ns: 500
                hosts: ["s[0-3]n[0-3]"]
                switches: ["rail[0-3]"]
                links:
                  - {a: "s[0-3]n0", b: rail0}
                  - {a: "s[0-3]n1", b: rail1}
                  - {a: "s[0-3]n2", b: rail2}
                  - {a: "s[0-3]n3", b: rail3}
                """);
        StringBuilder flows = new StringBuilder();
        for (int rail = 0; rail < 4; rail++) {
            // hosts s0..s3 of NIC `rail` are 0*4+rail, 1*4+rail, ...: s1 and s2 send to s0
            flows.append(flows.length() == 0 ? "" : ", ").append("{src: ").append(4 + rail).append(", dst: ").append(rail)
                    .append(", size_bytes: 200000}, {src: ").append(8 + rail).append(", dst: ").append(rail).append(", size_bytes: 200000}");
        }
        String yaml = "topology: {kind: file, file: rail-only.yaml}\nworkload: {kind: flows, flows: [" + flows + "]}\n";
        for (String s : Schemes.available()) {
            RunResult r = Runner.run(ScenarioLoader.parse(tmp.resolve("s.yaml").toString(), yaml, tmp, List.of("load_balancer.scheme=" + s),
                    null), Runner.Progress.NONE);
            assertThat(r.completed()).as(s + " " + r.warnings()).isTrue();
            assertThat(r.packetsSent()).as(s).isEqualTo(r.packetsDelivered() + r.packetsDropped());
            assertThat(r.flows()).as(s).hasSize(8);
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

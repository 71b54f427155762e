package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fabrics no generator makes, drawn at random (ToR-to-ToR links, hosts on upper switches, uneven
 * meshes): every scheme either runs to completion with packets conserved or is refused as bad input
 * with a message; none fails inside.
 */
class RandomFabricSchemesTest {
    @TempDir
    Path tmp;

    @Test
    void everySchemeRunsOrRefusesOnRandomFabrics() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int f = 0; f < 6; f++) {
            String fabric = randomFabric(rnd);
            Path file = tmp.resolve("f" + f + ".yaml");
            Files.writeString(file, fabric);
            String yaml = "topology: {kind: file, file: " + file + "}\nnic: {profile: multipath}\n"
                    + "workload: {kind: permutation, size_bytes: 60000, concurrent: 2}\n";
            for (String s : Schemes.available()) {
                RunResult r;
                try {
                    r = Runner.run(ScenarioLoader.parse("r.yaml", yaml, null, List.of("load_balancer.scheme=" + s), null), Runner.Progress.NONE);
                } catch (BadInputException e) {
                    assertThat(e.getMessage()).as(s + " on\n" + fabric).contains("r.yaml");
                    continue;
                } catch (RuntimeException e) {
                    throw new AssertionError(s + " on\n" + fabric, e);
                }
                assertThat(r.completed()).as(s + " " + r.warnings() + " on\n" + fabric).isTrue();
                assertThat(r.packetsSent()).as(s).isEqualTo(r.packetsDelivered() + r.packetsDropped());
            }
        }
    }

    /** ToRs with 1-3 hosts, 0-3 upper switches, random links among all switches, connected by a chain of ToRs. */
    static String randomFabric(SplittableRandom rnd) {
        int tors = rnd.nextInt(2, 6), uppers = rnd.nextInt(0, 4);
        List<String> hosts = new ArrayList<>(), links = new ArrayList<>();
        for (int t = 0; t < tors; t++) {
            int n = rnd.nextInt(1, 4);
            for (int h = 0; h < n; h++) {
                hosts.add("t" + t + "h" + h);
                links.add("{a: t" + t + "h" + h + ", b: t" + t + "}");
            }
        }
        List<String> sw = new ArrayList<>();
        for (int t = 0; t < tors; t++) sw.add("t" + t);
        for (int u = 0; u < uppers; u++) sw.add("u" + u);
        for (int t = 1; t < tors; t++) {
            if (uppers == 0 || rnd.nextInt(3) == 0) links.add("{a: t" + (t - 1) + ", b: t" + t + "}");
        }
        for (int i = 0; i < sw.size(); i++) {
            for (int j = i + 1; j < sw.size(); j++) {
                if (j >= tors && rnd.nextInt(2) == 0) {
                    links.add("{a: " + sw.get(i) + ", b: " + sw.get(j) + (rnd.nextInt(4) == 0 ? ", count: 2" : "")
                            + (rnd.nextInt(4) == 0 ? ", gbps: 40" : "") + "}");
                }
            }
        }
        // every upper switch linked, every ToR reachable: chain each ToR to u0 when there are upper switches
        if (uppers > 0) for (int t = 0; t < tors; t++) links.add("{a: t" + t + ", b: u0, latency_ns: 1500}");
        for (int u = 1; u < uppers; u++) links.add("{a: u" + u + ", b: u" + (u - 1) + "}");
        return "hosts: [" + String.join(", ", hosts) + "]\nswitches: [" + String.join(", ", sw) + "]\nlinks:\n  - "
                + String.join("\n  - ", links) + "\n";
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Speed work must not change results: each case's summary.json (minus the wall-clock, per-second
 * and CPU fields) and SHA-256 of flows.csv, links.csv and throughput.csv must equal what was
 * captured before the optimisation, in src/test/resources/golden/. By default a fast subset runs;
 * {@code -Dgolden.all=true} runs every captured case (the examples/ scenarios and the default
 * compare scenario under every scheme, a few minutes). {@code -Dgolden.update=true} rewrites the
 * files: only do that for an intended change of results, never to make a speed change pass.
 */
class GoldenSummaryTest {
    static final Path DIR = Path.of("src/test/resources/golden");
    static final String TINY = """
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4}
            transport: {cc: dctcp, pfc: false, timeout_us: 200}
            switch: {}
            workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
            failures: [{at_us: 0, link: "leaf*-spine0", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]
            """;
    static final String TINY_PFC = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {cc: dctcp, pfc: true}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 524288}
            """;
    static final List<String> SCHEMES = List.of("ecmp", "spray-host", "spray-switch", "spray-adaptive", "drill", "reps",
            "subflows", "mprdma", "ethereal", "conweave");
    /**
     * The schemes whose switches compare adaptive-routing loads: with {@code switch.ar_levels: 0} (exact egress
     * bytes) each must give exactly the results captured before the load bands existed (the "-ar-levels-0" goldens).
     */
    static final List<String> AR_SCHEMES = List.of("spray-adaptive", "drill", "ecmp-ar", "flowlet-switch");

    /** A case: its golden file name, and how to build the scenario. */
    record Case(String name, boolean fast, java.util.function.Supplier<Scenario> scenario) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (String s : SCHEMES) {
            if (!lbsim.lb.Schemes.isAvailable(s)) continue;
            out.add(new Case("tiny-flaky-" + s, true,
                    () -> ScenarioLoader.parse("tiny.yaml", TINY, null, List.of("load_balancer.scheme=" + s), 7L)));
            out.add(new Case("tiny-pfc-" + s, true,
                    () -> ScenarioLoader.parse("tiny-pfc.yaml", TINY_PFC, null, List.of("load_balancer.scheme=" + s), 3L)));
        }
        for (String s : AR_SCHEMES) {
            List<String> exact = List.of("load_balancer.scheme=" + s, "switch.ar_levels=0");
            out.add(new Case("tiny-flaky-" + s + "-ar-levels-0", true, () -> ScenarioLoader.parse("tiny.yaml", TINY, null, exact, 7L)));
            out.add(new Case("tiny-pfc-" + s + "-ar-levels-0", true,
                    () -> ScenarioLoader.parse("tiny-pfc.yaml", TINY_PFC, null, exact, 3L)));
            out.add(new Case("default-compare-" + s + "-ar-levels-0", false,
                    () -> ScenarioLoader.loadResource("default-compare.yaml", exact, null)));
        }
        List<String> fastExamples = List.of("all-reduce-ring", "all-to-all-direct", "reduce-scatter-halving-doubling", "permutation-leafspine");
        try (Stream<Path> files = Stream.concat(Files.list(Path.of("examples")), Files.list(Path.of("examples/collectives")))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                String n = f.getFileName().toString().replace(".yaml", "");
                out.add(new Case("example-" + n, fastExamples.contains(n), () -> ScenarioLoader.load(f, List.of(), null)));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String s : SCHEMES) {
            if (!lbsim.lb.Schemes.isAvailable(s)) continue;
            out.add(new Case("default-compare-" + s, false,
                    () -> ScenarioLoader.loadResource("default-compare.yaml", List.of("load_balancer.scheme=" + s), null)));
        }
        boolean all = Boolean.getBoolean("golden.all") || Boolean.getBoolean("golden.update");
        return out.stream().filter(c -> all || c.fast());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resultsMatchTheCapturedGolden(Case c, @TempDir Path tmp) throws Exception {
        RunResult r = Runner.run(c.scenario().get(), Runner.Progress.NONE);
        ResultWriter.write(r, tmp);
        String actual = fingerprint(tmp);
        Path golden = DIR.resolve(c.name() + ".txt");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(DIR);
            Files.writeString(golden, actual);
            return;
        }
        assertThat(golden).as("golden file for %s (capture with -Dgolden.update=true)", c.name()).exists();
        assertThat(actual).isEqualTo(Files.readString(golden));
    }

    /** summary.json without non-deterministic lines, then the hashes of the CSV outputs. */
    static String fingerprint(Path dir) throws Exception {
        String summary = Files.readString(dir.resolve("summary.json")).lines()
                .filter(l -> !l.contains("wall") && !l.contains("per_sec") && !l.contains("cpu"))
                .collect(Collectors.joining("\n"));
        StringBuilder sb = new StringBuilder(summary).append('\n');
        for (String f : List.of("flows.csv", "links.csv", "throughput.csv")) {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve(f)));
            sb.append(f).append(" sha256 ").append(HexFormat.of().formatHex(d)).append('\n');
        }
        return sb.toString();
    }
}

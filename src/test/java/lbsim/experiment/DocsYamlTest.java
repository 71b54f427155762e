package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every YAML block in the README and docs that is lbsim input binds as the docs say: a sweep
 * file is parsed and every grid point bound (with the repository's examples beside it, as its
 * relative base expects); a scenario or a fragment of one (e.g. just a {@code load_balancer:}
 * line) is laid over a small scenario and bound without warnings. Other YAML (CI workflows,
 * Kubernetes snippets) is recognised as not being lbsim input by its top-level keys.
 */
class DocsYamlTest {
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```yaml\\n(.*?)^```");
    private static final Set<String> SCENARIO_KEYS = Set.of("topology", "transport", "load_balancer", "workload", "failures",
            "switch", "nic");
    private static final String SMALL = """
            name: docs-check
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
            workload: {kind: permutation, size_bytes: 100000}
            """;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path tmp;

    @Test
    void everyLbsimYamlBlockInTheDocsBinds() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        copyExamples();
        int sweeps = 0, scenarios = 0;
        for (Path f : files) {
            Matcher m = BLOCK.matcher(Files.readString(f));
            int n = 0;
            while (m.find()) {
                String yaml = m.group(1);
                String where = f + " YAML block " + (++n);
                JsonNode root = ScenarioLoader.yaml().readTree(yaml);
                if (root.has("grid") || root.has("base")) {
                    Path sweep = tmp.resolve("docs").resolve("sweep-" + sweeps + ".yaml");
                    Files.writeString(sweep, yaml);
                    try {
                        SweepSpec spec = SweepSpec.load(sweep, List.of());
                        assertThat(spec.points()).as(where).isPositive();
                        spec.validate();
                    } catch (BadInputException e) {
                        throw new AssertionError(where + ": " + e.getMessage(), e);
                    }
                    sweeps++;
                } else if (root.propertyNames().stream().anyMatch(SCENARIO_KEYS::contains)) {
                    List<String> overlay = new ArrayList<>();
                    for (String k : root.propertyNames()) overlay.add(k + "=" + JSON.writeValueAsString(root.get(k)));
                    Scenario sc = ScenarioLoader.parse(where, SMALL, null, overlay, null);
                    assertThat(sc.warnings()).as(where).isEmpty();
                    scenarios++;
                }
            }
        }
        // the docs hold at least the README scenario, the sweep file and the scheme/workload fragments
        assertThat(sweeps).isGreaterThanOrEqualTo(1);
        assertThat(scenarios).isGreaterThanOrEqualTo(5);
    }

    /** The sweep example names its base as ../examples/..., relative to a file in docs/. */
    private void copyExamples() throws IOException {
        Files.createDirectories(tmp.resolve("docs"));
        Path dst = tmp.resolve("examples");
        Files.createDirectories(dst);
        try (Stream<Path> ex = Files.list(Path.of("examples"))) {
            for (Path p : (Iterable<Path>) ex.filter(Files::isRegularFile)::iterator) Files.copy(p, dst.resolve(p.getFileName()));
        }
    }
}

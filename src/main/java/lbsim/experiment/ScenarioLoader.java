package lbsim.experiment;

import lbsim.BadInputException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.lb.Schemes;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/** Reads a scenario (file or bundled resource), applies overrides, binds every section. */
public final class ScenarioLoader {
    /** Strict duplicate detection: YAML would otherwise let the last of two equal keys win silently. */
    private static final YAMLMapper YAML = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private ScenarioLoader() {}

    public static YAMLMapper yaml() {
        return YAML;
    }

    public static Scenario load(Path file, List<String> overrides, Long seed) {
        String text = YamlInput.read(file, "scenario file");
        Path dir = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, dir, overrides, seed);
    }

    /** A scenario bundled in the jar under /scenarios/. */
    public static Scenario loadResource(String name, List<String> overrides, Long seed) {
        try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/" + name)) {
            if (in == null) throw new BadInputException("no bundled scenario named " + name);
            return parse("(built-in " + name + ")", new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8),
                    null, overrides, seed);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Scenario parse(String file, String text, Path baseDir, List<String> overrides, Long seed) {
        JsonNode root = readYaml(file, text);
        if (root == null || !root.isObject()) throw new BadInputException(file + ": expected a YAML mapping at the top level");
        ObjectNode tree = (ObjectNode) root;
        for (String o : overrides) applyOverride(file, tree, o);
        if (seed != null) tree.put("seed", seed);
        return bind(file, tree, baseDir);
    }

    /**
     * A scenario or sweep file's YAML tree. Aliases are refused: the YAML reader hands an alias
     * over as its name ({@code name: *x} would name the run "x"), so a file using one would be
     * read silently wrong. An anchor alone ({@code &x}) changes nothing and is accepted.
     */
    public static JsonNode readYaml(String file, String text) {
        YamlInput.checkSize(file, text);
        try (JsonParser p = YAML.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (p instanceof YAMLParser y && y.isCurrentAlias()) {
                    throw new BadInputException(file + ": line " + p.currentTokenLocation().getLineNr() + ": YAML aliases (*"
                            + p.getString() + ") are not supported; write the value out in full");
                }
            }
            return YAML.readTree(text);
        } catch (JacksonException e) {
            throw badYaml(file, e);
        }
    }

    /** A YAML file that does not parse: its line, and for a key given twice the key as scenario errors name it. */
    public static BadInputException badYaml(String file, JacksonException e) {
        String line = e.getLocation() != null && e.getLocation().getLineNr() > 0 ? "line " + e.getLocation().getLineNr() + ": " : "";
        String dup = duplicateKey(e);
        if (String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
            return new BadInputException(file + ": " + line + "a second YAML document ('---'): a file holds one scenario, sweep or "
                    + "topology; put the others in files of their own");
        }
        if (dup != null) return new BadInputException(file + ": " + line + dup + ": duplicate key; a key may appear only once in a mapping");
        return new BadInputException(file + ": " + line + "not valid YAML: " + e.getOriginalMessage());
    }

    /** The key a strict parse found twice (e.g. failures[1].link), or null for any other error. */
    private static String duplicateKey(JacksonException e) {
        if (!(e.processor() instanceof JsonParser p) || !String.valueOf(e.getOriginalMessage()).startsWith("Duplicate")) return null;
        return keyOf(p.streamReadContext());
    }

    private static String keyOf(TokenStreamContext c) {
        if (c == null || c.inRoot()) return "";
        String parent = keyOf(c.getParent());
        if (c.inArray()) return parent + "[" + c.getCurrentIndex() + "]";
        return parent.isEmpty() ? c.currentName() : parent + "." + c.currentName();
    }

    /**
     * {@code a.b.c=value}: the value is read as YAML, so numbers, booleans and lists keep their type.
     * A list element is addressed by its index: {@code failures.0.link=...} or {@code failures[0].link=...}.
     */
    static void applyOverride(String file, ObjectNode tree, String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) throw new BadInputException("--set " + assignment + ": expected key.path=value");
        String[] path = assignment.substring(0, eq).trim().replaceAll("\\[(\\d+)]", ".$1").split("\\.");
        String valueText = assignment.substring(eq + 1);
        JsonNode value;
        try {
            value = valueText.isEmpty() ? YAML.getNodeFactory().stringNode("") : YAML.readTree(valueText);
        } catch (JacksonException e) {
            String dup = duplicateKey(e);
            if (dup != null) {
                throw new BadInputException("--set " + assignment + ": " + assignment.substring(0, eq).trim()
                        + (dup.startsWith("[") ? "" : ".") + dup + ": duplicate key; a key may appear only once in a mapping");
            }
            value = YAML.getNodeFactory().stringNode(valueText);
        }
        JsonNode cur = tree;
        for (int i = 0; i < path.length; i++) {
            boolean last = i == path.length - 1;
            String where = String.join(".", List.of(path).subList(0, i + 1));
            if (cur instanceof ArrayNode list) {
                int index = listIndex(path[i]);
                if (index < 0 || index >= list.size()) {
                    throw new BadInputException("--set " + assignment + ": " + where + ": no element " + path[i] + " (the list has "
                            + list.size() + ") in " + file);
                }
                if (last) {
                    list.set(index, value);
                    return;
                }
                cur = list.get(index);
            } else {
                ObjectNode obj = (ObjectNode) cur;
                if (last) {
                    obj.set(path[i], value);
                    return;
                }
                JsonNode next = obj.get(path[i]);
                if ((next == null || next.isNull()) && listIndex(path[i + 1]) >= 0) {
                    // a missing mapping is created, but a list element cannot be: there is nothing to index into
                    throw new BadInputException("--set " + assignment + ": " + where + ": " + file + " has no " + where
                            + " list to index into; give the whole list instead, e.g. --set '" + where + "=[{...}]'");
                }
                if (next == null || next.isNull()) next = obj.putObject(path[i]);
                cur = next;
            }
            if (!cur.isObject() && !cur.isArray()) {
                throw new BadInputException("--set " + assignment + ": " + where + " is not a mapping or list in " + file);
            }
        }
    }

    private static int listIndex(String segment) {
        try {
            return Integer.parseInt(segment);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static Scenario bind(String file, ObjectNode tree, Path baseDir) {
        ObjectNode given = tree.deepCopy(); // the keys the user set, before the sections write their defaults in
        Section root = new Section(file, "", tree);
        String name = root.string("name", "scenario");
        checkName(root, name);
        long seed = root.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        double maxTimeMs = root.doubleValue("max_time_ms", 1000, 1e-6, 1e9);
        Section topoSection = root.section("topology");
        TopologySpec topo = TopologySpec.from(topoSection, baseDir);
        Section transportSection = root.section("transport");
        NicSpec nic = NicSpec.from(root.section("nic"), TransportSpec.givenLossRecovery(transportSection));
        TransportSpec transport = TransportSpec.from(transportSection, nic);
        SwitchSpec sw = SwitchSpec.from(root.section("switch"));
        sw.checkHoldsOnePacket(topoSection, topo, transport);
        Section lb = root.section("load_balancer");
        String scheme = lb.string("scheme", "ecmp");
        checkScheme(lb, scheme);
        var schemeFactory = Schemes.bind(scheme, lb);
        lb.finish();
        if (!root.has("workload")) throw root.error("workload", "missing (required); kinds: " + String.join(", ", WorkloadSpec.KINDS));
        Section workloadSection = root.section("workload");
        WorkloadSpec workload = WorkloadSpec.from(workloadSection, baseDir);
        checkQpCount(workloadSection, workload, scheme);
        List<FailureSpec> failures = new ArrayList<>();
        for (Section f : root.sections("failures")) failures.add(FailureSpec.from(f));
        MetricsSpec metrics = MetricsSpec.from(root.section("metrics"));
        root.finish();
        return new Scenario(file, name, seed, maxTimeMs, topo, transport, sw, scheme, schemeFactory, workload, failures, metrics,
                tree, UnreadKeys.check(given, tree));
    }

    /** The name is the default output folder (out/NAME, out/compare-NAME): one folder inside out/, not out/ itself or a path out of it. */
    static void checkName(Section root, String name) {
        if (name.isBlank() || name.equals(".") || name.equals("..") || name.chars().anyMatch(c -> c == '/' || c == '\\' || c < ' ')) {
            throw root.error("name", "'" + name + "' is not allowed; the name is the default output folder out/NAME, so allowed:"
                    + " a non-empty folder name without '/', '\\' or control characters, other than '.' and '..'");
        }
    }

    static void checkScheme(Section lb, String scheme) {
        if (!Schemes.isAvailable(scheme)) {
            throw lb.error("scheme", "'" + scheme + "' is not a scheme; allowed values: " + String.join(", ", Schemes.available()));
        }
    }

    /** A QP count per flow that the scheme would not read is refused, as a load_balancer key it does not read is. */
    static void checkQpCount(Section workloadSection, WorkloadSpec workload, String scheme) {
        String own = lbsim.lb.Schemes.ownQpCount(scheme);
        if (own != null && workload.qpsPerFlow() > 0) {
            throw workloadSection.error("qps_per_connection", "scheme " + scheme + " decides its own QPs (" + own
                    + "); qps_per_connection is not read with split_data_on_qps: true (the default). Remove it, or set"
                    + " split_data_on_qps: false to cut each transfer into one flow per QP");
        }
    }

    /** The resolved scenario as YAML text. */
    public static String toYaml(ObjectNode tree) {
        return YAML.writeValueAsString(tree);
    }

    /** Writes the scenario as resolved (defaults filled in, overrides applied) to {@code dir/scenario.resolved.yaml}: a run's folder can be re-run from it. */
    public static void writeResolved(Scenario sc, java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        java.nio.file.Files.writeString(dir.resolve("scenario.resolved.yaml"), toYaml(sc.resolved()));
    }

}

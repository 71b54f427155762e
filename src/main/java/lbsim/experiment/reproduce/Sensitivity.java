package lbsim.experiment.reproduce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.experiment.ScenarioLoader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A setting the paper does not state although its claim may depend on it: the scenario key, the values
 * across its plausible range (the preset's own default is the main run) and why that range. A reproduction
 * with {@code --sensitivity} runs the preset once per value and reports every cell's verdict at each, so a
 * reader sees under which values the claim holds; no value is chosen because it matches the paper.
 *
 * <p>{@code onlyAt}, when set, is a label of the grid key that {@code key} starts with (for example
 * {@code flowbender} of {@code load_balancer} for {@code load_balancer.signal}): the value then changes only
 * that grid value (one scheme's parameter), not every run, so a key other grid values do not read can be explored.
 */
public record Sensitivity(String key, List<String> values, String why, String onlyAt) {
    public Sensitivity {
        if (values.isEmpty()) throw new IllegalArgumentException(key + ": a sensitivity needs values");
        if (onlyAt != null && key.indexOf('.') < 1) throw new IllegalArgumentException(key + ": a setting of one grid value needs "
                + "a key below the grid key (grid_key.key)");
        values = List.copyOf(values);
    }

    /** A setting of every run. */
    public Sensitivity(String key, List<String> values, String why) {
        this(key, values, why, null);
    }

    /** A setting of one grid value only: {@code key}'s first part is the grid key, {@code label} the value it changes. */
    public static Sensitivity ofGridValue(String label, String key, List<String> values, String why) {
        return new Sensitivity(key, values, why, label);
    }

    /** The setting as reports and folders name it: the key, and the grid value it changes if only one. */
    public String name() {
        return onlyAt == null ? key : key + " (" + onlyAt + ")";
    }

    /** The folder of one value's runs under {@code sensitivity/}: "switch.ecn_profile=dctcp-hpcc". */
    public static String folder(String key, String value) {
        return (key + "=" + value).replaceAll("[^A-Za-z0-9._=-]", "_");
    }

    /** The preset and {@code --set} list one value runs with. */
    public record Applied(Preset preset, List<String> overrides) {}

    /**
     * A setting of every run is one more {@code --set}; one of a grid value rewrites that grid value in each scale's
     * sweep (a missing grid key or label is a programming error: IllegalArgumentException).
     */
    public Applied apply(Preset p, String value, List<String> overrides) {
        if (onlyAt == null) {
            List<String> sets = new ArrayList<>(overrides);
            sets.add(key + "=" + value);
            return new Applied(p, sets);
        }
        String gridKey = key.substring(0, key.indexOf('.'));
        String[] path = key.substring(gridKey.length() + 1).split("\\.");
        Map<String, String> scales = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : p.scales().entrySet()) {
            ObjectNode root = (ObjectNode) ScenarioLoader.readYaml(p.id(), e.getValue());
            JsonNode at = root.path("grid").path(gridKey).path(onlyAt);
            if (!(at instanceof ObjectNode node)) {
                throw new IllegalArgumentException(p.id() + " --scale " + e.getKey() + ": no mapping grid." + gridKey + "." + onlyAt);
            }
            for (int i = 0; i < path.length - 1; i++) {
                node = node.get(path[i]) instanceof ObjectNode o ? o : node.putObject(path[i]);
            }
            node.set(path[path.length - 1], ScenarioLoader.readYaml(p.id() + " sensitivity " + name(), value));
            scales.put(e.getKey(), ScenarioLoader.toYaml(root));
        }
        return new Applied(new Preset(p.id(), p.paper(), p.figure(), p.description(), p.metric(), p.metricLabel(), scales, p.cells(),
                p.deviations(), p.charts()), overrides);
    }
}

package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/** Collective algorithms, named as in scenario files. */
public enum Algorithm {
    RING("ring"),
    DOUBLE_BINARY_TREE("double-binary-tree"),
    HALVING_DOUBLING("halving-doubling"),
    RECURSIVE_DOUBLING("recursive-doubling"),
    DIRECT("direct"),
    HIERARCHICAL("hierarchical");

    private final String scenarioName;
    Algorithm(String scenarioName) {
        this.scenarioName = scenarioName;
    }

    public String scenarioName() {
        return scenarioName;
    }

    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (Algorithm a : values()) out.add(a.scenarioName);
        return List.copyOf(out);
    }

    public static Algorithm of(String name) {
        for (Algorithm a : values()) if (a.scenarioName.equals(name)) return a;
        throw new IllegalArgumentException("unknown collective algorithm '" + name + "'; allowed: " + String.join(", ", names()));
    }
}

package lbsim.workload.chakra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Trace contents lbsim does not simulate (or only in part), counted per kind with the first place each was seen. */
final class Warnings {
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, String> first = new LinkedHashMap<>();

    void add(String what, String where) {
        counts.merge(what, 1, Integer::sum);
        first.putIfAbsent(what, where);
    }

    List<String> messages() {
        List<String> out = new ArrayList<>();
        for (var e : counts.entrySet()) {
            out.add("chakra trace: " + e.getKey() + ", on " + e.getValue() + " node" + (e.getValue() == 1 ? "" : "s")
                    + " (first: " + first.get(e.getKey()) + ")");
        }
        return out;
    }
}

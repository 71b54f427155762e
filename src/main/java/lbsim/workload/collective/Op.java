package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * Collective operations, named as in scenario files. {@code sizeBytes} follows the NCCL-tests
 * convention for "S" (reference/algorithms.md §6.5): all-reduce, broadcast, reduce and
 * send-recv: the buffer; reduce-scatter: the full input per rank; all-gather: the full output
 * per rank; all-to-all: the per-rank send buffer.
 */
public enum Op {
    ALL_REDUCE("all-reduce"),
    ALL_GATHER("all-gather"),
    REDUCE_SCATTER("reduce-scatter"),
    ALL_TO_ALL("all-to-all"),
    BROADCAST("broadcast"),
    REDUCE("reduce"),
    SEND_RECV("send-recv");

    private final String scenarioName;

    Op(String scenarioName) {
        this.scenarioName = scenarioName;
    }

    public String scenarioName() {
        return scenarioName;
    }

    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (Op o : values()) out.add(o.scenarioName);
        return List.copyOf(out);
    }

    public static Op of(String name) {
        for (Op o : values()) if (o.scenarioName.equals(name)) return o;
        throw new IllegalArgumentException("unknown collective op '" + name + "'; allowed: " + String.join(", ", names()));
    }
}

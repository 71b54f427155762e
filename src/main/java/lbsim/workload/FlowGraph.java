package lbsim.workload;

import lbsim.transport.FlowSpec;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload as a DAG of flows plus the named groups (collective instances) whose completion
 * time is reported. Built by generators; consumed by the runner, which starts each flow when
 * its dependencies are delivered.
 */
public final class FlowGraph {
    /**
     * Heap bytes budgeted per flow: its spec here and its state during a run (about 0.5 KB for the
     * spec and its dependency arrays, measured; the run's flow, QP and records on top).
     */
    static final long HEAP_BYTES_PER_FLOW = 1024;

    /** The most flows a workload may have in this JVM: a larger one is refused before it exhausts the heap. */
    public static long maxFlows() {
        return Math.min(OpenLoop.MAX_FLOWS, Runtime.getRuntime().maxMemory() / HEAP_BYTES_PER_FLOW);
    }

    /** A workload with more flows than {@link #maxFlows()}: bad input (exit 2), not an out-of-memory crash. */
    public static final class TooManyFlows extends IllegalArgumentException {
        TooManyFlows(long max) {
            super("more than " + max + " flows (the limit for this JVM's " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB heap, about " + HEAP_BYTES_PER_FLOW + " B per flow): fewer pieces (larger chunk_bytes), fewer ranks or"
                    + " jobs, or a larger heap (LBSIM_JAVA_OPTS=-Xmx...)");
        }
    }

    private final long maxFlows = maxFlows();
    private final List<FlowSpec> flows = new ArrayList<>();
    private final List<String> groups = new ArrayList<>();
    private final List<GroupTiming> timings = new ArrayList<>();
    // collective steps (steps.csv): per flow its sender's rank and its step's ordinal in its group (-1: none),
    // per group its step names in order of first use; 8 bytes a flow, allocated at the first tagged flow
    private IntArrayList stepRank, stepIndex;
    private final List<Map<String, Integer>> stepIds = new ArrayList<>();
    private final List<List<String>> stepNames = new ArrayList<>();

    /**
     * When a collective group is issued and what follows its last delivery, so that its completion
     * counts the time no fabric flow covers (docs/collectives.md §1). It becomes ready at
     * {@code startPs}, or {@code gapPs} after every flow in {@code after} is delivered (no later than
     * {@code startPs}); with no {@code after}, at {@code startPs + gapPs}, the rule its first flows
     * start by. It ends {@code tailPs} after its last delivery.
     */
    public record GroupTiming(long startPs, int[] after, long gapPs, long tailPs) {}

    /** Registers a collective instance (e.g. "all-reduce ring 16MB") and returns its id. */
    public int addGroup(String name) {
        groups.add(name);
        timings.add(null);
        stepIds.add(null);
        stepNames.add(null);
        return groups.size() - 1;
    }

    /** Sets a group's issue time and tail; a group without one spans its first flow's start to its last delivery. */
    public void setTiming(int group, GroupTiming timing) {
        timings.set(group, timing);
    }

    /** The group's timing, or null when it has none. */
    public GroupTiming timing(int group) {
        return timings.get(group);
    }

    /** Adds a flow; its id must equal the current flow count. */
    public FlowSpec add(FlowSpec f) {
        if (flows.size() >= maxFlows) throw new TooManyFlows(maxFlows);
        if (f.id() != flows.size()) throw new IllegalArgumentException("flow id " + f.id() + " != index " + flows.size());
        for (int[] deps : new int[][] {f.after(), f.afterAcked(), f.afterSent()}) {
            for (int d : deps) {
                if (d < 0 || d >= f.id()) throw new IllegalArgumentException("flow " + f.id() + " depends on unknown or later flow " + d);
            }
        }
        if (f.group() >= groups.size()) throw new IllegalArgumentException("flow " + f.id() + ": unknown group " + f.group());
        flows.add(f);
        return f;
    }

    /**
     * Flow {@code id} carries collective rank {@code rank}'s data in step {@code step} of its group
     * (the algorithm's name for it, e.g. "s3"): the per-rank, per-step timeline (steps.csv) groups
     * flows by these. Steps are numbered in the order their names are first tagged in the group.
     */
    public void tagStep(int id, int rank, String step) {
        FlowSpec f = flows.get(id);
        if (f.group() < 0) throw new IllegalArgumentException("flow " + id + " has no group to have steps in");
        if (rank < 0) throw new IllegalArgumentException("flow " + id + ": negative rank " + rank);
        if (stepRank == null) {
            stepRank = new IntArrayList();
            stepIndex = new IntArrayList();
        }
        while (stepRank.size() <= id) {
            stepRank.add(-1);
            stepIndex.add(-1);
        }
        Map<String, Integer> ids = stepIds.get(f.group());
        if (ids == null) {
            stepIds.set(f.group(), ids = new HashMap<>());
            stepNames.set(f.group(), new ArrayList<>());
        }
        List<String> names = stepNames.get(f.group());
        int index = ids.computeIfAbsent(step, k -> {
            names.add(k);
            return names.size() - 1;
        });
        stepRank.set(id, rank);
        stepIndex.set(id, index);
    }

    /** The collective rank whose step flow {@code id} is part of, -1 when it is no collective step. */
    public int stepRank(int id) {
        return stepRank == null || id >= stepRank.size() ? -1 : stepRank.getInt(id);
    }

    /** The ordinal, within its group, of the step flow {@code id} is part of, -1 when it is no collective step. */
    public int stepIndex(int id) {
        return stepIndex == null || id >= stepIndex.size() ? -1 : stepIndex.getInt(id);
    }

    /** The algorithm's name of step {@code index} of {@code group}. */
    public String stepName(int group, int index) {
        return stepNames.get(group).get(index);
    }

    /** Next free flow id. */
    public int nextId() {
        return flows.size();
    }

    public List<FlowSpec> flows() {
        return Collections.unmodifiableList(flows);
    }

    public List<String> groups() {
        return Collections.unmodifiableList(groups);
    }

    public int size() {
        return flows.size();
    }

    /** Largest host id used, for checking the graph fits a topology. */
    public int maxHost() {
        int m = -1;
        for (FlowSpec f : flows) m = Math.max(m, Math.max(f.src(), f.dst()));
        return m;
    }

    /** Total bytes sent by each host (index = host id, length = hosts). */
    public long[] bytesSentPerHost(int hosts) {
        long[] out = new long[hosts];
        for (FlowSpec f : flows) out[f.src()] += f.sizeBytes();
        return out;
    }

    /** Total bytes received by each host. */
    public long[] bytesReceivedPerHost(int hosts) {
        long[] out = new long[hosts];
        for (FlowSpec f : flows) out[f.dst()] += f.sizeBytes();
        return out;
    }
}

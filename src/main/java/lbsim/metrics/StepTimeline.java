package lbsim.metrics;

import it.unimi.dsi.fastutil.ints.IntArrays;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import lbsim.workload.FlowGraph;

/**
 * The collectives' timeline per step and rank (steps.csv, {@code metrics.steps}): for each
 * collective (group), step of its algorithm and sending rank, when the rank's first fabric flow
 * of the step started, when its last one was delivered, and the bytes and flows it sent in it.
 * Built once after the run from the flows' records, so it costs nothing while the simulation
 * runs; one row per (group, step, rank) with fabric flows, so never more rows than flows.
 * Transfers between ranks on one host are not fabric flows and have no row.
 */
public final class StepTimeline {
    /**
     * One rank's part of one step: {@code startNs} NaN when none of its flows started, {@code endNs}
     * NaN unless all of them were delivered.
     */
    public record Row(int group, String collective, int step, String stepName, int rank, int host, double startNs,
                      double endNs, long bytes, int flows) {}

    private final List<Row> rows;

    private StepTimeline(List<Row> rows) {
        this.rows = rows;
    }

    /** The timeline of the steps tagged in {@code graph} ({@link FlowGraph#tagStep}), timed by {@code flows} (in flow id order). */
    public static StepTimeline of(FlowGraph graph, List<FlowRecord> flows) {
        int n = 0;
        int[] ids = new int[graph.size()];
        for (int id = 0; id < graph.size(); id++) if (graph.stepRank(id) >= 0) ids[n++] = id;
        int[] tagged = java.util.Arrays.copyOf(ids, n);
        IntArrays.quickSort(tagged, (a, b) -> {
            int c = Integer.compare(flows.get(a).group(), flows.get(b).group());
            if (c == 0) c = Integer.compare(graph.stepIndex(a), graph.stepIndex(b));
            if (c == 0) c = Integer.compare(graph.stepRank(a), graph.stepRank(b));
            return c != 0 ? c : Integer.compare(a, b);
        });
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < tagged.length; ) {
            FlowRecord first = flows.get(tagged[i]);
            int group = first.group(), step = graph.stepIndex(tagged[i]), rank = graph.stepRank(tagged[i]);
            double start = Double.POSITIVE_INFINITY, end = Double.NEGATIVE_INFINITY;
            boolean allDone = true;
            long bytes = 0;
            int count = 0;
            for (; i < tagged.length; i++) {
                int id = tagged[i];
                FlowRecord f = flows.get(id);
                if (f.group() != group || graph.stepIndex(id) != step || graph.stepRank(id) != rank) break;
                if (f.startNs() >= 0) start = Math.min(start, f.startNs());
                if (f.finishNs() >= 0) end = Math.max(end, f.finishNs());
                else allDone = false;
                bytes += f.sizeBytes();
                count++;
            }
            out.add(new Row(group, graph.groups().get(group), step, graph.stepName(group, step), rank, first.src(),
                    start == Double.POSITIVE_INFINITY ? Double.NaN : start, allDone ? end : Double.NaN, bytes, count));
        }
        return new StepTimeline(Collections.unmodifiableList(out));
    }

    /** Rows by group, then step, then rank. */
    public List<Row> rows() {
        return rows;
    }
}

package lbsim.workload;

/**
 * One transfer of a workload: a node of the flow DAG the simulation drives.
 *
 * <p>A flow starts at {@code startPs} or, when it has dependencies, {@code gapPs} after
 * {@code afterCount} of the flows in {@code after} have been fully delivered, whichever is
 * later. {@code afterCount} is normally {@code after.length} (all dependencies); 1 models
 * an htsim one-shot trigger.
 *
 * @param id         unique within the graph, 0..n-1 in list order
 * @param src        sending host (NIC) id
 * @param dst        receiving host (NIC) id, != src
 * @param sizeBytes  bytes to deliver, > 0
 * @param startPs    earliest start time
 * @param after      ids of flows this one waits for (may be empty)
 * @param afterCount how many of {@code after} must be delivered
 * @param gapPs      delay after the dependencies are met (e.g. reduction compute time)
 * @param group      collective instance this flow belongs to, -1 if none
 * @param qps        QPs to split this flow over as NCCL would (0 = the scheme decides)
 * @param label      free text for flows.csv (e.g. "ring-ar step 3 ch 0"), may be empty
 */
public record FlowSpec(int id, int src, int dst, long sizeBytes, long startPs, int[] after, int afterCount,
                       long gapPs, int group, int qps, String label) {

    public static final int[] NO_DEPS = new int[0];

    /** A flow with no dependencies, outside any collective. */
    public static FlowSpec simple(int id, int src, int dst, long sizeBytes, long startPs) {
        return new FlowSpec(id, src, dst, sizeBytes, startPs, NO_DEPS, 0, 0, -1, 0, "");
    }

    public FlowSpec {
        if (sizeBytes <= 0) throw new IllegalArgumentException("flow " + id + ": size must be > 0");
        if (src == dst) throw new IllegalArgumentException("flow " + id + ": src == dst (" + src + ")");
        if (afterCount < 0 || afterCount > after.length) throw new IllegalArgumentException("flow " + id + ": bad afterCount");
        if (startPs < 0 || gapPs < 0) throw new IllegalArgumentException("flow " + id + ": negative time");
        if (label == null) label = "";
    }
}

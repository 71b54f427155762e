package lbsim.transport;

/**
 * One transfer of a workload: a node of the flow DAG the simulation drives.
 *
 * <p>A flow starts at {@code startPs} or, when it has dependencies, {@code gapPs} after
 * {@code afterCount} of them are met, whichever is later: a flow in {@code after} when it has
 * been fully delivered, a flow in {@code afterAcked} when its sender has every byte
 * acknowledged (htsim's {@code send_done_trigger}). {@code afterCount} is normally all of them;
 * 1 models an htsim one-shot trigger. The gap counts from those dependencies only.
 *
 * <p>It also waits, with no gap, until every flow in {@code afterSent} has been sent: each of
 * its QPs has put its last new packet on the wire (first transmissions only, so a
 * retransmission never delays it). Chaining a transfer's pieces this way sends them in order,
 * as messages posted on one connection (NCCL).
 *
 * @param id         unique within the graph, 0..n-1 in list order
 * @param src        sending host (NIC) id
 * @param dst        receiving host (NIC) id, != src
 * @param sizeBytes  bytes to deliver, > 0
 * @param startPs    earliest start time
 * @param after      ids of flows this one waits for (may be empty)
 * @param afterCount how many of {@code after} and {@code afterAcked} must be met
 * @param gapPs      delay after the dependencies are met (e.g. reduction compute time)
 * @param group      collective instance this flow belongs to, -1 if none
 * @param qps        QPs to split this flow over as NCCL would (0 = the scheme decides)
 * @param label      free text for flows.csv (e.g. "ring-ar step 3 ch 0"), may be empty
 * @param afterAcked ids of flows whose sender completion this one waits for (may be empty)
 * @param afterSent  ids of flows that must all have been sent before this one starts (may be empty)
 */
public record FlowSpec(int id, int src, int dst, long sizeBytes, long startPs, int[] after, int afterCount,
                       long gapPs, int group, int qps, String label, int[] afterAcked, int[] afterSent) {

    public static final int[] NO_DEPS = new int[0];

    /** A flow with no dependencies, outside any collective. */
    public static FlowSpec simple(int id, int src, int dst, long sizeBytes, long startPs) {
        return new FlowSpec(id, src, dst, sizeBytes, startPs, NO_DEPS, 0, 0, -1, 0, "");
    }

    /** A flow whose dependencies are all on delivery. */
    public FlowSpec(int id, int src, int dst, long sizeBytes, long startPs, int[] after, int afterCount,
                    long gapPs, int group, int qps, String label) {
        this(id, src, dst, sizeBytes, startPs, after, afterCount, gapPs, group, qps, label, NO_DEPS, NO_DEPS);
    }

    /** A flow with no dependency on other flows being sent. */
    public FlowSpec(int id, int src, int dst, long sizeBytes, long startPs, int[] after, int afterCount,
                    long gapPs, int group, int qps, String label, int[] afterAcked) {
        this(id, src, dst, sizeBytes, startPs, after, afterCount, gapPs, group, qps, label, afterAcked, NO_DEPS);
    }

    public FlowSpec {
        if (sizeBytes <= 0) throw new IllegalArgumentException("flow " + id + ": size must be > 0");
        if (src == dst) throw new IllegalArgumentException("flow " + id + ": src == dst (" + src + ")");
        if (afterAcked == null) afterAcked = NO_DEPS;
        if (afterSent == null) afterSent = NO_DEPS;
        if (afterCount < 0 || afterCount > after.length + afterAcked.length) throw new IllegalArgumentException("flow " + id + ": bad afterCount");
        if (startPs < 0 || gapPs < 0) throw new IllegalArgumentException("flow " + id + ": negative time");
        if (label == null) label = "";
    }

    /** Whether it waits for nothing at all: it starts at its start time. */
    public boolean independent() {
        return afterCount == 0 && afterSent.length == 0;
    }
}

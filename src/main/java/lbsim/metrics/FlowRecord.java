package lbsim.metrics;

/**
 * One row of flows.csv. Times in nanoseconds; finish and FCT are -1 if the flow never completed.
 * {@code slowdown} is FCT over {@link IdleFct} (open-loop workloads), NaN when not computed.
 */
public record FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                         double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label,
                         double slowdown) {

    /** Without a slowdown. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                      double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label) {
        this(id, src, dst, sizeBytes, group, qps, startNs, finishNs, fctNs, retransmittedPackets, timeouts, pathChanges, label,
                Double.NaN);
    }
}

package lbsim.metrics;

/** One row of flows.csv. Times in nanoseconds; finish and FCT are -1 if the flow never completed. */
public record FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                         double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label) {
}

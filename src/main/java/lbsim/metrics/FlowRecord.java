package lbsim.metrics;

/**
 * One row of flows.csv. Times in nanoseconds; finish and FCT are -1 if the flow never completed
 * (an empty cell in the file).
 * {@code fctNs} ends when the receiver has the last byte; {@code fctAckNs} when the sender has the
 * ACK of the last byte (htsim's and most papers' FCT), -1 if it never had.
 * {@code slowdown} is FCT over {@link IdleFct} (open-loop workloads), NaN when not computed.
 * {@code packets} is the flow's message in data packets (MTU-sized, summed over its QPs) and
 * {@code lostPackets} its data packets that lost their payload (dropped anywhere or trimmed).
 */
public record FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                         double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label,
                         double slowdown, long packets, long lostPackets, double fctAckNs) {

    /** Without the sender-side completion. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                      double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label,
                      double slowdown, long packets, long lostPackets) {
        this(id, src, dst, sizeBytes, group, qps, startNs, finishNs, fctNs, retransmittedPackets, timeouts, pathChanges, label,
                slowdown, packets, lostPackets, -1);
    }

    /** Without loss counts. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                      double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label,
                      double slowdown) {
        this(id, src, dst, sizeBytes, group, qps, startNs, finishNs, fctNs, retransmittedPackets, timeouts, pathChanges, label,
                slowdown, 0, 0);
    }

    /** Lost packets over the message's packets (0 for an empty flow). */
    public double lossFraction() {
        return packets > 0 ? (double) lostPackets / packets : 0;
    }

    /** Without a slowdown. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, int group, int qps, double startNs, double finishNs,
                      double fctNs, long retransmittedPackets, long timeouts, int pathChanges, String label) {
        this(id, src, dst, sizeBytes, group, qps, startNs, finishNs, fctNs, retransmittedPackets, timeouts, pathChanges, label,
                Double.NaN);
    }
}

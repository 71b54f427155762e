package lbsim.workload.collective;

/**
 * Piece {@code index} of a pipelined transfer: rank {@code from} sends rank {@code to} its
 * {@code transfer} (named by algorithm, channel and step, e.g. "broadcast/ring c0 s3") in
 * algorithm instance {@code instance} (a hierarchical collective runs one per local rank). The
 * pieces with the same instance, ranks and name are one transfer. Ranks, not hosts: ranks may
 * share a NIC and still have their own connections. {@code rank} is the sender's rank in the whole
 * collective (a hierarchical one's inner ranks are not) and {@code step} the algorithm's step the
 * piece belongs to (e.g. "s3"), for the per-step timeline (steps.csv).
 */
public record Piece(int instance, int from, int to, int channel, String transfer, int index, int rank, String step) {

    public Piece {
        if (channel < 0 || index < 0) throw new IllegalArgumentException("negative channel or piece index");
        if (transfer == null || step == null) throw new IllegalArgumentException("transfer or step name is null");
    }

    /** The label of the piece's flows in flows.csv. */
    public String label() {
        return transfer + " k" + index;
    }
}

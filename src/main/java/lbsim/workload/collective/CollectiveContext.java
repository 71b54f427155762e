package lbsim.workload.collective;

/**
 * The resolved parameters one algorithm instance works with. {@code hosts[i]} is rank i's host;
 * {@code pipelineBytes} is the largest piece a step's transfer is cut into (Long.MAX_VALUE: not
 * pipelined); {@code start} gives each (channel, slice) its start token; {@code instance}
 * tells apart the instances one collective runs (hierarchical: one per local rank); {@code ranks[i]}
 * is rank i's rank in the whole collective (an instance over a subgroup numbers its ranks 0..n-1).
 */
record CollectiveContext(Op op, int[] hosts, long sizeBytes, int root, int channels, long pipelineBytes,
                         double reduceGBps, SliceStart start, String labelPrefix, int instance, int[] ranks) {

    /** Start token of pipeline slice {@code slice} of {@code slices} on channel {@code channel}. */
    interface SliceStart {
        Completion at(int channel, int slice, int slices);
    }

    int n() {
        return hosts.length;
    }

    int host(int rank) {
        return hosts[rank];
    }

    /** Reduction compute time of {@code bytes} (reduceGBps = 0: not modelled). */
    long reducePs(long bytes) {
        return Rates.psAtGBps(bytes, reduceGBps);
    }

    /** Pipeline slices so that a transfer of {@code largestTransfer} bytes is cut into pieces of at most pipelineBytes. */
    int slicesFor(long largestTransfer) {
        return ByteSplit.piecesOf(largestTransfer, pipelineBytes);
    }

    /**
     * Rank {@code from} sends rank {@code to} piece {@code slice} of its {@code step} transfer on
     * {@code channel} (label "<prefix> c<channel> <step> k<slice>"), after the transfer's previous
     * piece; returns the token met when it has arrived.
     */
    Completion send(FlowEmitter out, int from, int to, long bytes, long gapPs, int channel, String step, int slice,
                    Completion deps) {
        Piece piece = new Piece(instance, from, to, channel, labelPrefix + " c" + channel + " " + step, slice, ranks[from], step);
        return out.sendPiece(host(from), host(to), bytes, gapPs, piece, deps);
    }

    /** The context of an instance over a subgroup: {@code subRanks[i]} is its rank i's rank in the whole collective. */
    CollectiveContext forSubgroup(int[] subHosts, int[] subRanks, long subSize, SliceStart subStart, int subInstance) {
        return new CollectiveContext(op, subHosts, subSize, 0, channels, pipelineBytes, reduceGBps, subStart, labelPrefix,
                subInstance, subRanks);
    }
}

package lbsim.workload.collective;

/**
 * NCCL-like piece sizes when {@code CollectiveSpec.chunkBytes} is 0 (reference/algorithms.md §6.6).
 * <ul>
 *   <li>pipeline piece (a step's transfer is cut into pieces; piece k of step s+1 waits only
 *       for piece k of step s): ring and double-binary-tree all-reduce / all-gather /
 *       reduce-scatter 1 MiB (Simple protocol stepSize 512 KiB x sliceSteps 2), ring broadcast
 *       and reduce 512 KiB; halving-doubling, recursive-doubling and direct are not pipelined
 *       (one flow per step and peer, as the flow sizes of Ethereal §1 / Astra-Sim).</li>
 *   <li>message (the unit NCCL deals round robin over QPs when split-data-on-QPs is off): the
 *       pipeline piece for ring and tree, NCCL_P2P_NET_CHUNKSIZE 128 KiB for the others
 *       (they run over NCCL send/recv).</li>
 * </ul>
 * A positive chunkBytes overrides both for every algorithm.
 */
final class ChunkDefaults {
    static final long MIB = 1L << 20;
    static final long RING_TREE_MESSAGE = MIB;
    static final long BROADCAST_REDUCE_MESSAGE = 512L << 10;
    static final long P2P_MESSAGE = 128L << 10;
    static final long NOT_PIPELINED = Long.MAX_VALUE;

    private ChunkDefaults() {}

    static long pipelineBytes(Algorithm alg, Op op, long chunkBytes) {
        if (chunkBytes > 0) return chunkBytes;
        return switch (alg) {
            case RING, DOUBLE_BINARY_TREE -> ncclRingTreeMessage(op);
            default -> NOT_PIPELINED;
        };
    }

    static long messageBytes(Algorithm alg, Op op, long chunkBytes) {
        if (chunkBytes > 0) return chunkBytes;
        return switch (alg) {
            case RING, DOUBLE_BINARY_TREE -> ncclRingTreeMessage(op);
            default -> P2P_MESSAGE;
        };
    }

    private static long ncclRingTreeMessage(Op op) {
        return op == Op.BROADCAST || op == Op.REDUCE ? BROADCAST_REDUCE_MESSAGE : RING_TREE_MESSAGE;
    }
}

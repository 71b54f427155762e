package lbsim.workload.collective;

/**
 * The algorithm a collective of a training iteration or a trace actually uses: the requested one
 * when it can run the op on that group, otherwise ring (as NCCL falls back to ring for ops the
 * tree does not implement), or direct for the ops ring does not run (all-to-all and send-recv are
 * point-to-point in NCCL). Ring replaces: double-binary-tree for all-gather / reduce-scatter; halving- or
 * recursive-doubling for all-gather / reduce-scatter on a non-power-of-two group; hierarchical
 * when the group is not a whole number (>= 2) of servers.
 */
public final class AlgorithmChoice {
    private AlgorithmChoice() {}

    public static String resolve(String requested, String op, int groupSize, int ranksPerServer) {
        Collectives.algorithmsFor(op); // refuses an unknown op name
        if (!Collectives.ALGORITHMS.contains(requested)) {
            throw new IllegalArgumentException("unknown collective algorithm '" + requested + "'; allowed: " + String.join(", ", Collectives.ALGORITHMS));
        }
        if (!Collectives.supports(op, requested)) return Collectives.supports(op, "ring") ? "ring" : "direct";
        boolean butterfly = requested.endsWith("doubling");
        if (butterfly && !op.equals("all-reduce") && Integer.bitCount(groupSize) != 1) return "ring";
        if (requested.equals("hierarchical") && (groupSize % ranksPerServer != 0 || groupSize / ranksPerServer < 2)) return "ring";
        return requested;
    }

    /**
     * How many consecutive members of a group share a server (server = rank / gpusPerServer), when
     * the group is laid out server by server in equal runs; otherwise the group size (so
     * hierarchical does not apply). A data-parallel group of tp-strided ranks gets gpusPerServer / tp.
     */
    public static int ranksPerServerOf(int[] ranks, int gpusPerServer) {
        int run = 1;
        while (run < ranks.length && ranks[run] / gpusPerServer == ranks[0] / gpusPerServer) run++;
        if (ranks.length % run != 0) return ranks.length;
        for (int i = 0; i < ranks.length; i++) {
            int server = ranks[i] / gpusPerServer;
            if (server != ranks[i - i % run] / gpusPerServer) return ranks.length;
            if (i % run == 0 && i > 0 && server == ranks[i - 1] / gpusPerServer) return ranks.length;
        }
        return run;
    }
}

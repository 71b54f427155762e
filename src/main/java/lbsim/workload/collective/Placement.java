package lbsim.workload.collective;

import java.util.SplittableRandom;

/**
 * Rank-to-host (NIC) maps. Hosts are numbered leaf by leaf as the topology does (DESIGN.md):
 * host h sits on leaf h / hostsPerLeaf.
 */
public final class Placement {
    private Placement() {}

    /** Rank r on host firstHost + r. */
    public static int[] contiguous(int ranks, int firstHost) {
        if (ranks < 1 || firstHost < 0) throw new IllegalArgumentException("ranks >= 1 and firstHost >= 0 required");
        int[] out = new int[ranks];
        for (int r = 0; r < ranks; r++) out[r] = firstHost + r;
        return out;
    }

    public static int[] contiguous(int ranks) {
        return contiguous(ranks, 0);
    }

    /** {@code ranks} distinct hosts drawn uniformly from 0..hosts-1, in random order (partial Fisher-Yates). */
    public static int[] random(int ranks, int hosts, SplittableRandom rng) {
        if (ranks < 1 || ranks > hosts) throw new IllegalArgumentException("need 1 <= ranks (" + ranks + ") <= hosts (" + hosts + ")");
        int[] pool = contiguous(hosts, 0);
        for (int i = 0; i < ranks; i++) {
            int j = i + rng.nextInt(hosts - i);
            int t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        return java.util.Arrays.copyOf(pool, ranks);
    }

    /**
     * Rail-optimised: every server has {@code nics} NICs and NIC i of every server is on rail i,
     * served by its own leaf(s). Rank r is local rank l = r mod ranksPerServer of server
     * s = r / ranksPerServer and uses NIC (l mod nics). With L = ceil(servers / hostsPerLeaf)
     * leaves per rail, NIC i of server s is host (i*L + s / hostsPerLeaf) * hostsPerLeaf
     * + s mod hostsPerLeaf; when servers <= hostsPerLeaf that is i*hostsPerLeaf + s.
     */
    public static int[] railOptimised(int servers, int ranksPerServer, int nics, int hostsPerLeaf) {
        return rail(servers, ranksPerServer, nics, hostsPerLeaf, false);
    }

    /**
     * Rail-optimised with GPUs grouped by NIC: local rank l uses NIC l / (ranksPerServer / nics),
     * e.g. CTCCL §4 servers where 4 GPUs of a NUMA node share its NIC. Host numbering as
     * {@link #railOptimised}. ranksPerServer must be a multiple of nics.
     */
    public static int[] railOptimisedGrouped(int servers, int ranksPerServer, int nics, int hostsPerLeaf) {
        if (ranksPerServer % nics != 0) throw new IllegalArgumentException("ranksPerServer must be a multiple of nics");
        return rail(servers, ranksPerServer, nics, hostsPerLeaf, true);
    }

    private static int[] rail(int servers, int ranksPerServer, int nics, int hostsPerLeaf, boolean grouped) {
        if (servers < 1 || ranksPerServer < 1 || nics < 1 || hostsPerLeaf < 1) throw new IllegalArgumentException("all counts must be >= 1");
        int leavesPerRail = (servers + hostsPerLeaf - 1) / hostsPerLeaf;
        int[] out = new int[servers * ranksPerServer];
        for (int r = 0; r < out.length; r++) {
            int s = r / ranksPerServer;
            int l = r % ranksPerServer;
            int nic = grouped ? l / (ranksPerServer / nics) : l % nics;
            int leaf = nic * leavesPerRail + s / hostsPerLeaf;
            out[r] = leaf * hostsPerLeaf + s % hostsPerLeaf;
        }
        return out;
    }

    /**
     * Single-rail: the NICs of a server are consecutive hosts (all on the server's own leaf when
     * nics divides hostsPerLeaf): NIC i of server s is host s*nics + i, and local rank l uses
     * NIC l mod nics. With nics = 1 every rank of server s shares host s.
     */
    public static int[] singleRail(int servers, int ranksPerServer, int nics) {
        if (servers < 1 || ranksPerServer < 1 || nics < 1) throw new IllegalArgumentException("all counts must be >= 1");
        int[] out = new int[servers * ranksPerServer];
        for (int r = 0; r < out.length; r++) out[r] = (r / ranksPerServer) * nics + (r % ranksPerServer) % nics;
        return out;
    }
}

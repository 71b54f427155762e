package lbsim.workload;

import lbsim.transport.FlowSpec;

import java.util.SplittableRandom;

/**
 * Permutation traffic: each of {@code concurrent} rounds is a random derangement (no host
 * sends to itself), all flows starting together (McClure et al. §5: k concurrent
 * permutations), optionally jittered by up to {@code jitterPs}.
 */
public final class Permutation {
    private Permutation() {}

    public static FlowGraph build(int hosts, long sizeBytes, int concurrent, long jitterPs, SplittableRandom rnd) {
        if (hosts < 2) throw new IllegalArgumentException("a permutation needs at least 2 hosts, the fabric has " + hosts);
        FlowGraph g = new FlowGraph();
        for (int r = 0; r < concurrent; r++) {
            int[] perm = derangement(hosts, rnd);
            for (int src = 0; src < hosts; src++) {
                long start = jitterPs > 0 ? rnd.nextLong(jitterPs + 1) : 0;
                g.add(new FlowSpec(g.nextId(), src, perm[src], sizeBytes, start, FlowSpec.NO_DEPS, 0, 0, -1, 0,
                        "perm " + r));
            }
        }
        return g;
    }

    /** Uniform random derangement by rejection of Fisher-Yates shuffles (expected e tries). */
    public static int[] derangement(int n, SplittableRandom rnd) {
        int[] p = new int[n];
        while (true) {
            for (int i = 0; i < n; i++) p[i] = i;
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) ok = p[i] != i;
            if (ok) return p;
        }
    }
}

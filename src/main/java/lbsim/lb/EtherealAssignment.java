package lbsim.lb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Ethereal's path assignment (Ethereal §3.2, Algorithm 1 {@code selectPath}, Theorem 1) for
 * the flows one source sends toward one destination ToR over {@code s} paths: floor(n/s)
 * whole flows per path, then the r = n mod s remaining flows are each split into s/g
 * subflows (g = gcd(r, s)), r/g subflows per path, so every path carries n·f/s bytes.
 *
 * <p>Generalisation to bytes that do not divide and to unequal flow sizes: flows are taken
 * largest first; whole flows go greedily to the least-loaded path (for equal sizes that is
 * exactly floor(n/s) per path); a split flow's pieces differ by at most one byte, and each
 * piece goes to the least-loaded path that still has fewer than r/g pieces (ties: lowest
 * index). With equal flow sizes every path then gets exactly r/g pieces and per-path bytes
 * differ by at most one (exactly n·f/s when s divides f). Pieces of zero bytes (a flow
 * smaller than s/g bytes) are dropped, except that every flow keeps at least one piece.
 */
public final class EtherealAssignment {
    private EtherealAssignment() {}

    /** One QP's share of a flow: the index of its path (0..paths-1) and its bytes. */
    public record Piece(int path, long bytes) {}

    /** Per flow (in input order), the pieces it is split into. */
    public static List<List<Piece>> assign(long[] flowSizes, int paths) {
        if (paths < 1) throw new IllegalArgumentException("paths must be >= 1: " + paths);
        int n = flowSizes.length;
        for (long f : flowSizes) if (f < 0) throw new IllegalArgumentException("negative flow size " + f);
        List<List<Piece>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new ArrayList<>(1));
        if (n == 0) return out;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> flowSizes[i]).reversed()); // stable
        long[] load = new long[paths];
        int whole = (n / paths) * paths;
        for (int k = 0; k < whole; k++) {
            int i = order[k];
            int p = argMin(load, null, -1);
            load[p] += flowSizes[i];
            out.get(i).add(new Piece(p, flowSizes[i]));
        }
        int r = n - whole;
        if (r == 0) return out;
        int g = gcd(r, paths);
        int split = paths / g; // subflows per remaining flow
        int cap = r / g;       // remaining subflows per path
        // pieces: {flow, bytes}, largest first (stable)
        List<long[]> pieces = new ArrayList<>(r * split);
        for (int k = whole; k < n; k++) {
            int i = order[k];
            long base = flowSizes[i] / split;
            long extra = flowSizes[i] % split;
            for (int j = 0; j < split; j++) pieces.add(new long[] {i, base + (j < extra ? 1 : 0)});
        }
        pieces.sort(Comparator.comparingLong((long[] a) -> a[1]).reversed());
        int[] count = new int[paths];
        for (long[] pc : pieces) {
            int p = argMin(load, count, cap);
            load[p] += pc[1];
            count[p]++;
            out.get((int) pc[0]).add(new Piece(p, pc[1]));
        }
        for (int k = whole; k < n; k++) {
            List<Piece> l = out.get(order[k]);
            List<Piece> kept = new ArrayList<>(l.size());
            for (Piece pc : l) if (pc.bytes() > 0) kept.add(pc);
            if (kept.isEmpty()) kept.add(l.get(0));
            out.set(order[k], kept);
        }
        return out;
    }

    private static int argMin(long[] load, int[] count, int cap) {
        int best = -1;
        for (int p = 0; p < load.length; p++) {
            if (count != null && count[p] >= cap) continue;
            if (best < 0 || load[p] < load[best]) best = p;
        }
        return best;
    }

    /** Bytes each path carries under an assignment. */
    public static long[] pathLoads(List<List<Piece>> assignment, int paths) {
        long[] load = new long[paths];
        for (List<Piece> l : assignment) for (Piece p : l) load[p.path()] += p.bytes();
        return load;
    }

    /** Subflows created beyond one per flow. */
    public static int extraFlows(List<List<Piece>> assignment) {
        int c = 0;
        for (List<Piece> l : assignment) c += l.size() - 1;
        return c;
    }

    public static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}

package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One of NCCL's two complementary binary trees over nodes 0..n-1 (reference/algorithms.md §6.2).
 * Tree 0: node x > 0 with lowest set bit b has parent (x XOR b) | 2b, or x XOR b when that is
 * >= n; root 0. Tree 1: for even n the mirror (x plays N-1-x), for odd n the shift (x plays x-1).
 */
public record BinaryTree(int root, int[] parent, int[][] children) {

    /** Tree {@code index} (0 or 1) of NCCL's double binary tree over {@code n} nodes. */
    public static BinaryTree nccl(int n, int index) {
        if (n < 1) throw new IllegalArgumentException("a tree needs at least one node");
        if (index != 0 && index != 1) throw new IllegalArgumentException("tree index is 0 or 1");
        int[] p0 = new int[n];
        p0[0] = -1;
        for (int x = 1; x < n; x++) {
            int b = Integer.lowestOneBit(x);
            int up = (x ^ b) | (b << 1);
            p0[x] = up < n ? up : x ^ b;
        }
        if (index == 0) return fromParents(p0);
        int[] p1 = new int[n];
        for (int x = 0; x < n; x++) {
            if (n % 2 == 0) {
                int q = p0[n - 1 - x];
                p1[x] = q < 0 ? -1 : n - 1 - q;
            } else {
                int q = p0[Math.floorMod(x - 1, n)];
                p1[x] = q < 0 ? -1 : (q + 1) % n;
            }
        }
        return fromParents(p1);
    }

    static BinaryTree fromParents(int[] parent) {
        int n = parent.length;
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) kids.add(new ArrayList<>());
        int root = -1;
        for (int x = 0; x < n; x++) {
            if (parent[x] < 0) root = x;
            else kids.get(parent[x]).add(x);
        }
        int[][] children = new int[n][];
        for (int x = 0; x < n; x++) children[x] = kids.get(x).stream().mapToInt(Integer::intValue).toArray();
        return new BinaryTree(root, parent, children);
    }

    /** Nodes in breadth-first order from the root (parents before children). */
    public int[] topDown() {
        int[] order = new int[parent.length];
        int head = 0;
        int tail = 0;
        order[tail++] = root;
        while (head < tail) {
            for (int c : children[order[head++]]) order[tail++] = c;
        }
        if (tail != parent.length) throw new IllegalStateException("tree does not span all nodes: " + Arrays.toString(parent));
        return order;
    }

    /** Edges on the longest root-to-leaf path. */
    public int height() {
        int[] depth = new int[parent.length];
        int h = 0;
        for (int x : topDown()) {
            if (x != root) depth[x] = depth[parent[x]] + 1;
            h = Math.max(h, depth[x]);
        }
        return h;
    }
}

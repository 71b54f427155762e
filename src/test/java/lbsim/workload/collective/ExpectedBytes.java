package lbsim.workload.collective;

/**
 * Independent oracle: bytes each rank sends and receives for op x algorithm, written from the
 * algorithm definitions in docs/collectives.md (blocks are ByteSplit parts of each channel's share).
 */
final class ExpectedBytes {
    final long[] sent;
    final long[] received;

    private ExpectedBytes(int n) {
        sent = new long[n];
        received = new long[n];
    }

    static ExpectedBytes of(String op, String alg, int n, long size, int channels, int root) {
        ExpectedBytes e = new ExpectedBytes(n);
        for (int ch = 0; ch < channels; ch++) {
            long c = ByteSplit.part(size, channels, ch);
            switch (alg) {
                case "ring" -> e.ring(op, n, c, root);
                case "double-binary-tree" -> e.tree(n, c);
                case "halving-doubling" -> e.butterfly(op, n, c, false);
                case "recursive-doubling" -> e.butterfly(op, n, c, true);
                case "direct" -> e.direct(op, n, c, root);
                default -> throw new IllegalArgumentException(alg);
            }
        }
        return e;
    }

    private void ring(String op, int n, long c, int root) {
        long[] b = ByteSplit.parts(c, n);
        for (int r = 0; r < n; r++) {
            int prev = (r + n - 1) % n;
            switch (op) {
                case "all-reduce" -> {
                    sent[r] += 2 * c - b[r] - b[(r + 1) % n];
                    received[r] += 2 * c - b[prev] - b[r];
                }
                case "reduce-scatter" -> {
                    sent[r] += c - b[r];
                    received[r] += c - b[prev];
                }
                case "all-gather" -> {
                    sent[r] += c - b[(r + 1) % n];
                    received[r] += c - b[r];
                }
                default -> { }
            }
        }
        if (op.equals("broadcast") || op.equals("reduce")) {
            int first = op.equals("broadcast") ? root : root + 1;
            for (int p = 0; p < n - 1; p++) {
                sent[(first + p) % n] += c;
                received[(first + p + 1) % n] += c;
            }
        }
    }

    private void tree(int n, long c) {
        for (int t = 0; t < 2; t++) {
            long h = ByteSplit.part(c, 2, t);
            BinaryTree tree = BinaryTree.nccl(n, t);
            for (int x = 0; x < n; x++) {
                long moved = h * (tree.children()[x].length + (x == tree.root() ? 0 : 1));
                sent[x] += moved;
                received[x] += moved;
            }
        }
    }

    /** Brute force over block sets; rank v of the p survivors is real rank survivor[v]. */
    private void butterfly(String op, int n, long c, boolean nearestFirst) {
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        long[] b = ByteSplit.parts(c, p);
        int m = Integer.numberOfTrailingZeros(p);
        boolean rs = !op.equals("all-gather");
        boolean ag = !op.equals("reduce-scatter");
        for (int v = 0; v < p; v++) {
            int real = v < rem ? 2 * v + 1 : v + rem;
            int mask = 0;
            for (int i = 0; i < m && rs; i++) {
                int d = nearestFirst ? 1 << i : p >> (i + 1);
                sent[real] += sum(b, mask | d, (v & mask) | (~v & d));
                received[real] += sum(b, mask | d, v & (mask | d));
                mask |= d;
            }
            mask = p - 1;
            for (int i = 0; i < m && ag; i++) {
                int d = nearestFirst ? p >> (i + 1) : 1 << i;
                sent[real] += sum(b, mask, v & mask);
                received[real] += sum(b, mask, (v ^ d) & mask);
                mask &= ~d;
            }
        }
        for (int v = 0; v < rem; v++) {
            sent[2 * v] += c;
            received[2 * v + 1] += c;
            sent[2 * v + 1] += c;
            received[2 * v] += c;
        }
    }

    private static long sum(long[] blocks, int mask, int pattern) {
        long s = 0;
        for (int j = 0; j < blocks.length; j++) if ((j & mask) == pattern) s += blocks[j];
        return s;
    }

    private void direct(String op, int n, long c, int root) {
        long[] b = ByteSplit.parts(c, n);
        for (int r = 0; r < n; r++) {
            switch (op) {
                case "all-reduce" -> {
                    sent[r] += c - b[r] + (n - 1) * b[r];
                    received[r] += (n - 1) * b[r] + c - b[r];
                }
                case "reduce-scatter", "all-to-all" -> {
                    sent[r] += c - b[r];
                    received[r] += (n - 1) * b[r];
                }
                case "all-gather" -> {
                    sent[r] += (n - 1) * b[r];
                    received[r] += c - b[r];
                }
                case "broadcast" -> {
                    sent[r] += r == root ? (n - 1) * c : 0;
                    received[r] += r == root ? 0 : c;
                }
                case "reduce" -> {
                    sent[r] += r == root ? 0 : c;
                    received[r] += r == root ? (n - 1) * c : 0;
                }
                case "send-recv" -> {
                    sent[r] += c;
                    received[r] += c;
                }
                default -> throw new IllegalArgumentException(op);
            }
        }
    }
}

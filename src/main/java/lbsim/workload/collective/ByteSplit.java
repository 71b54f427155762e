package lbsim.workload.collective;

/**
 * Exact division of a byte count into parts: the first {@code total % n} parts get one byte
 * more, so parts differ by at most one byte and always sum to {@code total}.
 */
public final class ByteSplit {
    private ByteSplit() {}

    /** Size of part {@code i} of {@code total} bytes cut into {@code n} parts. */
    public static long part(long total, int n, int i) {
        if (n <= 0 || i < 0 || i >= n) throw new IllegalArgumentException("part " + i + " of " + n);
        return total / n + (i < total % n ? 1 : 0);
    }

    /** All {@code n} parts of {@code total}; part 0 is the largest. */
    public static long[] parts(long total, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = part(total, n, i);
        return out;
    }

    /** Number of pieces of at most {@code limit} bytes needed for {@code bytes} (at least 1). */
    public static int piecesOf(long bytes, long limit) {
        if (limit <= 0) throw new IllegalArgumentException("limit must be > 0");
        long k = bytes <= 0 ? 1 : (bytes - 1) / limit + 1;
        if (k > Integer.MAX_VALUE) throw new IllegalArgumentException(bytes + " bytes in pieces of " + limit + " is too many pieces");
        return (int) k;
    }
}

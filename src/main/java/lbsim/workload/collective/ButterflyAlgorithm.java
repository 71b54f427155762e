package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * Reduce-scatter by recursive halving and all-gather by recursive doubling over p = 2^m ranks,
 * in one of two distance orders:
 * <ul>
 *   <li>{@link Order#FARTHEST_FIRST} "halving-doubling" (Rabenseifner; reference/algorithms.md
 *       §6.3): reduce-scatter distances p/2, p/4, ..., 1, all-gather 1, 2, ..., p/2;</li>
 *   <li>{@link Order#NEAREST_FIRST} "recursive-doubling" as Ethereal §1/§4.1 evaluates it (and
 *       Astra-Sim's HalvingDoubling): reduce-scatter distances 1, 2, ..., p/2 so that step i
 *       moves 2^-i of the message, all-gather p/2, ..., 1 with 2^(i-1)/p of it.</li>
 * </ul>
 * The partner at distance d is r XOR d. The buffer is cut into p blocks; after the reduce-scatter
 * bits in set M are done, rank r holds the blocks j that agree with r on M; at distance d it
 * sends the blocks agreeing with r on M and with its partner on bit d (exact byte sums, any
 * size). All-gather reverses it. A step starts when the previous step's send and receive at
 * that rank are both delivered (MPI_Sendrecv semantics); data received in a reduce-scatter step
 * is reduced first (gap).
 *
 * <p>Non-power-of-two n is supported for all-reduce only, as MPICH does: with p = 2^floor(log2 n)
 * and rem = n - p, each even rank r < 2 rem first sends its whole buffer to r+1 and drops out;
 * the p survivors run the algorithm; finally each odd r < 2 rem sends the result back to r-1.
 * Reduce-scatter and all-gather need a power-of-two rank count.
 */
final class ButterflyAlgorithm implements CollectiveAlgorithm {

    enum Order { FARTHEST_FIRST, NEAREST_FIRST }

    private final Order order;

    ButterflyAlgorithm(Order order) {
        this.order = order;
    }

    @Override
    public void validate(CollectiveContext ctx) {
        int n = ctx.n();
        boolean pow2 = Integer.bitCount(n) == 1;
        if (ctx.op() != Op.ALL_REDUCE && ctx.op() != Op.REDUCE_SCATTER && ctx.op() != Op.ALL_GATHER) {
            throw new IllegalArgumentException(name() + " implements all-reduce, reduce-scatter and all-gather only");
        }
        if (!pow2 && ctx.op() != Op.ALL_REDUCE) {
            throw new IllegalArgumentException(name() + " " + ctx.op().scenarioName()
                    + " needs a power-of-two number of ranks, got " + n + " (all-reduce folds non-powers of two)");
        }
    }

    private String name() {
        return order == Order.FARTHEST_FIRST ? "halving-doubling" : "recursive-doubling";
    }

    @Override
    public Completion emit(CollectiveContext ctx, FlowEmitter out) {
        int n = ctx.n();
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        int[] survivor = new int[p];
        for (int v = 0; v < p; v++) survivor[v] = v < rem ? 2 * v + 1 : v + rem;
        boolean rs = ctx.op() != Op.ALL_GATHER;
        boolean ag = ctx.op() != Op.REDUCE_SCATTER;
        int[] rsBits = distances(p, order == Order.NEAREST_FIRST);
        int[] agBits = distances(p, order == Order.FARTHEST_FIRST);
        List<Completion> done = new ArrayList<>();
        for (int ch = 0; ch < ctx.channels(); ch++) {
            long share = ByteSplit.part(ctx.sizeBytes(), ctx.channels(), ch);
            BlockSets sets = new BlockSets(share, p);
            long largest = rem > 0 ? share : sets.largestHalf();
            int slices = ctx.slicesFor(largest);
            for (int k = 0; k < slices; k++) {
                Completion start = ctx.start().at(ch, k, slices);
                // piece k of every block, as the exchange cuts them (not the share cut into K: its
                // pieces straddle blocks and differ from the exchange's by up to p - 1 bytes)
                long whole = sets.sliceBytes(0, 0, slices, k);
                Completion[] ready = new Completion[p];
                for (int v = 0; v < p; v++) ready[v] = start;
                for (int v = 0; v < rem; v++) {
                    Completion in = ctx.send(out, 2 * v, 2 * v + 1, whole, 0, ch, "pre", k, start);
                    ready[v] = in.plus(ctx.reducePs(whole));
                }
                Completion[] end = steps(ctx, out, sets, survivor, rs ? rsBits : new int[0], ag ? agBits : new int[0], ch, k, slices, ready);
                for (int v = 0; v < p; v++) {
                    if (v < rem) {
                        done.add(ctx.send(out, 2 * v + 1, 2 * v, whole, 0, ch, "post", k, end[v]));
                    }
                    done.add(end[v]);
                }
            }
        }
        return Completion.join(done);
    }

    /** Runs the reduce-scatter then all-gather steps over the p survivors; returns each one's final token. */
    private static Completion[] steps(CollectiveContext ctx, FlowEmitter out, BlockSets sets, int[] survivor, int[] rsBits,
                                      int[] agBits, int ch, int k, int slices, Completion[] ready) {
        int p = survivor.length;
        Completion[] recv = ready.clone();
        Completion[] sent = ready.clone();
        long[] reduceBytes = new long[p];
        int mask = rsBits.length == 0 ? p - 1 : 0;
        int step = 0;
        for (int d : rsBits) {
            Completion[] nextRecv = new Completion[p];
            long[] nextReduce = new long[p];
            for (int v = 0; v < p; v++) {
                int partner = v ^ d;
                long bytes = sets.sliceBytes(mask | d, (v & mask) | (partner & d), slices, k);
                Completion deps = Completion.join(recv[v], sent[v]);
                long gap = ctx.reducePs(reduceBytes[v]);
                Completion arrival = ctx.send(out, survivor[v], survivor[partner], bytes, gap, ch, "s" + step, k, deps);
                sent[v] = arrival;
                nextRecv[partner] = arrival;
                nextReduce[partner] = bytes;
            }
            recv = nextRecv;
            reduceBytes = nextReduce;
            mask |= d;
            step++;
        }
        for (int d : agBits) {
            Completion[] nextRecv = new Completion[p];
            for (int v = 0; v < p; v++) {
                int partner = v ^ d;
                long bytes = sets.sliceBytes(mask, v & mask, slices, k);
                Completion deps = Completion.join(recv[v], sent[v]);
                long gap = ctx.reducePs(reduceBytes[v]);
                Completion arrival = ctx.send(out, survivor[v], survivor[partner], bytes, gap, ch, "s" + step, k, deps);
                sent[v] = arrival;
                nextRecv[partner] = arrival;
            }
            recv = nextRecv;
            reduceBytes = new long[p];
            mask &= ~d;
            step++;
        }
        Completion[] end = new Completion[p];
        for (int v = 0; v < p; v++) end[v] = Completion.join(recv[v], sent[v]).plus(ctx.reducePs(reduceBytes[v]));
        return end;
    }

    /** Distances 1, 2, ..., p/2 (ascending) or p/2, ..., 1. */
    static int[] distances(int p, boolean ascending) {
        int m = Integer.numberOfTrailingZeros(p);
        int[] out = new int[m];
        for (int i = 0; i < m; i++) out[i] = ascending ? 1 << i : p >> (i + 1);
        return out;
    }

    /** Byte sums of block sets {j : (j & mask) == pattern} of a share cut into p blocks and K slices. */
    static final class BlockSets {
        private final int p;
        private final long small;
        private final int big;

        BlockSets(long share, int p) {
            this.p = p;
            this.small = share / p;
            this.big = (int) (share % p);
        }

        long sliceBytes(int mask, int pattern, int slices, int k) {
            int size = p >> Integer.bitCount(mask);
            int bigCount = countBelow(big, mask, pattern);
            return bigCount * ByteSplit.part(small + 1, slices, k) + (long) (size - bigCount) * ByteSplit.part(small, slices, k);
        }

        long largestHalf() {
            return (long) (p / 2) * small + Math.min(big, p / 2);
        }

        /** How many j in [0, limit) have (j & mask) == pattern. */
        static int countBelow(int limit, int mask, int pattern) {
            int count = 0;
            for (int b = 30; b >= 0; b--) {
                if (((limit >> b) & 1) == 0) continue;
                int prefix = (limit >> (b + 1)) << (b + 1);
                int fixedAbove = mask & ~((1 << b) - 1);
                if ((prefix & fixedAbove) == (pattern & fixedAbove)) {
                    count += 1 << Integer.bitCount(~mask & ((1 << b) - 1));
                }
            }
            return count;
        }
    }
}

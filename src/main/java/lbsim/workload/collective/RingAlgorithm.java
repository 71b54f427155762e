package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * Ring collectives, pipelined as NCCL's (reference/algorithms.md §6.1): next(r) = r+1 mod n.
 * Each channel's share C is cut into n blocks (ByteSplit), each block into K pieces of at most
 * pipelineBytes; piece k of step t+1 at rank r waits only for piece k of step t arriving from
 * prev(r).
 * <ul>
 *   <li>reduce-scatter, steps t = 0..n-2: r sends block (r-1-t) mod n; r ends owning block r;</li>
 *   <li>all-gather, steps t = 0..n-2: r sends block (r-t) mod n (step 0: its own block r);</li>
 *   <li>all-reduce: reduce-scatter then all-gather, 2(n-1) steps;</li>
 *   <li>broadcast: a chain root, root+1, ..., root+n-1; reduce: a chain root+1, ..., root
 *       (each hop reduces), both pipelined piece by piece as NCCL's ring broadcast/reduce.</li>
 * </ul>
 * Data received in a reduce step is reduced before it is forwarded: gap = piece / reduceGBps.
 */
final class RingAlgorithm implements CollectiveAlgorithm {

    @Override
    public Completion emit(CollectiveContext ctx, FlowEmitter out) {
        return switch (ctx.op()) {
            case ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER -> blockRing(ctx, out);
            case BROADCAST -> chain(ctx, out, false);
            case REDUCE -> chain(ctx, out, true);
            default -> throw new IllegalArgumentException("ring does not implement " + ctx.op().scenarioName());
        };
    }

    private static Completion blockRing(CollectiveContext ctx, FlowEmitter out) {
        int n = ctx.n();
        int rsSteps = ctx.op() == Op.ALL_GATHER ? 0 : n - 1;
        int agSteps = ctx.op() == Op.REDUCE_SCATTER ? 0 : n - 1;
        List<Completion> done = new ArrayList<>();
        for (int ch = 0; ch < ctx.channels(); ch++) {
            long[] blocks = ByteSplit.parts(ByteSplit.part(ctx.sizeBytes(), ctx.channels(), ch), n);
            int slices = ctx.slicesFor(blocks[0]);
            for (int k = 0; k < slices; k++) {
                long[] piece = new long[n];
                for (int j = 0; j < n; j++) piece[j] = ByteSplit.part(blocks[j], slices, k);
                Completion start = ctx.start().at(ch, k, slices);
                Completion[] arrived = new Completion[n];
                java.util.Arrays.fill(arrived, start);
                for (int t = 0; t < rsSteps + agSteps; t++) {
                    Completion[] next = new Completion[n];
                    String step = "s" + t;
                    for (int r = 0; r < n; r++) {
                        int block = t < rsSteps ? Math.floorMod(r - 1 - t, n) : Math.floorMod(r - (t - rsSteps), n);
                        long gap = t > 0 && t <= rsSteps ? ctx.reducePs(piece[block]) : 0;
                        int to = (r + 1) % n;
                        next[to] = ctx.send(out, r, to, piece[block], gap, ch, step, k, arrived[r]);
                    }
                    arrived = next;
                }
                for (int r = 0; r < n; r++) {
                    boolean finalReduce = agSteps == 0;
                    done.add(finalReduce ? arrived[r].plus(ctx.reducePs(piece[r])) : arrived[r]);
                }
            }
        }
        return Completion.join(done);
    }

    private static Completion chain(CollectiveContext ctx, FlowEmitter out, boolean reduce) {
        int n = ctx.n();
        int first = reduce ? ctx.root() + 1 : ctx.root();
        List<Completion> done = new ArrayList<>();
        for (int ch = 0; ch < ctx.channels(); ch++) {
            long share = ByteSplit.part(ctx.sizeBytes(), ctx.channels(), ch);
            int slices = ctx.slicesFor(share);
            for (int k = 0; k < slices; k++) {
                long piece = ByteSplit.part(share, slices, k);
                Completion arrived = ctx.start().at(ch, k, slices);
                for (int h = 0; h < n - 1; h++) {
                    int from = (first + h) % n;
                    int to = (first + h + 1) % n;
                    long gap = reduce && h > 0 ? ctx.reducePs(piece) : 0;
                    arrived = ctx.send(out, from, to, piece, gap, ch, "s" + h, k, arrived);
                }
                done.add(reduce ? arrived.plus(ctx.reducePs(piece)) : arrived);
            }
        }
        return Completion.join(done);
    }
}

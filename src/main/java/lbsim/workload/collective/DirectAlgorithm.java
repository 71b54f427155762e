package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * Direct (all pairs at once) collectives (reference/algorithms.md §6.4; the "all-to-all"
 * all-reduce of Ethereal §4.1 / Astra-Sim "direct"):
 * <ul>
 *   <li>all-to-all: rank r sends block j of its buffer (S cut into n blocks) to every j != r;</li>
 *   <li>reduce-scatter: the same exchange; rank j reduces the n-1 blocks j it received;</li>
 *   <li>all-gather: rank r sends its block r (of the S-byte output) to every other rank;</li>
 *   <li>all-reduce: reduce-scatter, then rank j sends its reduced block j to every other rank
 *       once all n-1 blocks j have arrived (and been reduced);</li>
 *   <li>broadcast: the root sends S to every rank; reduce: every rank sends S to the root;</li>
 *   <li>send-recv: rank r sends S to rank (r+1) mod n (the NCCL-tests sendrecv pattern).</li>
 * </ul>
 * Only all-reduce has a second step, so only it is pipelined when chunkBytes is set.
 */
final class DirectAlgorithm implements CollectiveAlgorithm {

    @Override
    public Completion emit(CollectiveContext ctx, FlowEmitter out) {
        List<Completion> done = new ArrayList<>();
        for (int ch = 0; ch < ctx.channels(); ch++) {
            long share = ByteSplit.part(ctx.sizeBytes(), ctx.channels(), ch);
            switch (ctx.op()) {
                case ALL_REDUCE, REDUCE_SCATTER -> reduceScatterFirst(ctx, out, ch, share, done);
                case ALL_TO_ALL -> allToAll(ctx, out, ch, share, done);
                case ALL_GATHER -> allGather(ctx, out, ch, share, done);
                case BROADCAST -> broadcast(ctx, out, ch, share, done);
                case REDUCE -> reduce(ctx, out, ch, share, done);
                case SEND_RECV -> sendRecv(ctx, out, ch, share, done);
            }
        }
        return Completion.join(done);
    }

    private static void reduceScatterFirst(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        int n = ctx.n();
        long[] blocks = ByteSplit.parts(share, n);
        int slices = ctx.op() == Op.ALL_REDUCE ? ctx.slicesFor(blocks[0]) : 1;
        for (int k = 0; k < slices; k++) {
            Completion start = ctx.start().at(ch, k, slices);
            List<List<Completion>> into = new ArrayList<>();
            for (int j = 0; j < n; j++) into.add(new ArrayList<>());
            for (int r = 0; r < n; r++) {
                for (int j = 0; j < n; j++) {
                    if (j == r) continue;
                    long piece = ByteSplit.part(blocks[j], slices, k);
                    into.get(j).add(ctx.send(out, r, j, piece, 0, ch, "s0", k, start));
                }
            }
            for (int j = 0; j < n; j++) {
                long piece = ByteSplit.part(blocks[j], slices, k);
                long reduce = ctx.reducePs(piece * (n - 1));
                Completion reduced = Completion.join(into.get(j));
                if (ctx.op() == Op.REDUCE_SCATTER) {
                    done.add(reduced.plus(reduce));
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    if (i != j) done.add(ctx.send(out, j, i, piece, reduce, ch, "s1", k, reduced));
                }
            }
        }
    }

    private static void allToAll(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        int n = ctx.n();
        Completion start = ctx.start().at(ch, 0, 1);
        for (int r = 0; r < n; r++) {
            for (int j = 0; j < n; j++) {
                if (j != r) done.add(ctx.send(out, r, j, ByteSplit.part(share, n, j), 0, ch, "s0", 0, start));
            }
        }
    }

    private static void allGather(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        int n = ctx.n();
        Completion start = ctx.start().at(ch, 0, 1);
        for (int r = 0; r < n; r++) {
            long block = ByteSplit.part(share, n, r);
            for (int j = 0; j < n; j++) {
                if (j != r) done.add(ctx.send(out, r, j, block, 0, ch, "s0", 0, start));
            }
        }
    }

    private static void broadcast(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        Completion start = ctx.start().at(ch, 0, 1);
        for (int j = 0; j < ctx.n(); j++) {
            if (j != ctx.root()) done.add(ctx.send(out, ctx.root(), j, share, 0, ch, "s0", 0, start));
        }
    }

    private static void reduce(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        Completion start = ctx.start().at(ch, 0, 1);
        List<Completion> in = new ArrayList<>();
        for (int j = 0; j < ctx.n(); j++) {
            if (j != ctx.root()) in.add(ctx.send(out, j, ctx.root(), share, 0, ch, "s0", 0, start));
        }
        done.add(Completion.join(in).plus(ctx.reducePs(share * (ctx.n() - 1))));
    }

    private static void sendRecv(CollectiveContext ctx, FlowEmitter out, int ch, long share, List<Completion> done) {
        Completion start = ctx.start().at(ch, 0, 1);
        int n = ctx.n();
        for (int r = 0; r < n; r++) {
            done.add(ctx.send(out, r, (r + 1) % n, share, 0, ch, "s0", 0, start));
        }
    }
}

package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL double-binary-tree all-reduce (reference/algorithms.md §6.2): every channel's share is
 * halved, half over {@link BinaryTree#nccl tree 0} and half over tree 1 (NCCL runs channel c on
 * tree 0 and c + nChannels on tree 1). Per tree and pipeline piece k: reduce up (a node sends
 * piece k to its parent once piece k from every child has arrived and been reduced), then
 * broadcast down (the root, after reducing, and every node once piece k arrived from its parent,
 * send piece k to each child). Ranks are the tree nodes (one rank per node: every GPU has its
 * own NIC, as in the papers' topologies).
 */
final class DoubleBinaryTreeAlgorithm implements CollectiveAlgorithm {

    @Override
    public void validate(CollectiveContext ctx) {
        if (ctx.op() != Op.ALL_REDUCE) throw new IllegalArgumentException("double-binary-tree implements all-reduce only");
    }

    @Override
    public Completion emit(CollectiveContext ctx, FlowEmitter out) {
        int n = ctx.n();
        BinaryTree[] trees = {BinaryTree.nccl(n, 0), BinaryTree.nccl(n, 1)};
        List<Completion> done = new ArrayList<>();
        for (int ch = 0; ch < ctx.channels(); ch++) {
            long share = ByteSplit.part(ctx.sizeBytes(), ctx.channels(), ch);
            for (int t = 0; t < 2; t++) {
                long half = ByteSplit.part(share, 2, t);
                int slices = ctx.slicesFor(half);
                for (int k = 0; k < slices; k++) {
                    long piece = ByteSplit.part(half, slices, k);
                    emitPiece(ctx, out, trees[t], ch, t, k, piece, ctx.start().at(ch, k, slices), done);
                }
            }
        }
        return Completion.join(done);
    }

    private static void emitPiece(CollectiveContext ctx, FlowEmitter out, BinaryTree tree, int ch, int t, int k,
                                  long piece, Completion start, List<Completion> done) {
        int n = ctx.n();
        int[] topDown = tree.topDown();
        Completion[] upArrived = new Completion[n];
        for (int i = n - 1; i >= 0; i--) {
            int x = topDown[i];
            if (x == tree.root()) continue;
            Completion ready = fromChildren(tree, x, upArrived, start);
            long gap = ctx.reducePs(piece * tree.children()[x].length);
            upArrived[x] = ctx.send(out, x, tree.parent()[x], piece, gap, ch, "t" + t + " up", k, ready);
        }
        Completion[] downArrived = new Completion[n];
        for (int x : topDown) {
            boolean isRoot = x == tree.root();
            Completion ready = isRoot ? fromChildren(tree, x, upArrived, start) : downArrived[x];
            long gap = isRoot ? ctx.reducePs(piece * tree.children()[x].length) : 0;
            for (int c : tree.children()[x]) {
                downArrived[c] = ctx.send(out, x, c, piece, gap, ch, "t" + t + " down", k, ready);
            }
            if (tree.children()[x].length == 0) done.add(downArrived[x]);
        }
    }

    private static Completion fromChildren(BinaryTree tree, int x, Completion[] upArrived, Completion start) {
        int[] kids = tree.children()[x];
        if (kids.length == 0) return start;
        List<Completion> parts = new ArrayList<>(kids.length);
        for (int c : kids) parts.add(upArrived[c]);
        return Completion.join(parts);
    }
}

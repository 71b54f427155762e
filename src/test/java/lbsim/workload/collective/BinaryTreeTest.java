package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NCCL's double binary tree: spanning trees, NCCL's child rule, mirror / shift, shared interior load. */
class BinaryTreeTest {

    @Test
    void treesSpanAllNodesAndFollowNcclChildRule() {
        qt().forAll(integers().between(1, 300)).checkAssert(n -> {
            BinaryTree t0 = BinaryTree.nccl(n, 0);
            assertThat(t0.root()).isZero();
            assertThat(t0.topDown()).hasSize(n);
            for (int x = 0; x < n; x++) {
                assertThat(java.util.Arrays.stream(t0.children()[x]).boxed().toList()).containsExactlyInAnyOrderElementsOf(ncclChildren(x, n));
                assertThat(t0.children()[x].length).isLessThanOrEqualTo(2);
            }
            BinaryTree t1 = BinaryTree.nccl(n, 1);
            assertThat(t1.topDown()).hasSize(n);
            for (int x = 0; x < n; x++) {
                int expected = n % 2 == 0
                        ? (t0.parent()[n - 1 - x] < 0 ? -1 : n - 1 - t0.parent()[n - 1 - x])
                        : (t0.parent()[Math.floorMod(x - 1, n)] < 0 ? -1 : (t0.parent()[Math.floorMod(x - 1, n)] + 1) % n);
                assertThat(t1.parent()[x]).isEqualTo(expected);
            }
        });
    }

    @Test
    void noRankIsInteriorWithTwoChildrenInBothTreesForEvenN() {
        qt().forAll(integers().between(1, 150).map(i -> 2 * i)).checkAssert(n -> {
            BinaryTree t0 = BinaryTree.nccl(n, 0);
            BinaryTree t1 = BinaryTree.nccl(n, 1);
            for (int x = 0; x < n; x++) {
                assertThat(t0.children()[x].length + t1.children()[x].length).as("n=%d x=%d", n, x).isLessThanOrEqualTo(2);
            }
        });
    }

    @Test
    void knownSmallTree() {
        BinaryTree t = BinaryTree.nccl(6, 0);
        assertThat(t.parent()).containsExactly(-1, 2, 4, 2, 0, 4);
        assertThat(t.height()).isEqualTo(3);
    }

    /** NCCL's rule as algorithms.md §6.2 states it: children x - b/2 and x + b/2 (halved until < n); root 0 has child 2^ceil(log2 n)/2. */
    private static List<Integer> ncclChildren(int x, int n) {
        List<Integer> out = new ArrayList<>();
        if (x == 0) {
            int top = 1;
            while (top < n) top <<= 1;
            if (n > 1) out.add(top / 2);
            return out;
        }
        int b = Integer.lowestOneBit(x);
        if (b == 1) return out;
        out.add(x - b / 2);
        int off = b / 2;
        while (off > 0 && x + off >= n) off /= 2;
        if (off > 0) out.add(x + off);
        return out;
    }
}

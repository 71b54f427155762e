package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** DRILL samples d distinct ports (algorithms.md §1.7), not d draws with replacement. */
class DrillTest {
    @Test
    void withDAtLeastTheGroupSizeEveryPortIsSampledSoTheLeastLoadedWins() {
        SplittableRandom seeds = new SplittableRandom(11);
        qt().forAll(lists().of(integers().between(0, 1000)).ofSizeBetween(2, 16), integers().between(0, 3))
                .checkAssert((loadList, extra) -> {
                    long[] loads = loadList.stream().mapToLong(Integer::longValue).toArray();
                    int n = loads.length;
                    int[] candidates = new int[n];
                    for (int i = 0; i < n; i++) candidates[i] = 100 + i;
                    Drill drill = new Drill(n + extra, new SplittableRandom(seeds.nextLong()));
                    long min = java.util.Arrays.stream(loads).min().getAsLong();
                    for (int round = 0; round < 20; round++) { // with and without a remembered port
                        int port = drill.pick(candidates, c -> loads[c - 100], false);
                        assertThat(loads[port - 100]).isEqualTo(min);
                    }
                });
    }

    @Test
    void twoSamplesOfTwoPortsAlwaysLeaveAHeavilyLoadedRememberedPort() {
        // with replacement, both samples would repeat the remembered (loaded) port a quarter of the time
        int[] candidates = {0, 1};
        long[] loads = {0, 1_000_000};
        Drill drill = new Drill(2, new SplittableRandom(3));
        assertThat(drill.pick(candidates, c -> loads[c], false)).isEqualTo(0);
        for (int i = 0; i < 200; i++) {
            loads[0] = 1_000_000 + i; // the remembered port is now the loaded one
            loads[1] = 0;
            assertThat(drill.pick(candidates, c -> loads[c], false)).isEqualTo(1);
            loads[1] = 1_000_000 + i;
            loads[0] = 0;
            assertThat(drill.pick(candidates, c -> loads[c], false)).isEqualTo(0);
        }
    }
}

package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RepsTest {
    private static final long US = 1_000_000L;
    private final Reps reps = new Reps(new SplittableRandom(1), 8, 64, 1, 10, 16);

    @Test
    void withAnEmptyCacheEveryPacketExploresAmongTheEntropies() {
        Reps.State s = new Reps.State(8);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) seen.add(reps.nextEntropy(s));
        assertThat(seen).hasSize(64).allSatisfy(p -> assertThat(p).isBetween(0xC000, 0xC000 + 63));
    }

    @Test
    void goodEntropiesAreRecycledOldestFirstOnceEachAndMarkedOnesAreNot() {
        Reps.State s = new Reps.State(8);
        reps.feedback(s, 0xC005, true, 10 * US, 10 * US);
        reps.feedback(s, 0xC007, false, 10 * US, 11 * US); // ECN-marked: forgotten
        reps.feedback(s, 0xC009, true, 10 * US, 12 * US);
        assertThat(reps.nextEntropy(s)).isEqualTo(0xC005);
        assertThat(reps.nextEntropy(s)).isEqualTo(0xC009);
        assertThat(s.numFresh).isZero();
    }

    @Test
    void theCacheKeepsTheNewestEightEntropies() {
        Reps.State s = new Reps.State(8);
        for (int i = 0; i < 10; i++) reps.feedback(s, 0xC000 + i, true, 10 * US, i * US);
        for (int i = 2; i < 10; i++) assertThat(reps.nextEntropy(s)).isEqualTo(0xC000 + i);
    }

    @Test
    void aTimeoutThatIsNotCongestionFreezesOnCachedEntropiesThenExploresAfterTheFreeze() {
        Reps.State s = new Reps.State(8);
        reps.feedback(s, 0xC001, true, 10 * US, 10 * US);
        reps.feedback(s, 0xC002, true, 10 * US, 11 * US);
        reps.timeout(s, 1000 * US);
        assertThat(s.frozen).isTrue();
        // frozen: only the two cached entropies, cycled, never a random one
        for (int i = 0; i < 50; i++) assertThat(reps.nextEntropy(s)).isIn(0xC001, 0xC002);
        // after FREEZE_TIME (10 ms) the next feedback exits the freeze and clears the cache
        reps.feedback(s, 0xC003, false, 10 * US, 1000 * US + 10_001 * US);
        assertThat(s.frozen).isFalse();
        assertThat(s.exploreCounter).isEqualTo(16);
        assertThat(s.count).isZero();
    }

    @Test
    void aTimeoutAfterInflatedRttsIsTakenAsCongestionAndDoesNotFreeze() {
        Reps.State s = new Reps.State(8);
        reps.feedback(s, 0xC001, true, 10 * US, 10 * US);
        reps.feedback(s, 0xC002, true, 30 * US, 40 * US); // 3x the base RTT
        reps.timeout(s, 1000 * US);
        assertThat(s.frozen).isFalse();
    }
}

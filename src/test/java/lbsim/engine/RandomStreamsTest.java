package lbsim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomStreamsTest {
    private static long[] draw(SplittableRandom r, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = r.nextLong();
        return out;
    }

    @Test
    void sameNameAndSeedGiveTheSameNumbers() {
        assertThat(draw(new RandomStreams(17).stream("ecmp.leaf3"), 100))
                .containsExactly(draw(new RandomStreams(17).stream("ecmp.leaf3"), 100));
        assertThat(new RandomStreams(17).derive("x")).isEqualTo(new RandomStreams(17).derive("x"));
    }

    @Test
    void differentNamesOrSeedsDiffer() {
        RandomStreams rs = new RandomStreams(17);
        long[] a = draw(rs.stream("workload"), 50);
        assertThat(draw(rs.stream("workload2"), 50)).isNotEqualTo(a);
        assertThat(draw(rs.stream("ecmp.leaf3"), 50)).isNotEqualTo(a);
        assertThat(draw(new RandomStreams(18).stream("workload"), 50)).isNotEqualTo(a);
        // names that differ only slightly, and seeds 0/1, still give unrelated streams
        assertThat(rs.derive("ecmp.leaf1")).isNotEqualTo(rs.derive("ecmp.leaf2"));
        assertThat(new RandomStreams(0).derive("a")).isNotEqualTo(new RandomStreams(1).derive("a"));
    }

    @Test
    void addingAStreamDoesNotPerturbAnother() {
        RandomStreams alone = new RandomStreams(5);
        long[] expected = draw(alone.stream("workload"), 200);

        RandomStreams crowded = new RandomStreams(5);
        SplittableRandom other = crowded.stream("ecmp");
        draw(other, 1000);
        SplittableRandom w = crowded.stream("workload");
        long[] got = new long[200];
        for (int i = 0; i < 200; i++) {
            got[i] = w.nextLong();
            other.nextLong(); // interleaved use of another stream
            crowded.stream("flaky." + i).nextLong(); // and brand-new streams
        }
        assertThat(got).containsExactly(expected);
    }
}

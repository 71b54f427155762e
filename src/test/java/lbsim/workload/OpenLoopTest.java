package lbsim.workload;

import lbsim.transport.FlowSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Poisson generator alone (no simulation). */
class OpenLoopTest {
    static final int HOSTS = 128;
    static final long RATE = 100_000_000_000L;

    static long[] rates(int n) {
        long[] r = new long[n];
        Arrays.fill(r, RATE);
        return r;
    }

    /** Duration giving about {@code flows} flows over all hosts. */
    static long durationPs(FlowSizeDistribution d, double load, double flows) {
        double perHostPerPs = load * RATE / 8.0 / d.meanBytes() / 1e12;
        return (long) (flows / HOSTS / perHostPerPs);
    }

    @ParameterizedTest(name = "{0} at load {1}")
    // flow counts: the relative spread of the offered load is sqrt(E[X^2] / mean^2 / flows); these keep 2 % beyond 4 sigma
    @CsvSource({"hadoop, 0.8, 1500000", "alicloud, 0.5, 1000000", "ml-training, 0.8, 200000"})
    void offeredLoadIsWithinTwoPercentOfTheTarget(String name, double load, double flows) {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn(name);
        long dur = durationPs(d, load, flows);
        OpenLoop ol = new OpenLoop(d, load, dur, rates(HOSTS), null);
        long[] bytes = new long[1];
        long[] count = new long[1];
        ol.generate(new SplittableRandom(1), (src, dst, size, at) -> {
            bytes[0] += size;
            count[0]++;
        });
        double offered = bytes[0] * 8.0 / ((double) RATE * HOSTS * dur / 1e12);
        assertThat(count[0]).isBetween((long) (0.98 * flows), (long) (1.02 * flows));
        assertThat(offered).as("offered load").isCloseTo(load, within(0.02 * load));
    }

    @Test
    void interArrivalTimesAreExponential() {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn("alicloud");
        long dur = durationPs(d, 0.5, 100_000);
        OpenLoop ol = new OpenLoop(d, 0.5, dur, rates(HOSTS), null);
        long[] last = new long[HOSTS];
        Arrays.fill(last, -1);
        List<Double> gaps = new ArrayList<>();
        double lambda = ol.arrivalsPerPs(0);
        ol.generate(new SplittableRandom(3), (src, dst, size, at) -> {
            if (last[src] >= 0) gaps.add((at - last[src]) * lambda); // in units of the mean gap
            last[src] = at;
        });
        double[] g = gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = g.length;
        double mean = Arrays.stream(g).average().orElseThrow();
        double var = Arrays.stream(g).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
        assertThat(mean).isCloseTo(1.0, within(0.02));
        assertThat(var).isCloseTo(1.0, within(0.04)); // exponential: variance = mean^2
        double ks = 0;
        for (int i = 0; i < n; i++) {
            double f = 1 - Math.exp(-g[i]);
            ks = Math.max(ks, Math.max(Math.abs((i + 1.0) / n - f), Math.abs((double) i / n - f)));
        }
        assertThat(ks).as("KS distance to Exp(1)").isLessThan(1.63 / Math.sqrt(n)); // alpha = 0.01
    }

    @Test
    void pairsAreDistinctUniformAndInterRackWhenAsked() {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn("alicloud");
        int hosts = 16;
        int[] rack = new int[hosts];
        for (int h = 0; h < hosts; h++) rack[h] = h / 4;
        long dur = 20_000_000_000L;
        int[][] pairCount = new int[hosts][hosts];
        new OpenLoop(d, 0.5, dur, rates(hosts), null).generate(new SplittableRandom(5), (s, t, size, at) -> {
            assertThat(t).isNotEqualTo(s);
            pairCount[s][t]++;
        });
        // any pair: host 0's destinations are roughly uniform over the 15 others
        int total = Arrays.stream(pairCount[0]).sum();
        for (int t = 1; t < hosts; t++) assertThat((double) pairCount[0][t]).isCloseTo(total / 15.0, within(0.2 * total / 15.0));
        new OpenLoop(d, 0.5, dur / 10, rates(hosts), rack).generate(new SplittableRandom(5),
                (s, t, size, at) -> assertThat(rack[t]).isNotEqualTo(rack[s]));
    }

    @Test
    void theGraphIsDeterministicSortedAndDependencyFree() {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn("hadoop");
        OpenLoop ol = new OpenLoop(d, 0.8, 20_000_000L, rates(32), null);
        FlowGraph a = ol.build(new SplittableRandom(11));
        FlowGraph b = ol.build(new SplittableRandom(11));
        assertThat(a.size()).isEqualTo(b.size()).isPositive();
        for (int i = 0; i < a.size(); i++) {
            FlowSpec x = a.flows().get(i), y = b.flows().get(i);
            assertThat(new long[] {x.src(), x.dst(), x.sizeBytes(), x.startPs()})
                    .containsExactly(y.src(), y.dst(), y.sizeBytes(), y.startPs());
            assertThat(x.afterCount()).isZero();
            assertThat(x.startPs()).isLessThan(20_000_000L);
            if (i > 0) assertThat(x.startPs()).isGreaterThanOrEqualTo(a.flows().get(i - 1).startPs());
        }
        assertThat(ol.build(new SplittableRandom(12)).flows().get(0)).isNotEqualTo(a.flows().get(0));
    }
}

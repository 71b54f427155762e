package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlowSizeDistributionTest {
    static FlowSizeDistribution parse(String text) throws Exception {
        return FlowSizeDistribution.parse("t.csv", new StringReader(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hadoop", "alicloud", "ml-training"})
    void sampledSizesFollowTheTable(String name) {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn(name);
        int n = 200_000;
        long[] x = new long[n];
        SplittableRandom rnd = new SplittableRandom(7);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            x[i] = d.sample(rnd);
            sum += x[i];
        }
        Arrays.sort(x);
        // Kolmogorov-Smirnov distance between the sample and the interpolated CDF, checked at
        // every sample point (DKW: P(D > 0.006) < 1e-3 for n = 200000); rounding to whole bytes
        // moves a value by at most half a byte, so compare against F(x + 0.5)
        double worst = 0;
        for (int i = 0; i < n; i++) {
            if (i + 1 < n && x[i + 1] == x[i]) continue;
            double f = d.cdfAt(x[i] + 0.5);
            worst = Math.max(worst, Math.abs((i + 1) / (double) n - f));
        }
        assertThat(worst).as(name + " KS distance").isLessThan(0.006);
        assertThat(sum / n).as(name + " mean").isCloseTo(d.meanBytes(), within(0.03 * d.meanBytes()));
    }

    /** The ns-3 traffic generators' percent tables (SIZE CDF_PERCENT, from "0 0") read as the same CSV table in fractions. */
    @Test
    void aPercentTableIsTheSameDistributionAsItsCsvInFractions() throws Exception {
        String percent = "0 0\n10000 15\n20000 20\n30000 30\n50000 40\n80000 53\n200000 60\n1000000 70\n2000000 80\n"
                + "5000000 90\n10000000 97\n30000000 100\n";
        // the CSV form has no size-0 row, so compare the tables from their second row on (mass 15 % at 10 kB in both)
        StringBuilder csv = new StringBuilder("size_bytes,cdf\n");
        for (String l : percent.substring(percent.indexOf('\n') + 1).split("\n")) {
            String[] w = l.split(" ");
            csv.append(w[0]).append(',').append(Double.parseDouble(w[1]) / 100).append('\n');
        }
        FlowSizeDistribution p = parse(percent.substring(percent.indexOf('\n') + 1)), c = parse(csv.toString());
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 1000; i++) {
            double u = rnd.nextDouble();
            assertThat(p.quantile(u)).isCloseTo(c.quantile(u), within(1e-6 * c.quantile(u) + 1e-9));
        }
        // the mean as the generators compute it (trapezoids between points, from size 0): sum (x_i + x_i-1) / 2 x (y_i - y_i-1) / 100
        double[][] pts = {{0, 0}, {10000, 15}, {20000, 20}, {30000, 30}, {50000, 40}, {80000, 53}, {200000, 60}, {1000000, 70},
            {2000000, 80}, {5000000, 90}, {10000000, 97}, {30000000, 100}};
        double mean = 0;
        for (int i = 1; i < pts.length; i++) mean += (pts[i][0] + pts[i - 1][0]) / 2 * (pts[i][1] - pts[i - 1][1]) / 100;
        FlowSizeDistribution zero = parse(percent);
        assertThat(zero.meanBytes()).isCloseTo(mean, within(1e-6 * mean));
        assertThat(zero.cdfAt(5_000)).isCloseTo(0.075, within(1e-12));   // the first segment runs from 0 bytes
        assertThat(zero.cdfAt(80_000)).isCloseTo(0.53, within(1e-12));
        assertThat(zero.sample(new SplittableRandom(1))).isPositive();
        // the example file is that table
        assertThat(FlowSizeDistribution.file(Path.of("examples/cdf/websearch-percent.txt")).meanBytes()).isCloseTo(mean, within(1e-6 * mean));
    }

    @Test
    void percentTablesThatDoNotEndAt100OrMixFormsAreRefusedByLine() {
        assertThatThrownBy(() -> parse("0 0\n100 50\n200 90\n")).hasMessageContaining("t.csv:3: the last cdf must be 100 (percent), got 90");
        assertThatThrownBy(() -> parse("0 0\n100,0.5\n")).hasMessageContaining("t.csv:2: expected SIZE CDF_PERCENT");
        assertThatThrownBy(() -> parse("10 0\n100 150\n")).hasMessageContaining("t.csv:2: cdf must be in [0, 100]");
        assertThatThrownBy(() -> parse("10 0\n0 0\n")).hasMessageContaining("t.csv:2: SIZE must be positive");
        assertThatThrownBy(() -> parse("0 10\n100 100\n")).hasMessageContaining("t.csv:1: SIZE must be positive (or 0 with cdf 0");
    }

    @Test
    void hadoopTableMatchesWhatHopperStates() {
        FlowSizeDistribution d = FlowSizeDistribution.builtIn("hadoop");
        // Hopper §4.1.2: "only less than 5% of flows are larger than 266KB"
        assertThat(1 - d.cdfAt(266_000)).isBetween(0.049, 0.0525);
        // "a small percentage of flows are between 2KB and 49KB"
        assertThat(d.cdfAt(49_000) - d.cdfAt(2_000)).isLessThan(0.15);
        assertThat(d.maxBytes()).isEqualTo(10_000_000);
        FlowSizeDistribution ali = FlowSizeDistribution.builtIn("alicloud");
        assertThat(ali.cdfAt(8000)).isCloseTo(0.6921, within(1e-9));
        assertThat(ali.maxBytes()).isEqualTo(2_000_000);
        // ML-training: "substantially larger" flows: its median exceeds the datacenter tables' p95
        FlowSizeDistribution ml = FlowSizeDistribution.builtIn("ml-training");
        assertThat(ml.quantile(0.5)).isGreaterThan(d.quantile(0.95)).isGreaterThan(ali.quantile(0.95));
    }

    @Test
    void meanIsTheIntegralOfTheInterpolatedTable() throws Exception {
        // half the mass at 100 exactly, half uniform on [100, 300]: mean 0.5*100 + 0.5*200 = 150
        FlowSizeDistribution d = parse("size_bytes,cdf\n100,0.5\n300,1.0\n");
        assertThat(d.meanBytes()).isCloseTo(150, within(1e-9));
        assertThat(d.quantile(0.25)).isEqualTo(100);
        assertThat(d.quantile(0.75)).isCloseTo(200, within(1e-9));
    }

    @Test
    void badTablesAreRefusedNamingTheLine() {
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,0.5\n50,1.0\n")).hasMessageContaining("t.csv:3")
                .hasMessageContaining("below the previous");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,0.5\n200,0.4\n300,1\n")).hasMessageContaining("t.csv:3")
                .hasMessageContaining("monotone");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,0.5\n200,0.9\n")).hasMessageContaining("t.csv:3")
                .hasMessageContaining("1.0");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n0,0\n200,1\n")).hasMessageContaining("t.csv:2")
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n-5,0\n200,1\n")).hasMessageContaining("positive");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,abc\n")).hasMessageContaining("t.csv:2");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,0.2,3\n")).hasMessageContaining("2 columns");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n100,1.5\n")).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> parse("size_bytes,cdf\n")).hasMessageContaining("no rows");
    }

    static final String FABRIC = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: open-loop, distribution: %s, load: 0.1, duration_us: 5}
            """;

    @Test
    void aUserFileIsReadAndABadOneIsBadInput(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.csv");
        Files.writeString(good, "size_bytes,cdf\n1000,0\n5000,1\n");
        var sc = Scenarios.parse(FABRIC.formatted(good));
        assertThat(sc.workload().isOpenLoop()).isTrue();
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "size_bytes,cdf\n1000,0.5\n5000,0.4\n");
        assertThatThrownBy(() -> Scenarios.parse(FABRIC.formatted(bad))).isInstanceOf(BadInputException.class)
                .hasMessageContaining("workload.distribution").hasMessageContaining("bad.csv:3");
        assertThatThrownBy(() -> Scenarios.parse(FABRIC.formatted("websearch"))).isInstanceOf(BadInputException.class)
                .hasMessageContaining("hadoop, alicloud, ml-training");
    }
}

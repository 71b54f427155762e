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

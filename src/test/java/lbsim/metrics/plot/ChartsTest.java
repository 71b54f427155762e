package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every chart type renders headless to a decodable PNG and a well-formed SVG, from plain data. */
class ChartsTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static Series line(String name, double... y) {
        double[] x = new double[y.length];
        for (int i = 0; i < y.length; i++) x[i] = Math.pow(4, i + 8); // 64 KB, 256 KB, ...
        return new Series(name, x, y);
    }

    @Test
    void allChartTypesOnOnePageAreSelfContained() throws Exception {
        Path plots = tmp.resolve("plots");
        ReportPage page = new ReportPage(tmp, "all charts");
        page.figure(Charts.cctVsSize("CCT vs size", List.of(line("ecmp", 10, 30, 110, 400), line("reps", 9, 25, 90, 330)), plots, "cct"), "cct");
        page.figure(Charts.normalisedBars("normalised", List.of(
                new BarGroup("ecmp", List.of(Bar.ofSamples("1MB", 1.3, 1.4, 1.2), Bar.ofSamples("16MB", 1.2, 1.25))),
                new BarGroup("reps", List.of(Bar.ofSamples("1MB", 1.05, 1.04), Bar.ofSamples("16MB", 1.02, 1.03)))), plots, "norm"), "norm");
        page.figure(Charts.slowdownBySize("slowdown", List.of(new BarGroup("ecmp", List.of(new Bar("1KB-10KB", 3, 1),
                new Bar("1MB-10MB", 1.5, 0.2)))), plots, "slow"), "slow");
        page.figure(Charts.throughput("tput", List.of(new Series("ecmp", new double[] {0, 1, 2}, new double[] {100, 380, 50})), plots, "tput"), "t");
        page.figure(Charts.cdf("cdf", "FCT (us)", true, List.of(new Series("ecmp", new double[] {1, 2, 5}, new double[] {0.3, 0.6, 1})), plots, "cdf"), "c");
        page.figure(Charts.qpHistogram("qps", List.of(new BarGroup("ethereal", List.of(new Bar("32", 100, 0), new Bar("4", 28, 0)))), plots, "qps"), "q");
        page.figure(Charts.heatMap(new HeatMap("util", "leaf", "spine", List.of("leaf0", "leaf1"), List.of("spine0", "spine1", "spine2"),
                new double[][] {{0.1, 0.9, Double.NaN}, {1.0, 0.0, 0.5}}), plots, "heat"), "h");
        Path html = page.write();
        List<String> refs = ReportCheck.assertSelfContained(html);
        assertThat(refs).hasSize(14).contains("plots/heat.png", "plots/heat.svg", "plots/qps.png");
    }

    @Test
    void lineAndBarChartsHaveTheDocumentedSize() throws Exception {
        ChartFiles c = Charts.throughput("t", List.of(new Series("a", new double[] {0, 1}, new double[] {1, 2})), tmp, "t");
        BufferedImage img = ImageIO.read(c.png().toFile());
        assertThat(img.getWidth()).isEqualTo(Charts.WIDTH);
        assertThat(img.getHeight()).isEqualTo(Charts.HEIGHT);
        assertThat(ReportCheck.parseXml(c.svg()).getDocumentElement().getAttribute("viewBox")).isEqualTo("0 0 800 480");
    }

    @Test
    void heatMapGrowsWithItsRowsSoEveryRowKeepsALabel() throws Exception {
        List<String> rows = new java.util.ArrayList<>();
        double[][] v = new double[64][4];
        for (int r = 0; r < 64; r++) rows.add("tor" + r);
        ChartFiles c = Charts.heatMap(new HeatMap("big", "tor", "agg", rows, List.of("a", "b", "c", "d"), v), tmp, "big");
        assertThat(ImageIO.read(c.png().toFile()).getHeight()).isGreaterThanOrEqualTo(64 * 20);
    }

    @Test
    void unusableInputIsRefusedWithTheChartTitle() {
        assertThatThrownBy(() -> Charts.cctVsSize("empty", List.of(), tmp, "e")).hasMessageContaining("empty");
        // on a log axis a series with only x <= 0 has nothing to draw
        assertThatThrownBy(() -> Charts.cctVsSize("zero", List.of(new Series("s", new double[] {0}, new double[] {1})), tmp, "z"))
                .hasMessageContaining("no plottable point");
        assertThatThrownBy(() -> Charts.throughput("t", List.of(new Series("s", new double[] {1}, new double[] {1})), tmp, "../x"))
                .hasMessageContaining("file name");
    }

    @Test
    void niceCeilingRoundsUpToAReadableScale() {
        assertThat(Charts.niceCeiling(0)).isEqualTo(0.05);
        assertThat(Charts.niceCeiling(0.17)).isEqualTo(0.2);
        assertThat(Charts.niceCeiling(0.2)).isEqualTo(0.2);
        assertThat(Charts.niceCeiling(0.21)).isEqualTo(0.25);
        assertThat(Charts.niceCeiling(0.9)).isEqualTo(1.0);
        assertThat(Charts.niceCeiling(1.3)).isEqualTo(2.0);
        assertThat(Charts.niceCeiling(37)).isEqualTo(50.0);
        assertThatThrownBy(() -> Charts.heatMap(new HeatMap("m", "r", "c", List.of("a"), List.of("b"), new double[][] {{0}}), 0, tmp, "m"))
                .hasMessageContaining("must be > 0");
    }

    @Test
    void barOfSamplesIsMeanAndSampleSd() {
        Bar b = Bar.ofSamples("x", 1, 2, 3, 4);
        assertThat(b.mean()).isEqualTo(2.5);
        assertThat(b.sd()).isCloseTo(Math.sqrt(5.0 / 3.0), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Bar.ofSamples("one", 7).sd()).isZero();
    }
}

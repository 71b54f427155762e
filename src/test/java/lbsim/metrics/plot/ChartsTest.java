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
        assertThat(refs).hasSize(21).contains("plots/heat.png", "plots/heat.svg", "plots/heat.pdf", "plots/qps.png");
    }

    @Test
    void lineAndBarChartsHaveTheDocumentedSize() throws Exception {
        ChartFiles c = Charts.throughput("t", List.of(new Series("a", new double[] {0, 1}, new double[] {1, 2})), tmp, "t");
        BufferedImage img = ImageIO.read(c.png().toFile());
        assertThat(img.getWidth()).isEqualTo(Charts.WIDTH * ChartWriter.PNG_SCALE);   // print resolution
        assertThat(img.getHeight()).isEqualTo(Charts.HEIGHT * ChartWriter.PNG_SCALE);
        assertThat(c.width()).isEqualTo(Charts.WIDTH);                                // shown at the chart's size
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

    private static List<String> schemes(int n) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) out.add("scheme-number-" + i);
        return out;
    }

    @Test
    void twentySchemeBarsAreEveryOneACategoryWithALabelAndTheIdealLine() {
        List<Bar> bars = schemes(20).stream().map(s -> new Bar(s, 1.2, 0)).toList();
        org.knowm.xchart.CategoryChart c = Charts.bars("n", "", "CCT / ideal", List.of(new BarGroup("x ideal", bars)), true);
        assertThat(new java.util.ArrayList<Object>(c.getSeries("x ideal").getXData())).containsExactlyElementsOf(schemes(20));
        // XChart drops tick labels closer than the spacing hint; vertical labels 8 px apart fit every category
        assertThat(c.getStyler().getXAxisLabelRotation()).isEqualTo(90);
        assertThat(c.getStyler().getXAxisTickMarkSpacingHint()).isLessThanOrEqualTo(8);
        assertThat(c.getStyler().getYAxisMin()).isEqualTo(0.0);
    }

    @Test
    void twentySeriesGetTwentyColoursAndRoomForEveryLegendEntry() throws Exception {
        assertThat(java.util.Arrays.stream(Charts.PALETTE).distinct().count()).isEqualTo(20);
        List<Series> many = new java.util.ArrayList<>();
        for (String s : schemes(20)) many.add(new Series(s, new double[] {0, 1}, new double[] {1, 2}));
        ChartFiles c = Charts.throughput("t", many, tmp, "t20");
        // a legend entry is about 30 px tall on the right of the plot: the canvas grows with the series
        assertThat(ImageIO.read(c.png().toFile()).getHeight()).isGreaterThanOrEqualTo(30 * 20 + 60);
        List<BarGroup> groups = schemes(20).stream().map(s -> new BarGroup(s, List.of(new Bar("1MB-10MB (n=3)", 1.5, 0.1)))).toList();
        assertThat(Charts.bars("s", "flow size", "slowdown", groups, true).getHeight()).isGreaterThanOrEqualTo(30 * 20 + 60);
    }

    @Test
    void logAxisTicksAreLabelledOnlyAtOneTwoFive() {
        assertThat(List.of(1.0, 2.0, 5.0, 10.0, 20.0, 500.0, 1000.0, 0.2).stream().map(Charts::oneTwoFive))
                .containsExactly("1", "2", "5", "10", "20", "500", "1,000", "0.2");
        assertThat(List.of(3.0, 4.0, 30.0, 300.0, 600.0, 7000.0).stream().map(Charts::oneTwoFive)).allMatch(String::isEmpty);
    }

    @Test
    void heatMapRampDarkensMonotonically() {
        double prev = Double.MAX_VALUE;
        for (java.awt.Color k : Charts.RAMP) {
            double lum = 0.2126 * k.getRed() + 0.7152 * k.getGreen() + 0.0722 * k.getBlue();
            assertThat(lum).isLessThan(prev);
            prev = lum;
        }
    }
}

package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Series stay distinguishable, units follow the magnitude, and every chart is PNG + SVG + PDF, the same bytes each time. */
class ChartStyleTest {
    @TempDir
    Path tmp;

    @Test
    void anyNumberOfSeriesUpToTwentyOneHasPairwiseDistinctColourAndDash() {
        qt().withFixedSeed(29L).withExamples(40).forAll(integers().between(1, SeriesStyle.DISTINCT)).checkAssert(n -> {
            Set<String> keys = new HashSet<>();
            for (int i = 0; i < n; i++) keys.add(SeriesStyle.of(i).lineKey());
            assertThat(keys).hasSize(n);
        });
    }

    @Test
    void seriesSharingAColourDifferInDashAndMarker() {
        for (int i = 0; i < 20; i++) {
            for (int j = i + 1; j < 20; j++) {
                SeriesStyle a = SeriesStyle.of(i), b = SeriesStyle.of(j);
                if (!a.colour().equals(b.colour())) continue;
                assertThat(a.dashName()).as("%d vs %d", i, j).isNotEqualTo(b.dashName());
                assertThat(a.markerName()).as("%d vs %d", i, j).isNotEqualTo(b.markerName());
            }
        }
    }

    @Test
    void barPaletteHasTwentyDistinctColours() {
        assertThat(new HashSet<>(List.of(Charts.PALETTE))).hasSize(20);
    }

    /** The rendered SVG, not only the style table: 20 series give 20 distinct (stroke colour, dash) pairs. */
    @Test
    void twentySchemesOnOneChartAreDrawnWithTwentyDistinctStrokes() throws Exception {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            double[] x = new double[100], y = new double[100];
            for (int k = 0; k < 100; k++) { x[k] = k + 1; y[k] = (k + 1) / 100.0; }
            series.add(new Series("scheme-" + i, x, y));
        }
        String svg = Files.readString(Charts.cdf("20", "flow completion time (us)", true, series, tmp, "many").svg());
        Matcher m = Pattern.compile("stroke:rgb\\(([0-9,]+)\\);stroke-width:2;[^\"]*?(stroke-dasharray:([0-9.,]+);)?\"").matcher(svg);
        Set<String> strokes = new HashSet<>();
        while (m.find()) strokes.add(m.group(1) + "/" + m.group(3));
        assertThat(strokes).hasSizeGreaterThanOrEqualTo(20);
    }

    /**
     * A CDF of few flows has equally spaced fractions (k/48), which XChart would otherwise label
     * one by one (49 labels down the axis): the y axis keeps round ticks, 0 to 1 in at most 11 labels.
     */
    @Test
    void aCdfOfFewFlowsKeepsRoundYTicks() throws Exception {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            double[] x = new double[48], y = new double[48];
            for (int k = 0; k < 48; k++) { x[k] = 5 + k * 0.5 + i; y[k] = (k + 1) / 48.0; }
            series.add(new Series("scheme-" + i, x, y));
        }
        ChartFiles f = Charts.cdf("few", "flow completion time (us)", true, series, tmp, "few");
        List<String> yTicks = VectorTextTest.contents(VectorTextTest.svgTexts(f.svg())).stream()
                .filter(t -> t.matches("0|1|0\\.\\d+")).toList();
        assertThat(yTicks).as("y tick labels").contains("0", "0.5", "1").hasSizeLessThanOrEqualTo(11)
                .allMatch(t -> t.length() <= 4, "round: at most two decimals");
    }

    @Test
    void everyChartIsWrittenAsPngSvgAndPdfWithTheSameBytesEachTime() throws Exception {
        List<Series> s = List.of(new Series("a", new double[] {0, 100, 200}, new double[] {10, 400, 50}),
                new Series("b", new double[] {0, 100, 200}, new double[] {20, 300, 60}));
        ChartFiles one = Charts.throughput("t", s, List.of(new Marker(50, "link-down x")), tmp.resolve("1"), "t");
        ChartFiles two = Charts.throughput("t", s, List.of(new Marker(50, "link-down x")), tmp.resolve("2"), "t");
        assertThat(new String(Files.readAllBytes(one.pdf()), 0, 5, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("%PDF-");
        assertThat(Files.readAllBytes(one.png())).isEqualTo(Files.readAllBytes(two.png()));
        assertThat(Files.readAllBytes(one.svg())).isEqualTo(Files.readAllBytes(two.svg()));
        assertThat(Files.readAllBytes(one.pdf())).isEqualTo(Files.readAllBytes(two.pdf()));
    }

    @Test
    void unitsKeepTheLargestValueBetweenOneAndAThousand() {
        qt().withFixedSeed(7L).withExamples(200).forAll(doubles().between(0, 12)).checkAssert(exp -> {
            double v = Math.pow(10, exp);
            for (Units u : List.of(Units.timeFromUs(v), Units.bytes(v), Units.rateFromGbps(v / 1e3))) {
                double shown = (u.name().endsWith("bit/s") ? v / 1e3 : v) * u.factor();
                boolean top = u.name().equals("s") || u.name().equals("GB") || u.name().equals("Tbit/s");
                assertThat(shown).as(u.name()).isGreaterThanOrEqualTo(v < 1 && !u.name().endsWith("bit/s") ? 0 : 1 - 1e-9);
                if (!top) assertThat(shown).as(u.name()).isLessThan(1000);
            }
        });
        assertThat(Units.timeFromUs(999).name()).isEqualTo("us");
        assertThat(Units.timeFromUs(1500).name()).isEqualTo("ms");
        assertThat(Units.rateFromGbps(3200).name()).isEqualTo("Tbit/s");
        assertThat(Units.rateFromGbps(400).name()).isEqualTo("Gbit/s");
        assertThat(Units.bytes(16e6).name()).isEqualTo("MB");
    }

    @Test
    void normalisedBarsStartAtTheIdealOnlyWhenNoBarReachesBelowIt() {
        assertThat(Charts.normalisedBaseline(List.of(new BarGroup("n", List.of(new Bar("a", 1.03, 0), new Bar("b", 1.37, 0.1)))))).isEqualTo(1.0);
        assertThat(Charts.normalisedBaseline(List.of(new BarGroup("n", List.of(new Bar("a", 1.03, 0.05), new Bar("b", 1.37, 0)))))).isEqualTo(0.0);
        assertThat(Charts.normalisedBaseline(List.of(new BarGroup("n", List.of(new Bar("a", 0.9, 0)))))).isEqualTo(0.0);
    }

    @Test
    void transposeSwapsSchemesAndBinsKeepingEveryBar() {
        List<BarGroup> g = List.of(new BarGroup("ecmp", List.of(new Bar("1KB", 3, 1), new Bar("1MB", 2, 0))),
                new BarGroup("reps", List.of(new Bar("1MB", 1.5, 0.2))));
        List<BarGroup> t = Charts.transpose(g);
        assertThat(t).containsExactly(new BarGroup("1KB", List.of(new Bar("ecmp", 3, 1))),
                new BarGroup("1MB", List.of(new Bar("ecmp", 2, 0), new Bar("reps", 1.5, 0.2))));
        assertThat(Charts.transpose(t)).containsExactlyInAnyOrderElementsOf(g);
    }
}

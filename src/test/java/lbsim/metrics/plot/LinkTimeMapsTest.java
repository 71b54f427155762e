package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkSeries;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The utilisation-over-time heat map is link_series.csv averaged over round windows, and the run report shows it. */
class LinkTimeMapsTest {
    @TempDir
    Path tmp;

    static final String RUN = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_latency_ns: 200}
            transport: {timeout_us: 30}
            workload: {kind: permutation, size_bytes: 400000}
            failures: [{at_us: 20, link: "leaf0-spine0", kind: down, detect_ms: 0.04}]
            metrics: {series: {links: "leaf*-spine*", interval_us: 0.5}}
            """;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    /** link_series.csv read back: link id -> (time_us at the interval's end -> utilisation). */
    private static Map<String, Map<Double, Double>> readSeries(Path csv) throws Exception {
        Map<String, Map<Double, Double>> out = new HashMap<>();
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).startsWith("time_us,link_id,utilisation,");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            out.computeIfAbsent(f[1], k -> new java.util.TreeMap<>()).put(Double.parseDouble(f[0]), Double.parseDouble(f[2]));
        }
        return out;
    }

    @Test
    void eachCellIsTheMeanOfTheCsvIntervalsInItsWindow() throws Exception {
        RunResult r = Scenarios.run(RUN);
        ResultWriter.write(r, tmp);
        Map<String, Map<Double, Double>> csv = readSeries(tmp.resolve("link_series.csv"));
        LinkSeries s = r.linkSeries();
        LinkTimeMaps.TimeMap tm = LinkTimeMaps.of(s, 12, 64);
        HeatMap m = tm.map();
        assertThat(tm.byClass()).isFalse();
        assertThat(m.rows()).hasSize(s.links()).containsAll(csv.keySet()).contains("leaf0->spine1", "spine1->leaf0");
        double end = s.endPs(s.intervals() - 1) / 1e6;
        assertThat(m.columns()).hasSize((int) Math.ceil(end / tm.windowUs() - 1e-9)).hasSizeLessThanOrEqualTo(12);
        // windows are round and whole intervals: each cell is the plain mean of the CSV rows ending in (start, start + window]
        assertThat(tm.windowUs() / (s.intervalPs() / 1e6) % 1).isCloseTo(0, within(1e-9));
        int checked = 0;
        for (int row = 0; row < m.rows().size(); row++) {
            Map<Double, Double> rows = csv.get(m.rows().get(row));
            for (int w = 0; w < m.columns().size(); w++) {
                double from = w * tm.windowUs(), to = from + tm.windowUs(), sum = 0, length = 0, prev = 0;
                for (var e : rows.entrySet()) {
                    double t = e.getKey(), len = t - prev;
                    if (t > from + 1e-9 && t <= to + 1e-9) { sum += e.getValue() * len; length += len; }
                    prev = t;
                }
                assertThat(m.values()[row][w]).as("%s window %d", m.rows().get(row), w).isCloseTo(sum / length, within(1e-4));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
        // the failed link carries traffic before the failure (and, lost, until it is detected at 60 us) and none after
        int dead = m.rows().indexOf("leaf0->spine0");
        assertThat(m.values()[dead][0]).isGreaterThan(0.01);
        int after = tm.column(60) + 1;   // the first window that starts after the detection
        assertThat(after).isBetween(1, m.columns().size() - 2);
        for (int w = after; w < m.columns().size(); w++) assertThat(m.values()[dead][w]).isZero();
    }

    @Test
    void manyDirectionsBecomeLinkClassesWithTheMeanOfTheirMembers() {
        RunResult r = Scenarios.run(RUN);
        LinkSeries s = r.linkSeries();
        LinkTimeMaps.TimeMap perLink = LinkTimeMaps.of(s, 12, 64), perClass = LinkTimeMaps.of(s, 12, 4);
        assertThat(perClass.byClass()).isTrue();
        assertThat(perClass.map().rows()).containsExactly("leaf \u2192 spine", "spine \u2192 leaf");
        for (int w = 0; w < perLink.map().columns().size(); w++) {
            for (String cls : perClass.map().rows()) {
                List<Double> members = new ArrayList<>();
                for (int row = 0; row < perLink.map().rows().size(); row++) {
                    if (LinkTimeMaps.linkClass(perLink.map().rows().get(row)).equals(cls)) members.add(perLink.map().values()[row][w]);
                }
                assertThat(members).hasSize(4);
                double mean = members.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                assertThat(perClass.map().values()[perClass.map().rows().indexOf(cls)][w]).isCloseTo(mean, within(1e-12));
            }
        }
    }

    @Test
    void windowsSplitIntervalsProRataSoTheTimeIntegralIsKept() {
        RunResult r = Scenarios.run(RUN);
        LinkSeries s = r.linkSeries();
        // 7 windows over a run that is not a round number of intervals: boundaries cut intervals
        LinkTimeMaps.TimeMap tm = LinkTimeMaps.of(s, 7, 64);
        double end = s.endPs(s.intervals() - 1) / 1e6;
        for (int i = 0; i < s.links(); i++) {
            double want = 0, got = 0;
            for (int k = 0; k < s.intervals(); k++) want += s.utilisation(k, i) * s.lengthPs(k) / 1e6;
            int row = tm.map().rows().indexOf(s.linkId(i));
            for (int w = 0; w < tm.map().columns().size(); w++) {
                double len = Math.min(end, (w + 1) * tm.windowUs()) - w * tm.windowUs();
                got += tm.map().values()[row][w] * len;
            }
            assertThat(got).as(s.linkId(i)).isCloseTo(want, within(1e-9 * Math.max(1, want)));
        }
    }

    @Test
    void runReportShowsTheMapWithItsEventsAndAColourScaleInPercent() throws Exception {
        RunResult r = Scenarios.run(RUN);
        Path html = RunReport.write(r, tmp);
        String page = Files.readString(html);
        assertThat(page).contains("Link utilisation over time", "plots/util-over-time.png", "Windows marked * hold the run's events",
                "link-down leaf0-spine0 at ");
        ReportCheck.assertSelfContained(html);
        List<String> texts = VectorTextTest.contents(VectorTextTest.svgTexts(tmp.resolve("plots/util-over-time.svg")));
        assertThat(texts).contains("Link utilisation over time", "utilisation (%)", "leaf0->spine0", "link direction");
        assertThat(texts.stream().filter(t -> t.endsWith(" *"))).isNotEmpty();   // the failure's window, marked on the time axis
    }

    @Test
    void aRunWithoutSeriesHasNoTimeMap() throws Exception {
        RunResult r = Scenarios.run(RUN.replace("metrics: {series: {links: \"leaf*-spine*\", interval_us: 0.5}}\n", ""));
        assertThat(Files.readString(RunReport.write(r, tmp))).doesNotContain("util-over-time");
    }

    /** The colour bar's colour for a value is the colour XChart fills a cell of that value with. */
    @Test
    void colourBarMatchesTheCellsColours() throws Exception {
        double[] values = {0, 0.01, 0.02, 0.035, 0.05};
        ChartFiles c = Charts.heatMap(new HeatMap("m", "r", "c", List.of("a"), List.of("0", "1", "2", "3", "4"), new double[][] {values}),
                0.05, tmp, "m");
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(c.png().toFile());
        for (double v : values) {
            java.awt.Color want = ColourBar.colour(Charts.RAMP, v / 0.05);
            int near = 0;
            for (int y = 0; y < img.getHeight(); y += 2) {
                for (int x = 0; x < img.getWidth() - 2 * ColourBar.WIDTH; x += 2) {   // the cells, not the bar
                    java.awt.Color p = new java.awt.Color(img.getRGB(x, y));
                    if (Math.abs(p.getRed() - want.getRed()) + Math.abs(p.getGreen() - want.getGreen()) + Math.abs(p.getBlue() - want.getBlue()) <= 6) near++;
                }
            }
            assertThat(near).as("cells of %s coloured %s", v, want).isGreaterThan(1000);
        }
    }

    @Test
    void colourBarTicksAreRoundAndCoverTheScale() {
        assertThat(new ColourBar(Charts.RAMP, 0.05, 100, "u").ticks()).containsExactly(0.0, 0.01, 0.02, 0.03, 0.04, 0.05);
        assertThat(new ColourBar(Charts.RAMP, 1, 100, "u").ticks()).containsExactly(0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
        assertThat(new ColourBar(Charts.RAMP, 0.25, 100, "u").ticks()).containsExactly(0.0, 0.05, 0.1, 0.15, 0.2, 0.25);
        assertThat(ColourBar.colour(Charts.RAMP, 0)).isEqualTo(Charts.RAMP[0]);
        assertThat(ColourBar.colour(Charts.RAMP, 1)).isEqualTo(Charts.RAMP[Charts.RAMP.length - 1]);
        assertThat(ColourBar.colour(Charts.RAMP, 0.25)).isEqualTo(Charts.RAMP[1]);
    }
}

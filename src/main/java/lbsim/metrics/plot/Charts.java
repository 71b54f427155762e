package lbsim.metrics.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The entry point for lbsim's charts. Every method takes plain data (no simulator types),
 * draws one chart and writes it twice into {@code dir}: {@code name.png} and {@code name.svg}.
 * Rendering is headless. Use {@link FlowMetrics} and {@link LinkHeatMaps} to turn run results
 * into these inputs, and {@link ReportPage} to put the charts on an HTML page.
 */
public final class Charts {
    static final int WIDTH = 800;
    static final int HEIGHT = 480;

    static {
        Headless.ensure(); // before the first AWT class (Color, Font, XChart's builders) loads
    }

    private Charts() {}

    /** CCT (y, us) against message size (x, bytes, log scale), one line per scheme. */
    public static ChartFiles cctVsSize(String title, List<Series> perScheme, Path dir, String name) {
        Units size = Units.bytes(maxX(perScheme)), time = Units.timeFromUs(maxY(perScheme));
        List<Series> scaled = perScheme.stream().map(s -> time.scaleY(size.scaleX(s))).toList();
        XYChart c = lines(title, "message size (" + size.name() + ")", "collective completion time (" + time.name() + ")", true, false, scaled, true);
        // ticks only at powers of ten when the sizes span more than a decade (else XChart's labels overlap)
        double lo = Double.MAX_VALUE, hi = 0;
        for (Series s : scaled) for (double x : s.x()) if (x > 0) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
        if (hi > 10 * lo) c.getStyler().setXAxisLogarithmicDecadeOnly(true);
        return ChartWriter.write(c, dir, name);
    }

    /**
     * normalised (completion / ideal) as grouped bars with mean ± sd error bars over seeds; 1.0 is ideal.
     * The axis starts at {@link #normalisedBaseline}: at 1 (the ideal) when no bar or error bar reaches
     * below it, so the bars show the excess over the lower bound and small differences stay visible.
     */
    public static ChartFiles normalisedBars(String title, List<BarGroup> groups, Path dir, String name) {
        return normalisedBars(title, "", groups, dir, name);
    }

    /** {@link #normalisedBars(String, List, Path, String)} with a title for the categories (e.g. a sweep's grid columns). */
    public static ChartFiles normalisedBars(String title, String xLabel, List<BarGroup> groups, Path dir, String name) {
        CategoryChart c = withLineAt(bars(title, xLabel, "completion time / lower bound", groups, true), 1.0);
        c.getStyler().setYAxisMin(normalisedBaseline(groups));
        return ChartWriter.write(c, dir, name);
    }

    /** Where the y axis of {@link #normalisedBars} starts: 1 when every bar minus its sd is at least 1, else 0. */
    public static double normalisedBaseline(List<BarGroup> groups) {
        boolean any = false;
        for (BarGroup g : groups) {
            for (Bar b : g.bars()) {
                if (Double.isNaN(b.mean())) continue;
                any = true;
                if (b.mean() - (Double.isNaN(b.sd()) ? 0 : b.sd()) < 1) return 0;
            }
        }
        return any ? 1 : 0;
    }

    static double maxX(List<Series> series) {
        double m = 0;
        for (Series s : series) for (double x : s.x()) if (x > m) m = x;
        return m;
    }

    static double maxY(List<Series> series) {
        double m = 0;
        for (Series s : series) for (double y : s.y()) if (y > m) m = y;
        return m;
    }

    /** A dashed red horizontal line at {@code y} (data units): the bound or the break-even a bar chart is read against. */
    static CategoryChart withLineAt(CategoryChart c, double y) {
        c.addAnnotation(new AnnotationLine(y, false, false));
        c.getStyler().setAnnotationLineColor(Color.RED).setAnnotationLineStroke(
                new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        return c;
    }

    /**
     * FCT slowdown (y) by flow-size bin (x categories), grouped bars per scheme with error bars. With
     * more schemes than the palette has colours the chart is turned around: one category per scheme
     * (every scheme named under its bars) and one colour per size bin, so no two schemes share a colour.
     */
    public static ChartFiles slowdownBySize(String title, List<BarGroup> perScheme, Path dir, String name) {
        if (perScheme.size() > SeriesStyle.COLOURS.length) {
            return ChartWriter.write(bars(title, "scheme", "FCT slowdown (mean; 1 = as on the idle fabric)", transpose(perScheme), true), dir, name);
        }
        return ChartWriter.write(bars(title, "flow size", "FCT slowdown (mean; 1 = as on the idle fabric)", perScheme, true), dir, name);
    }

    /** Groups become categories and categories groups (a bar keeps its height and sd); categories keep their first-seen order. */
    static List<BarGroup> transpose(List<BarGroup> groups) {
        java.util.Map<String, List<Bar>> byCategory = new java.util.LinkedHashMap<>();
        for (BarGroup g : groups) {
            for (Bar b : g.bars()) byCategory.computeIfAbsent(b.category(), k -> new ArrayList<>()).add(new Bar(g.series(), b.mean(), b.sd()));
        }
        List<BarGroup> out = new ArrayList<>();
        byCategory.forEach((cat, bars) -> out.add(new BarGroup(cat, bars)));
        return out;
    }

    /** Total throughput (y, Gbit/s) over simulated time (x, us), one line per scheme. */
    public static ChartFiles throughput(String title, List<Series> perScheme, Path dir, String name) {
        return throughput(title, perScheme, List.of(), dir, name);
    }

    /** Colour of event markers: a dark red no scheme line uses. */
    static final Color MARKER = new Color(0x99, 0, 0);

    /** As {@link #throughput(String, List, Path, String)}, with the run's events as labelled vertical lines. */
    public static ChartFiles throughput(String title, List<Series> perScheme, List<Marker> events, Path dir, String name) {
        return ChartWriter.write(throughputChart(title, perScheme, events), dir, name);
    }

    static XYChart throughputChart(String title, List<Series> perScheme, List<Marker> events) {
        Units time = Units.timeFromUs(maxX(perScheme)), rate = Units.rateFromGbps(maxY(perScheme));
        List<Series> scaled = perScheme.stream().map(s -> rate.scaleY(time.scaleX(s))).toList();
        XYChart c = lines(title, "simulated time (" + time.name() + ")", "throughput (" + rate.name() + ")", false, false, scaled, false);
        c.getStyler().setXAxisMin(0.0); // ticks at round multiples from 0, not from the first interval's midpoint
        double xMax = maxX(scaled), yMax = maxY(scaled);
        int shown = 0;
        for (Marker event : events) {
            Marker m = new Marker(event.x() * time.factor(), event.label());
            if (m.x() < 0 || m.x() > xMax) continue;   // outside the axis: a line there would cross the legend
            c.addAnnotation(new AnnotationLine(m.x(), true, false));
            // XChart centres a label on its x: shift it by about half its width (7 px a character of
            // the plot's ~640 px) to the right of the line, or to the left near the right edge;
            // labels step down the chart so ones close in time stay readable
            double half = (m.label().length() * 3.5 + 6) / 640 * xMax;
            double x = m.x() + 2 * half <= xMax ? m.x() + half : m.x() - half;
            c.addAnnotation(new AnnotationText(m.label(), x, yMax * (0.95 - 0.07 * (shown++ % 6)), false));
        }
        if (shown > 0) {
            c.getStyler().setAnnotationLineColor(MARKER).setAnnotationLineStroke(
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            c.getStyler().setAnnotationTextFontColor(MARKER);
        }
        return c;
    }

    /**
     * An empirical CDF per series (y = fraction of samples at or below x). An x label ending in
     * "(us)" marks times in microseconds: they are shown in us, ms or s by their magnitude.
     */
    public static ChartFiles cdf(String title, String xLabel, boolean logX, List<Series> perScheme, Path dir, String name) {
        List<Series> shown = perScheme;
        if (xLabel.endsWith("(us)")) {
            Units time = Units.timeFromUs(maxX(perScheme));
            shown = perScheme.stream().map(time::scaleX).toList();
            xLabel = xLabel.substring(0, xLabel.length() - 4) + "(" + time.name() + ")";
        }
        XYChart c = lines(title, xLabel, "fraction at or below x", logX, false, shown, false, true);
        c.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        return ChartWriter.write(c, dir, name);
    }

    /** A histogram of the most QPs each NIC had open at once: x = QP count, bars per scheme (number of NICs). */
    public static ChartFiles qpHistogram(String title, List<BarGroup> perScheme, Path dir, String name) {
        return ChartWriter.write(bars(title, "max QPs open at once on a NIC", "NICs", perScheme), dir, name);
    }

    /**
     * QPs per NIC with one category per scheme ({@code groups}: for example the largest and the mean
     * over NICs of the most QPs each NIC had open at once), every scheme labelled.
     */
    public static ChartFiles qpsPerScheme(String title, List<BarGroup> groups, Path dir, String name) {
        return ChartWriter.write(bars(title, "", "QPs open at once on a NIC", groups, true), dir, name);
    }

    /** A heat map with a fixed 0..1 colour scale (utilisation), so maps of different schemes compare. */
    public static ChartFiles heatMap(HeatMap map, Path dir, String name) {
        return heatMap(map, 1.0, dir, name);
    }

    /**
     * A heat map with colour scale 0..{@code scaleMax}; give every map of one page the same
     * maximum (for example {@link #niceCeiling} of the page's largest value) so they compare.
     */
    public static ChartFiles heatMap(HeatMap map, double scaleMax, Path dir, String name) {
        if (!(scaleMax > 0)) throw new IllegalArgumentException(map.title() + ": colour scale maximum must be > 0");
        return ChartWriter.write(HeatMapDrawing.scene(map, scaleMax), dir, name);
    }

    /**
     * The heat maps' colour ramp: viridis reversed (light yellow at 0, through green and teal, to dark
     * purple at the maximum), so lightness falls monotonically with utilisation; cells with no link stay white.
     */
    static final Color[] RAMP = {new Color(0xfde725), new Color(0x5ec962), new Color(0x21918c), new Color(0x3b528b), new Color(0x440154)};

    /** The smallest of 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, ... at or above {@code x} (at least 0.05). */
    public static double niceCeiling(double x) {
        double[] steps = {0.05, 0.1, 0.2, 0.25, 0.5, 1};
        for (double st : steps) if (x <= st + 1e-12) return st;
        double p = 1;
        while (true) {
            for (double m : new double[] {2, 5, 10}) if (x <= m * p + 1e-12) return m * p;
            p *= 10;
        }
    }

    static XYChart lines(String title, String xLabel, String yLabel, boolean logX, boolean logY, List<Series> series,
                         boolean markers) {
        return lines(title, xLabel, yLabel, logX, logY, series, markers, false);
    }

    /**
     * As above; with {@code roundYTicks}, the y axis keeps round ticks even when the y values are
     * equally spaced: XChart then puts a tick on every distinct value (a CDF of 48 flows: 49 labels,
     * k/48, down the axis). It decides that from the distinct y values in the order the series hold
     * them, so an invisible first series holding the first series' last point (a CDF's 1.0) ahead of
     * the rest breaks the even spacing without drawing anything or moving the axis.
     */
    private static XYChart lines(String title, String xLabel, String yLabel, boolean logX, boolean logY, List<Series> series,
                         boolean markers, boolean roundYTicks) {
        if (series.isEmpty()) throw new IllegalArgumentException(title + ": no series");
        XYChart c = new XYChartBuilder().width(WIDTH).height(heightFor(series.size())).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(c.getStyler());
        c.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY).setMarkerSize(7);
        c.getStyler().setXAxisLogarithmicDecadeOnly(false).setXAxisDecimalPattern("#,##0.###").setYAxisDecimalPattern("#,##0.###");
        c.getStyler().setYAxisTickMarkSpacingHint(60); // a tall chart (long legend) keeps ~10 y ticks, not 40
        if (logX) c.getStyler().setxAxisTickLabelsFormattingFunction(Charts::oneTwoFive);
        if (!logY) c.getStyler().setYAxisMin(0.0);
        if (roundYTicks) {
            double[][] first = usable(series.get(0), logX, logY);
            int last = first[0].length - 1;
            if (last > 0) {
                XYSeries anchor = c.addSeries(" ", new double[] {first[0][last]}, new double[] {first[1][last]});
                anchor.setShowInLegend(false);
                anchor.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.NONE).setLineColor(new Color(0, 0, 0, 0));
            }
        }
        int i = 0;
        for (Series s : series) {
            double[][] xy = usable(s, logX, logY);
            if (xy[0].length == 0) throw new IllegalArgumentException(title + ": series " + s.name() + " has no plottable point");
            XYSeries xs = c.addSeries(s.name(), xy[0], xy[1]);
            // colour and dash differ for up to SeriesStyle.DISTINCT series; markers too where points are few enough to mark
            SeriesStyle st = SeriesStyle.of(i++);
            xs.setLineColor(st.colour()).setLineStyle(st.stroke());
            xs.setMarkerColor(st.colour());
            xs.setMarker(markers || xy[0].length <= MARKED_POINTS ? st.marker() : SeriesMarkers.NONE);
        }
        return c;
    }

    /**
     * A log axis's tick label: the value when its leading digit is 1, 2 or 5 (1, 2, 5, 10, 20, 50, ...),
     * else blank, so the 3..9 ticks XChart draws within each decade do not run into each other.
     */
    static String oneTwoFive(double v) {
        if (!(v > 0)) return "";
        double m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
        for (double k : new double[] {1, 2, 5}) {
            if (Math.abs(m - k) < 1e-6 * k) return new java.text.DecimalFormat("#,##0.###", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT)).format(v);
        }
        return "";
    }

    /** Lines with at most this many points get a marker at every point (denser lines: colour and dash only). */
    static final int MARKED_POINTS = 40;

    /**
     * Bar colours: Okabe-Ito's 7 (see {@link SeriesStyle}), then Paul Tol's muted and light schemes,
     * for grouped bar charts that keep more groups than 7 (bars have no dashes).
     */
    static final Color[] PALETTE = {
        SeriesStyle.COLOURS[0], SeriesStyle.COLOURS[1], SeriesStyle.COLOURS[2], SeriesStyle.COLOURS[3],
        SeriesStyle.COLOURS[4], SeriesStyle.COLOURS[5], SeriesStyle.COLOURS[6],
        new Color(0x332288), new Color(0x117733), new Color(0x999933), new Color(0xDDCC77), new Color(0xCC6677),
        new Color(0x882255), new Color(0xAA4499), new Color(0x44AA99), new Color(0xBBCC33), new Color(0xEE8866),
        new Color(0xFFAABB), new Color(0x77AADD), new Color(0xBBBBBB),
    };

    /** Chart height that leaves every legend entry room (about 30 px each) on the right of the plot. */
    static int heightFor(int series) {
        return series > 1 ? Math.max(HEIGHT, 100 + 30 * series) : HEIGHT;
    }

    /** Drops points that cannot be drawn (NaN, or not positive on a log axis). */
    private static double[][] usable(Series s, boolean logX, boolean logY) {
        int n = 0;
        double[] x = new double[s.size()], y = new double[s.size()];
        for (int i = 0; i < s.size(); i++) {
            double a = s.x()[i], b = s.y()[i];
            if (Double.isNaN(a) || Double.isNaN(b) || (logX && a <= 0) || (logY && b <= 0)) continue;
            x[n] = a;
            y[n++] = b;
        }
        return new double[][] {java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(y, n)};
    }

    /**
     * Grouped bars with any axis labels, one series per group, error bars (± sd) when any bar
     * has an sd; long category labels are turned vertical and the chart grows to fit them.
     * For example a sweep's metric per grid point, or ours next to a paper's numbers.
     */
    public static ChartFiles groupedBars(String title, String xLabel, String yLabel, List<BarGroup> groups, Path dir, String name) {
        return ChartWriter.write(bars(title, xLabel, yLabel, groups, true), dir, name);
    }

    /** {@link #groupedBars} with a dashed line at {@code lineAt} (e.g. 1.0 on ratio charts: no change). */
    public static ChartFiles groupedBars(String title, String xLabel, String yLabel, List<BarGroup> groups, double lineAt, Path dir, String name) {
        return ChartWriter.write(withLineAt(bars(title, xLabel, yLabel, groups, true), lineAt), dir, name);
    }

    static CategoryChart bars(String title, String xLabel, String yLabel, List<BarGroup> groups) {
        return bars(title, xLabel, yLabel, groups, false);
    }

    static CategoryChart bars(String title, String xLabel, String yLabel, List<BarGroup> groups, boolean fitLabels) {
        if (groups.isEmpty()) throw new IllegalArgumentException(title + ": no bar groups");
        Set<String> cats = new LinkedHashSet<>();
        boolean errors = false;
        for (BarGroup g : groups) {
            for (Bar b : g.bars()) {
                cats.add(b.category());
                errors |= b.sd() > 0;
            }
        }
        List<String> categories = new ArrayList<>(cats);
        if (categories.stream().allMatch(k -> k.matches("-?\\d{1,9}"))) categories.sort(java.util.Comparator.comparingInt(Integer::parseInt));
        int rotation = categories.size() > 8 ? 45 : 0, height = heightFor(groups.size()), width = WIDTH;
        if (fitLabels) {
            int longest = 0, all = 0;
            for (String k : categories) {
                longest = Math.max(longest, k.length());
                all += k.length() + 2;
            }
            // about 7 px per character at the default tick font; the plot area is about 600 px wide
            if (all * 7 > 600 || categories.size() > 8) rotation = longest > 10 ? 90 : 45;
            if (rotation > 0) height = heightFor(groups.size()) + Math.min(400, longest * (rotation == 90 ? 8 : 6));
            width = Math.min(1600, WIDTH + Math.max(0, categories.size() - 12) * 30);
        }
        CategoryChart c = new CategoryChartBuilder().width(width).height(height).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(c.getStyler());
        c.getStyler().setXAxisLabelRotation(rotation);
        if (fitLabels) c.getStyler().setXAxisTickMarkSpacingHint(8); // a label under every category (XChart thins crowded ones)
        c.getStyler().setErrorBarsColorSeriesColor(false).setErrorBarsColor(Color.BLACK);
        c.getStyler().setLegendVisible(groups.size() > 1);
        boolean negative = groups.stream().flatMap(g -> g.bars().stream()).anyMatch(b -> b.mean() < 0);
        if (!negative) c.getStyler().setYAxisMin(0.0); // non-negative quantities: the axis starts at 0, not below
        for (BarGroup g : groups) {
            List<Double> ys = new ArrayList<>(), es = new ArrayList<>();
            for (String cat : categories) {
                Bar b = null;
                for (Bar x : g.bars()) if (x.category().equals(cat)) b = x;
                ys.add(b == null || Double.isNaN(b.mean()) ? 0.0 : b.mean());
                es.add(b == null || Double.isNaN(b.sd()) ? 0.0 : b.sd());
            }
            if (errors) c.addSeries(g.series(), categories, ys, es);
            else c.addSeries(g.series(), categories, ys);
        }
        return c;
    }

    /**
     * Thin solid light-grey grid lines: XChart fills the outline of each grid line's stroke, so its
     * default dashes became one shape per dash, most of an SVG's or PDF's bytes.
     */
    static void solidGrid(org.knowm.xchart.style.AxesChartStyler s) {
        s.setPlotGridLinesStroke(new BasicStroke(0.6f)).setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        if (s instanceof org.knowm.xchart.style.AxesChartStyler a) solidGrid(a);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setSeriesColors(PALETTE);
        s.setAntiAlias(true);
    }
}

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
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
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
        XYChart c = lines(title, "message size (bytes)", "CCT (us)", true, false, perScheme, true);
        // ticks only at powers of ten when the sizes span more than a decade (else XChart's labels overlap)
        double lo = Double.MAX_VALUE, hi = 0;
        for (Series s : perScheme) for (double x : s.x()) if (x > 0) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
        if (hi > 10 * lo) c.getStyler().setXAxisLogarithmicDecadeOnly(true);
        return ChartWriter.write(c, dir, name);
    }

    /** normalised (completion / ideal) as grouped bars with mean ± sd error bars over seeds; 1.0 is ideal. */
    public static ChartFiles normalisedBars(String title, List<BarGroup> groups, Path dir, String name) {
        return ChartWriter.write(withLineAt(bars(title, "", "normalised (completion / ideal)", groups, true), 1.0), dir, name);
    }

    /** A dashed red horizontal line at {@code y} (data units): the bound or the break-even a bar chart is read against. */
    static CategoryChart withLineAt(CategoryChart c, double y) {
        c.addAnnotation(new AnnotationLine(y, false, false));
        c.getStyler().setAnnotationLineColor(Color.RED).setAnnotationLineStroke(
                new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        return c;
    }

    /** FCT slowdown (y) by flow-size bin (x categories), grouped bars per scheme with error bars. */
    public static ChartFiles slowdownBySize(String title, List<BarGroup> perScheme, Path dir, String name) {
        return ChartWriter.write(bars(title, "flow size", "FCT slowdown (mean)", perScheme, true), dir, name);
    }

    /** Total throughput (y, Gbit/s) over simulated time (x, us), one line per scheme. */
    public static ChartFiles throughput(String title, List<Series> perScheme, Path dir, String name) {
        return throughput(title, perScheme, List.of(), dir, name);
    }

    /** Colour of event markers: a dark orange no scheme line uses. */
    static final Color MARKER = new Color(204, 85, 0);

    /** As {@link #throughput(String, List, Path, String)}, with the run's events as labelled vertical lines. */
    public static ChartFiles throughput(String title, List<Series> perScheme, List<Marker> events, Path dir, String name) {
        return ChartWriter.write(throughputChart(title, perScheme, events), dir, name);
    }

    static XYChart throughputChart(String title, List<Series> perScheme, List<Marker> events) {
        XYChart c = lines(title, "time (us)", "throughput (Gbit/s)", false, false, perScheme, false);
        c.getStyler().setXAxisMin(0.0); // ticks at round multiples from 0, not from the first interval's midpoint
        double xMax = 0, yMax = 0;
        for (Series s : perScheme) {
            for (double x : s.x()) xMax = Math.max(xMax, x);
            for (double y : s.y()) yMax = Math.max(yMax, y);
        }
        int shown = 0;
        for (Marker m : events) {
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

    /** An empirical CDF per series (y = fraction of samples at or below x). */
    public static ChartFiles cdf(String title, String xLabel, boolean logX, List<Series> perScheme, Path dir, String name) {
        XYChart c = lines(title, xLabel, "fraction", logX, false, perScheme, false);
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
        int rows = map.rows().size(), cols = map.columns().size();
        int height = Math.max(360, Math.min(2400, 140 + 22 * rows));
        int width = Math.max(560, Math.min(2400, 300 + 48 * cols));
        HeatMapChart c = new HeatMapChartBuilder().width(width).height(height).title(map.title())
                .xAxisTitle(map.columnLabel()).yAxisTitle(map.rowLabel()).build();
        c.getStyler().setMin(0).setMax(scaleMax).setShowValue(false)
                .setRangeColors(RAMP);
        c.getStyler().setXAxisLabelRotation(cols > 8 ? 90 : 0);
        // a label on every row and column (XChart otherwise thins labels it thinks are crowded)
        // on very tall maps XChart skips labels closer than the hint, so small fonts never overlap
        c.getStyler().setXAxisTickMarkSpacingHint(8).setYAxisTickMarkSpacingHint(rows > 48 ? 12 : 8);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, rows > 48 ? 8 : 11));
        List<Number[]> cells = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int k = 0; k < cols; k++) {
                double v = map.values()[r][k];
                if (!Double.isNaN(v)) cells.add(new Number[] {k, r, Math.max(0, Math.min(scaleMax, v))});
            }
        }
        c.addSeries("utilisation", map.columns(), map.rows(), cells);
        return ChartWriter.write(c, dir, name);
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
        if (series.isEmpty()) throw new IllegalArgumentException(title + ": no series");
        XYChart c = new XYChartBuilder().width(WIDTH).height(heightFor(series.size())).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(c.getStyler());
        c.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY).setMarkerSize(markers ? 6 : 0);
        c.getStyler().setXAxisLogarithmicDecadeOnly(false).setXAxisDecimalPattern("#,##0.###");
        if (logX) c.getStyler().setxAxisTickLabelsFormattingFunction(Charts::oneTwoFive);
        if (!logY) c.getStyler().setYAxisMin(0.0);
        int i = 0;
        for (Series s : series) {
            double[][] xy = usable(s, logX, logY);
            if (xy[0].length == 0) throw new IllegalArgumentException(title + ": series " + s.name() + " has no plottable point");
            XYSeries xs = c.addSeries(s.name(), xy[0], xy[1]);
            if (!markers) xs.setMarker(SeriesMarkers.NONE);
            // past the palette's colours, lines are dashed, so no two series look alike
            xs.setLineStyle(i++ / PALETTE.length % 2 == 0 ? new BasicStroke(2f)
                    : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, new float[] {6, 3}, 0));
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

    /** 20 colours distinguishable side by side (Kelly's and Tableau's), so 20 schemes get 20 colours. */
    static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf),
        new Color(0x000080), new Color(0xffd700), new Color(0x006400), new Color(0xff00ff), new Color(0x00ff7f),
        new Color(0x8b0000), new Color(0x00bfff), new Color(0xfa8072), new Color(0x000000), new Color(0xadff2f),
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

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setSeriesColors(PALETTE);
        s.setAntiAlias(true);
    }
}

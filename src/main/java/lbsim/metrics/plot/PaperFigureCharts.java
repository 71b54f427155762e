package lbsim.metrics.plot;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Charts that redraw a paper's figure: our points (mean over seeds, error bar ± sd) as one line per
 * scheme, and the numbers the paper states as hollow-looking black-edged markers in the same scheme's
 * colour, so a reader sees at a glance where ours and the paper's meet. Also the stacked verdict bars
 * of the summary page. Plain data in, PNG/SVG/PDF out (as {@link Charts}).
 */
public final class PaperFigureCharts {
    static {
        Headless.ensure();
    }

    private PaperFigureCharts() {}

    /**
     * One scheme's line: our points with their sd (0 = no error bar), and the paper's stated points (may be empty).
     * A {@code reference} line (e.g. the ideal the paper plots for comparison) is drawn thin, grey and dotted, without markers.
     */
    public record Line(String name, double[] x, double[] y, double[] sd, double[] paperX, double[] paperY, boolean reference) {
        public Line {
            if (x.length != y.length || y.length != sd.length) throw new IllegalArgumentException("line " + name + ": x, y and sd differ in length");
            if (paperX.length != paperY.length) throw new IllegalArgumentException("line " + name + ": paper x and y differ in length");
        }
    }

    /**
     * Lines with error bars and the paper's points. x and y are in the units the labels name
     * ({@code xLabel}, {@code yLabel} carry them); {@code logX} for sizes spanning decades.
     * A y axis starts at 0 unless some value is negative (improvements).
     */
    public static ChartFiles lines(String title, String xLabel, String yLabel, boolean logX, List<Line> lines, Path dir, String name) {
        if (lines.isEmpty()) throw new IllegalArgumentException(title + ": no lines");
        int paperSeries = (int) lines.stream().filter(l -> l.paperX().length > 0).count();
        XYChart c = new XYChartBuilder().width(Charts.WIDTH).height(Charts.heightFor(lines.size() + paperSeries)).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        Styler s = c.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setAntiAlias(true);
        c.getStyler().setXAxisLogarithmic(logX).setXAxisDecimalPattern("#,##0.###").setYAxisDecimalPattern("#,##0.###");
        c.getStyler().setMarkerSize(8);
        c.getStyler().setErrorBarsColorSeriesColor(true);
        if (logX) {
            // 1-2-5 labels (as Charts), plus a tick that is one of the figure's x values (e.g. 4 flows per host)
            java.util.Set<Double> xs = new java.util.HashSet<>();
            for (Line l : lines) for (double v : l.x()) xs.add(v);
            java.text.DecimalFormat fmt = new java.text.DecimalFormat("#,##0.###", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
            c.getStyler().setxAxisTickLabelsFormattingFunction(v -> {
                for (double x : xs) if (Math.abs(v - x) <= 1e-9 * Math.abs(x)) return fmt.format(v);
                return Charts.oneTwoFive(v);
            });
        }
        boolean negative = false;
        for (Line l : lines) {
            for (int i = 0; i < l.y().length; i++) negative |= l.y()[i] - l.sd()[i] < 0;
            for (double v : l.paperY()) negative |= v < 0;
        }
        if (!negative) c.getStyler().setYAxisMin(0.0);
        int i = 0;
        for (Line l : lines) {
            if (l.reference()) {
                XYSeries ref = c.addSeries(l.name(), l.x(), l.y());
                ref.setLineColor(Color.GRAY);
                ref.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_ROUND, 10,
                        new float[] {2, 3}, 0));
                ref.setMarker(SeriesMarkers.NONE);
                continue;
            }
            SeriesStyle st = SeriesStyle.of(i++);
            boolean errors = false;
            for (double e : l.sd()) errors |= e > 0;
            if (l.x().length > 0) {
                XYSeries xs = errors ? c.addSeries(l.name(), l.x(), l.y(), l.sd()) : c.addSeries(l.name(), l.x(), l.y());
                xs.setLineColor(st.colour()).setLineStyle(st.stroke());
                xs.setMarkerColor(st.colour());
                xs.setMarker(st.marker());
            }
            if (l.paperX().length > 0) {
                // the paper's points: the scheme's colour, no line, a large square or diamond the reader can tell from ours
                XYSeries ps = c.addSeries(l.name() + ": paper", l.paperX(), l.paperY());
                ps.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                ps.setMarker(st.marker() == SeriesMarkers.DIAMOND ? SeriesMarkers.SQUARE : SeriesMarkers.DIAMOND);
                ps.setMarkerColor(st.colour().darker());
            }
        }
        return ChartWriter.write(c, dir, name);
    }

    /**
     * Stacked bars: one bar per category, one stacked part per group in {@code colours}' order (e.g. the
     * verdict counts of each preset). Every category is labelled; long labels turn vertical.
     */
    public static ChartFiles stackedBars(String title, String xLabel, String yLabel, List<BarGroup> groups, List<Color> colours,
                                         Path dir, String name) {
        if (groups.isEmpty()) throw new IllegalArgumentException(title + ": no bar groups");
        List<String> categories = new ArrayList<>();
        for (BarGroup g : groups) for (Bar b : g.bars()) if (!categories.contains(b.category())) categories.add(b.category());
        int longest = categories.stream().mapToInt(String::length).max().orElse(0);
        int all = categories.stream().mapToInt(k -> k.length() + 2).sum();
        int rotation = all * 7 > 600 ? 90 : 0;   // about 7 px a character; the plot is about 600 px wide
        CategoryChart c = new CategoryChartBuilder().width(Math.min(1600, Charts.WIDTH + Math.max(0, categories.size() - 12) * 30))
                .height(Charts.heightFor(groups.size()) + (rotation > 0 ? Math.min(300, longest * 7) : 0)).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        Styler s = c.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setAntiAlias(true);
        s.setSeriesColors(colours.toArray(new Color[0]));
        c.getStyler().setStacked(true).setXAxisLabelRotation(rotation).setXAxisTickMarkSpacingHint(8).setYAxisMin(0.0)
                .setYAxisDecimalPattern("#,##0");
        for (BarGroup g : groups) {
            List<Double> ys = new ArrayList<>();
            for (String cat : categories) {
                double v = 0;
                for (Bar b : g.bars()) if (b.category().equals(cat)) v = b.mean();
                ys.add(v);
            }
            c.addSeries(g.series(), categories, ys);
        }
        return ChartWriter.write(c, dir, name);
    }
}

package lbsim.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import lbsim.metrics.plot.Bar;
import lbsim.metrics.plot.BarGroup;
import lbsim.metrics.plot.ChartFiles;
import lbsim.metrics.plot.Charts;
import lbsim.metrics.plot.Series;

/**
 * Charts of a sweep's results that need nothing but the grid: a summary field per grid
 * point (mean ± sd over seeds) as grouped bars, one series per value of the grid's scheme
 * axis, and, when the grid has a message-size axis, CCT against message size, one line per
 * scheme. Used by {@code lbsim sweep}, {@code merge} and {@code reproduce}.
 */
public final class SweepCharts {
    /** Most charts of one kind on a page; a grid with more facets shows the first ones and says so. */
    static final int MAX_FACETS = 12;

    private SweepCharts() {}

    /**
     * Which grid columns play which role: {@code series} (one bar colour / line per value,
     * usually the scheme) and {@code size} (x of the CCT-vs-size chart; its values are read
     * from each run's resolved scenario). {@code null} = detect: series is
     * {@code load_balancer.scheme} or {@code load_balancer}, size the first column named
     * {@code ...size_bytes}; {@code ""} = none.
     */
    public record Axes(String series, String size) {
        public static final Axes AUTO = new Axes(null, null);

        /** The columns this hint picks in a grid with these columns (null = none). */
        public Axes resolve(List<String> columns) {
            String s = series;
            if (s == null) {
                s = columns.contains("load_balancer.scheme") ? "load_balancer.scheme" : columns.contains("load_balancer") ? "load_balancer" : "";
            }
            String z = size;
            if (z == null) {
                z = "";
                for (String c : columns) {
                    if (!c.equals(s) && (c.equals("size_bytes") || c.endsWith(".size_bytes"))) {
                        z = c;
                        break;
                    }
                }
            }
            for (String c : new String[] {s, z}) {
                if (!c.isEmpty() && !columns.contains(c)) {
                    throw new IllegalArgumentException("chart axis " + c + " is not a grid column; columns: " + columns);
                }
            }
            return new Axes(s.isEmpty() ? null : s, z.isEmpty() ? null : z);
        }
    }

    /** A chart and the caption to show under it. */
    public record Figure(ChartFiles chart, String caption) {}

    /** A readable axis label for a summary field (ns fields are shown in us). */
    public static String label(String field) {
        return switch (field) {
            case "cct_ns" -> "CCT (us)";
            case "normalised" -> "normalised (completion / ideal)";
            default -> field.contains("_ns") ? field.replace("_ns", "") + " (us)" : field;
        };
    }

    static double scale(String field) {
        return field.contains("_ns") ? 1e-3 : 1;
    }

    /**
     * {@code field} per grid point, mean ± sample sd over the seeds, as grouped bars: one
     * series per value of the series axis; with two or more other columns, one chart per
     * value of the first of them. Empty when no run has a numeric value.
     */
    public static List<Figure> metricBars(SweepData d, String field, Axes hint, Path plots, String name) {
        Axes axes = hint.resolve(d.columns());
        List<String> rest = new ArrayList<>(d.columns());
        rest.remove(axes.series());
        String facet = rest.size() >= 2 ? rest.remove(0) : null;
        Map<String, List<BarGroup>> data = barGroups(d, field, hint);
        List<Figure> out = new ArrayList<>();
        String xLabel = rest.isEmpty() ? "" : String.join(" / ", rest);
        String by = axes.series() == null ? "" : ", one colour per " + axes.series();
        int i = 0;
        for (var fe : data.entrySet()) {
            if (i == MAX_FACETS) break;
            List<BarGroup> groups = fe.getValue();
            String title = label(field) + (facet == null ? "" : ": " + facet + " = " + fe.getKey());
            String file = name + (facet == null ? "" : "-" + (i + 1));
            // normalised: on the ideal's baseline (1.0) when no bar reaches below it, so small differences show
            boolean norm = field.equals("normalised");
            double base = norm ? Charts.normalisedBaseline(groups) : 0;
            ChartFiles c = norm ? Charts.normalisedBars(title, xLabel, groups, plots, file)
                    : Charts.groupedBars(title, xLabel, label(field), groups, plots, file);
            out.add(new Figure(c, "Summary field " + field + " per grid point" + by + "; bar = mean over seeds, error bar = sample sd "
                    + "(none with one seed)" + (base > 0 ? "; the axis starts at 1.0, the ideal (dashed line), so a bar's height is the "
                    + "time above the lower bound" : "") + "." + more(i, data.size())));
            i++;
        }
        return out;
    }

    /**
     * The bars of {@link #metricBars}: per facet value ("" without facets), one group per
     * series value, one bar (mean ± sample sd over seeds, in the label's unit) per category.
     */
    static Map<String, List<BarGroup>> barGroups(SweepData d, String field, Axes hint) {
        Axes axes = hint.resolve(d.columns());
        List<String> cols = d.columns();
        List<String> rest = new ArrayList<>(cols);
        rest.remove(axes.series());
        String facet = rest.size() >= 2 ? rest.remove(0) : null;
        double k = scale(field);
        // facet -> series -> category -> samples, all in grid order
        Map<String, Map<String, Map<String, List<Double>>>> data = new LinkedHashMap<>();
        for (SweepData.Row r : d.rows()) {
            double v = r.number(field);
            if (Double.isNaN(v)) continue;
            String f = facet == null ? "" : r.label(cols, facet);
            String s = axes.series() == null ? label(field) : r.label(cols, axes.series());
            List<String> cat = new ArrayList<>();
            for (String c : rest) cat.add(r.label(cols, c));
            String category = cat.isEmpty() ? "all runs" : String.join(" ", cat);
            data.computeIfAbsent(f, x -> new LinkedHashMap<>()).computeIfAbsent(s, x -> new LinkedHashMap<>())
                    .computeIfAbsent(category, x -> new ArrayList<>()).add(v * k);
        }
        Map<String, List<BarGroup>> out = new LinkedHashMap<>();
        for (var fe : data.entrySet()) {
            List<BarGroup> groups = new ArrayList<>();
            for (var se : fe.getValue().entrySet()) {
                List<Bar> bars = new ArrayList<>();
                for (var ce : se.getValue().entrySet()) bars.add(Bar.ofSamples(ce.getKey(), unbox(ce.getValue())));
                groups.add(new BarGroup(se.getKey(), bars));
            }
            out.put(fe.getKey(), groups);
        }
        return out;
    }

    /**
     * CCT (cct_ns, in us) against message size, one line per value of the series axis and
     * one chart per combination of the other columns; x is each run's resolved value of the
     * size column (so a {@code --set} of that key shows). Empty without a size axis or CCTs.
     */
    public static List<Figure> cctVsSize(SweepData d, Axes hint, Path plots, String name) {
        Axes axes = hint.resolve(d.columns());
        if (axes.size() == null) return List.of();
        List<String> cols = d.columns();
        List<String> rest = new ArrayList<>(cols);
        rest.remove(axes.series());
        rest.remove(axes.size());
        // facet -> series -> size label -> (x samples, y samples)
        Map<String, Map<String, Map<String, double[]>>> data = new LinkedHashMap<>();
        for (SweepData.Row r : d.rows()) {
            double y = r.number("cct_ns"), x = r.resolvedNumber(axes.size());
            if (Double.isNaN(y) || Double.isNaN(x)) continue;
            List<String> f = new ArrayList<>();
            for (String c : rest) f.add(c + " = " + r.label(cols, c));
            String s = axes.series() == null ? "CCT" : r.label(cols, axes.series());
            double[] acc = data.computeIfAbsent(String.join(", ", f), z -> new LinkedHashMap<>())
                    .computeIfAbsent(s, z -> new LinkedHashMap<>()).computeIfAbsent(r.label(cols, axes.size()), z -> new double[3]);
            acc[0] += x;
            acc[1] += y / 1e3;
            acc[2]++;
        }
        List<Figure> out = new ArrayList<>();
        int i = 0;
        for (var fe : data.entrySet()) {
            if (i == MAX_FACETS) break;
            List<Series> series = new ArrayList<>();
            for (var se : fe.getValue().entrySet()) {
                List<double[]> pts = new ArrayList<>();
                for (double[] a : se.getValue().values()) pts.add(new double[] {a[0] / a[2], a[1] / a[2]});
                pts.sort((p, q) -> Double.compare(p[0], q[0]));
                double[] xs = new double[pts.size()], ys = new double[pts.size()];
                for (int j = 0; j < pts.size(); j++) {
                    xs[j] = pts.get(j)[0];
                    ys[j] = pts.get(j)[1];
                }
                series.add(new Series(se.getKey(), xs, ys));
            }
            String title = "CCT vs message size" + (fe.getKey().isEmpty() ? "" : ": " + fe.getKey());
            ChartFiles c = Charts.cctVsSize(title, series, plots, name + (rest.isEmpty() ? "" : "-" + (i + 1)));
            out.add(new Figure(c, "CCT (mean over seeds) against " + axes.size() + " as each run resolved it"
                    + (axes.series() == null ? "" : ", one line per " + axes.series()) + " (log x)." + more(i, data.size())));
            i++;
        }
        return out;
    }

    private static String more(int i, int facets) {
        return i == MAX_FACETS - 1 && facets > MAX_FACETS
                ? String.format(Locale.ROOT, " (The first %d of %d charts are shown; all numbers are in results.csv.)", MAX_FACETS, facets)
                : "";
    }

    private static double[] unbox(List<Double> xs) {
        double[] a = new double[xs.size()];
        for (int i = 0; i < a.length; i++) a[i] = xs.get(i);
        return a;
    }

    /** The grid points present (their label lists), in grid order. */
    static List<List<String>> points(SweepData d) {
        Set<List<String>> s = new LinkedHashSet<>();
        for (SweepData.Row r : d.rows()) s.add(r.labels());
        return new ArrayList<>(s);
    }
}

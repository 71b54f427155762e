package lbsim.experiment.reproduce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.experiment.SweepData;
import lbsim.experiment.SweepSpec;
import lbsim.metrics.AtomicFiles;
import lbsim.metrics.CsvRows;
import lbsim.metrics.ThroughputSeries;
import lbsim.metrics.plot.Bar;
import lbsim.metrics.plot.BarGroup;
import lbsim.metrics.plot.ChartFiles;
import lbsim.metrics.plot.Charts;
import lbsim.metrics.plot.FlowMetrics;
import lbsim.metrics.plot.PaperFigureCharts;
import lbsim.metrics.plot.Series;
import lbsim.metrics.plot.Units;

/**
 * A preset's {@link PaperFigure}s computed from a sweep's runs: per panel (one per value of the grid
 * columns that are neither x nor series) a curve per scheme of our points (mean and sample sd over
 * seeds) and the paper's stated points from the preset's cells. {@link #draw} writes each panel's
 * chart and the figure's numbers as {@code plots/paper-figure-N.csv} (the data behind the chart,
 * for readers and tests).
 */
public final class PaperFigures {
    /** Most panels of one figure; a larger grid shows the first ones and says so. */
    static final int MAX_PANELS = 12;

    private PaperFigures() {}

    /** One point: its x label (grid label or size bin), x, y, sample sd over seeds, and the number of seeds (0 for the paper's). */
    public record Point(String xLabel, double x, double y, double sd, int n) {}

    /**
     * One series of a panel: our points and the paper's (may be empty); a {@code reference} curve is the
     * comparison the paper draws beside its schemes (e.g. the ideal), computed, not simulated.
     */
    public record Curve(String series, List<Point> ours, List<Point> paper, boolean reference) {
        public Curve(String series, List<Point> ours, List<Point> paper) {
            this(series, ours, paper, false);
        }
    }

    /** One chart of a figure: its facet ("" with none), y quantity ("" or "mean"/"p99" for slowdown bins) and curves. */
    public record Panel(String facet, String quantity, List<Curve> curves) {}

    /** The data of every panel of {@code f}, from the runs in {@code d} (grid values from {@code spec}). */
    public static List<Panel> compute(Preset p, PaperFigure f, SweepSpec spec, SweepData d) {
        return switch (f.kind()) {
            case GRID, IMPROVEMENT -> overGrid(p, f, spec, d);
            case SIZE_BINS -> sizeBins(f, d);
            case THROUGHPUT -> throughput(f, d);
        };
    }

    // ------------------------------------------------------------------ grid x (values and improvements)

    /** A run's place in a figure: panel, series and x label; null when the run's label gives no x. */
    private record Place(String facet, String series, String xLabel) {}

    private static Place place(PaperFigure f, List<String> cols, Map<String, String> labels) {
        String facet = facet(cols, labels, f.x(), f.series());
        String series = labels.get(f.series()), x = labels.get(f.x());
        if (series == null || x == null) return null;
        if (f.xFromLabel() != null) {
            Matcher m = Pattern.compile(f.xFromLabel()).matcher(x);
            if (!m.find()) return null;
            if (f.x().equals(f.series())) series = new StringBuilder(series).delete(m.start(), m.end()).toString();
            x = m.group(1);
        }
        return new Place(facet, series, x);
    }

    /** A grid label's x (already the regex's match with {@code xFromLabel}): its grid value when a number, else the label read as a number; NaN if neither. */
    static double xValue(PaperFigure f, SweepSpec spec, String xLabel) {
        if (f.xFromLabel() == null && spec != null) {
            for (SweepSpec.Dimension dim : spec.grid()) {
                if (!dim.key().equals(f.x())) continue;
                for (SweepSpec.Value v : dim.values()) {
                    if (v.label().equals(xLabel) && v.value() != null && v.value().isNumber()) return v.value().asDouble();
                }
            }
        }
        try {
            return Double.parseDouble(xLabel);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static Map<String, String> labels(List<String> cols, List<String> values) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < cols.size(); i++) m.put(cols.get(i), values.get(i));
        return m;
    }

    private static List<Panel> overGrid(Preset p, PaperFigure f, SweepSpec spec, SweepData d) {
        List<String> cols = d.columns();
        if (!cols.contains(f.x()) || !cols.contains(f.series())) {
            throw new IllegalArgumentException(p.id() + ": figure '" + f.title() + "' names columns " + f.x() + " / " + f.series()
                    + " not in the grid " + cols);
        }
        // facet -> series -> x label -> seed -> value, in grid order
        Map<String, Map<String, Map<String, Map<Long, Double>>>> runs = new LinkedHashMap<>();
        // x label -> the x the runs used: as resolved (a --set of the x key shows as it ran), else the grid's value
        Map<String, Double> ran = new java.util.HashMap<>();
        for (SweepData.Row r : d.rows()) {
            Place at = place(f, cols, labels(cols, r.labels()));
            double v = r.number(f.y());
            if (at == null || Double.isNaN(v)) continue;
            ran.computeIfAbsent(at.xLabel(), k -> {
                double resolved = f.xFromLabel() == null && !f.x().equals(SweepSpec.SET_KEY) ? r.resolvedNumber(f.x()) : Double.NaN;
                return Double.isNaN(resolved) ? xValue(f, spec, k) : resolved;
            });
            runs.computeIfAbsent(at.facet(), k -> new LinkedHashMap<>()).computeIfAbsent(at.series(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(at.xLabel(), k -> new LinkedHashMap<>()).put(r.seed(), v);
        }
        List<Panel> out = new ArrayList<>();
        for (var fe : runs.entrySet()) {
            Map<String, List<Point>> ours = new LinkedHashMap<>();
            if (f.kind() == PaperFigure.Kind.GRID) {
                for (var se : fe.getValue().entrySet()) {
                    for (var xe : se.getValue().entrySet()) {
                        ours.computeIfAbsent(se.getKey(), k -> new ArrayList<>()).add(point(xe.getKey(), ran.get(xe.getKey()), xe.getValue().values()));
                    }
                }
            } else {
                Map<String, Map<String, Map<Long, Double>>> bySeries = fe.getValue();
                Map<String, Map<Long, Double>> mine = bySeries.get(f.scheme());
                if (mine == null) continue;
                for (var se : bySeries.entrySet()) {
                    if (se.getKey().equals(f.scheme())) continue;
                    for (var xe : se.getValue().entrySet()) {
                        Map<Long, Double> ourRuns = mine.get(xe.getKey());
                        if (ourRuns == null) continue;
                        List<Double> gains = new ArrayList<>();
                        for (var seed : xe.getValue().entrySet()) {
                            Double a = ourRuns.get(seed.getKey());
                            double b = seed.getValue();
                            if (a != null && b != 0) gains.add(100.0 * (b - a) / b);
                        }
                        if (!gains.isEmpty()) ours.computeIfAbsent(overName(se.getKey()), k -> new ArrayList<>()).add(point(xe.getKey(), ran.get(xe.getKey()), gains));
                    }
                }
            }
            Map<String, List<Point>> paper = paperPoints(p, f, spec, fe.getKey(), cols);
            List<Curve> curves = new ArrayList<>();
            for (var oe : ours.entrySet()) curves.add(new Curve(oe.getKey(), sortByX(oe.getValue()), sortByX(paper.getOrDefault(oe.getKey(), List.of()))));
            // a paper point of a series we did not run is still shown, as a curve without our points
            for (var pe : paper.entrySet()) if (!ours.containsKey(pe.getKey())) curves.add(new Curve(pe.getKey(), List.of(), sortByX(pe.getValue())));
            if (!curves.isEmpty() && f.reference() != null) curves.add(reference(f, curves));
            if (!curves.isEmpty()) out.add(new Panel(fe.getKey(), "", curves));
        }
        return out;
    }

    /** The paper's comparison curve at every x of the panel's curves, as a curve of its own (no sd, 0 seeds). */
    private static Curve reference(PaperFigure f, List<Curve> curves) {
        java.util.TreeMap<Double, String> xs = new java.util.TreeMap<>();
        for (Curve c : curves) for (Point pt : c.ours()) if (!Double.isNaN(pt.x())) xs.put(pt.x(), pt.xLabel());
        List<Point> pts = new ArrayList<>();
        for (var e : xs.entrySet()) pts.add(new Point(e.getValue(), e.getKey(), f.reference().applyAsDouble(e.getKey()), 0, 0));
        return new Curve(f.referenceName(), pts, List.of(), true);
    }

    private static String overName(String baseline) {
        return "over " + baseline;
    }

    private static Point point(String xLabel, double x, java.util.Collection<Double> samples) {
        double[] a = samples.stream().mapToDouble(Double::doubleValue).toArray();
        Bar b = Bar.ofSamples(xLabel, a);
        return new Point(xLabel, x, b.mean(), b.sd(), a.length);
    }

    private static List<Point> sortByX(List<Point> pts) {
        List<Point> s = new ArrayList<>(pts);
        s.sort((a, b) -> Double.compare(a.x(), b.x()));
        return s;
    }

    /**
     * The paper's numbers that are points of this panel: value cells (GRID) or single-baseline improvement
     * cells of the figure's scheme over another series (IMPROVEMENT) on the figure's field, at one x,
     * whose selection agrees with the panel's facet. Keyed by the series they belong to.
     */
    static Map<String, List<Point>> paperPoints(Preset p, PaperFigure f, SweepSpec spec, String facet, List<String> cols) {
        Map<String, List<Point>> out = new LinkedHashMap<>();
        for (Cell c : p.cells()) {
            if (c.isQualitative() || c.overColumn() != null || !c.metricOr(p.metric()).equals(f.y())) continue;
            if (f.kind() == PaperFigure.Kind.GRID && c.kind() != Cell.Kind.VALUE) continue;
            if (f.kind() == PaperFigure.Kind.IMPROVEMENT && (c.kind() != Cell.Kind.IMPROVEMENT || c.baselines().size() != 1
                    || c.meanOfBaselines())) continue;
            Place at = cellPlace(f, cols, c.select());
            if (at == null || !at.facet().equals(facet)) continue;
            String series = at.series();
            if (f.kind() == PaperFigure.Kind.IMPROVEMENT) {
                Place base = cellPlace(f, cols, c.baseline());
                if (!series.equals(f.scheme()) || base == null || !base.facet().equals(facet) || !base.xLabel().equals(at.xLabel())) continue;
                series = overName(base.series());
            }
            double x = xValue(f, spec, at.xLabel());
            if (Double.isNaN(x)) continue;
            out.computeIfAbsent(series, k -> new ArrayList<>()).add(new Point(at.xLabel(), x, c.paper(), 0, 0));
        }
        return out;
    }

    /** A cell selection's place; a facet column the selection leaves out cannot be placed (null). */
    private static Place cellPlace(PaperFigure f, List<String> cols, Map<String, String> select) {
        for (String c : cols) if (!select.containsKey(c)) return null;
        return place(f, cols, select);
    }

    // ------------------------------------------------------------------ size bins

    /** summary.json flows.slowdown_bins as flattened: {@code flows.slowdown_bins.<min_bytes>.mean}. */
    private static final Pattern BIN = Pattern.compile("flows\\.slowdown_bins\\.(\\d+)\\.(mean|p99)");

    private static List<Panel> sizeBins(PaperFigure f, SweepData d) {
        List<String> cols = d.columns();
        // facet -> quantity -> series -> bin min -> samples
        Map<String, Map<String, Map<String, Map<Long, List<Double>>>>> acc = new LinkedHashMap<>();
        Map<Long, Long> binMax = new java.util.TreeMap<>();
        for (SweepData.Row r : d.rows()) {
            Map<String, String> labels = labels(cols, r.labels());
            String facet = facet(cols, labels, f.series());
            String series = labels.get(f.series());
            for (var e : r.fields().entrySet()) {
                Matcher m = BIN.matcher(e.getKey());
                double v = r.number(e.getKey());
                if (!m.matches() || Double.isNaN(v)) continue;
                long min = Long.parseLong(m.group(1));
                binMax.put(min, (long) r.number("flows.slowdown_bins." + min + ".max_bytes"));
                acc.computeIfAbsent(facet, k -> new LinkedHashMap<>()).computeIfAbsent(m.group(2), k -> new LinkedHashMap<>())
                        .computeIfAbsent(series, k -> new java.util.TreeMap<>()).computeIfAbsent(min, k -> new ArrayList<>()).add(v);
            }
        }
        List<Panel> out = new ArrayList<>();
        for (var fe : acc.entrySet()) {
            for (String q : List.of("mean", "p99")) {
                Map<String, Map<Long, List<Double>>> bySeries = fe.getValue().get(q);
                if (bySeries == null) continue;
                List<Curve> curves = new ArrayList<>();
                for (var se : bySeries.entrySet()) {
                    List<Point> pts = new ArrayList<>();
                    for (var be : se.getValue().entrySet()) {
                        Bar b = Bar.ofSamples("", be.getValue().stream().mapToDouble(Double::doubleValue).toArray());
                        pts.add(new Point(binLabel(be.getKey(), binMax.get(be.getKey())), be.getKey(), b.mean(), b.sd(), be.getValue().size()));
                    }
                    curves.add(new Curve(se.getKey(), pts, List.of()));
                }
                out.add(new Panel(fe.getKey(), q, curves));
            }
        }
        return out;
    }

    /** "0-10 kB", "1-10 MB": a bin's bounds, as the paper's axes write flow sizes. */
    static String binLabel(long min, Long max) {
        return size(min) + "-" + (max == null || max <= 0 ? "" : size(max));
    }

    private static String size(long b) {
        String[] unit = {"B", "kB", "MB", "GB"};
        double v = b;
        int u = 0;
        while (v >= 1000 && u < unit.length - 1) {
            v /= 1000;
            u++;
        }
        return new java.text.DecimalFormat("0.#", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v) + (b == 0 ? "" : " " + unit[u]);
    }

    // ------------------------------------------------------------------ throughput over time

    private static List<Panel> throughput(PaperFigure f, SweepData d) {
        List<String> cols = d.columns();
        // facet -> series -> per-seed gbps series (same interval)
        Map<String, Map<String, List<double[]>>> acc = new LinkedHashMap<>();
        double interval = Double.NaN;
        for (SweepData.Row r : d.rows()) {
            Path csv = r.dir().resolve("throughput.csv");
            if (!Files.exists(csv)) continue;
            double[][] tg = readThroughput(csv);
            if (tg[0].length == 0) continue;
            interval = tg[0][0] * 1e3;   // the first row's time is the end of the first interval (us)
            Map<String, String> labels = labels(cols, r.labels());
            String facet = facet(cols, labels, f.series());
            acc.computeIfAbsent(facet, k -> new LinkedHashMap<>()).computeIfAbsent(labels.get(f.series()), k -> new ArrayList<>())
                    .add(tg[1]);
        }
        List<Panel> out = new ArrayList<>();
        for (var fe : acc.entrySet()) {
            List<Curve> curves = new ArrayList<>();
            for (var se : fe.getValue().entrySet()) {
                int len = se.getValue().stream().mapToInt(a -> a.length).max().orElse(0);
                double[] mean = new double[len];
                // a seed's run that ended earlier sends nothing after its end: 0, not left out
                for (double[] a : se.getValue()) for (int i = 0; i < a.length; i++) mean[i] += a[i] / se.getValue().size();
                Series s = FlowMetrics.throughput(se.getKey(), new ThroughputSeries(interval, mean));
                List<Point> pts = new ArrayList<>();
                for (int i = 0; i < s.size(); i++) pts.add(new Point("", s.x()[i], s.y()[i], 0, se.getValue().size()));
                curves.add(new Curve(se.getKey(), pts, List.of()));
            }
            out.add(new Panel(fe.getKey(), "", curves));
        }
        return out;
    }

    /** throughput.csv (time_us, gbps) as {times, rates}. */
    private static double[][] readThroughput(Path csv) {
        try {
            List<String> lines = Files.readAllLines(csv);
            double[] t = new double[Math.max(0, lines.size() - 1)], g = new double[t.length];
            for (int i = 1; i < lines.size(); i++) {
                String[] c = lines.get(i).split(",");
                t[i - 1] = Double.parseDouble(c[0]);
                g[i - 1] = Double.parseDouble(c[1]);
            }
            return new double[][] {t, g};
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException(csv + ": cannot read (" + e.getMessage() + ")"));
        }
    }

    // ------------------------------------------------------------------ drawing

    /** A drawn figure panel and its caption. */
    public record Drawn(ChartFiles chart, String caption) {}

    /**
     * Draws every panel of figure number {@code n} (1-based) of the preset into {@code plots} and writes its
     * numbers to {@code plots/paper-figure-N.csv}; returns the charts (none when no run gave a point).
     */
    public static List<Drawn> draw(Preset p, int n, PaperFigure f, List<Panel> panels, Path plots) {
        List<Drawn> out = new ArrayList<>();
        writeCsv(f, panels, plots.resolve("paper-figure-" + n + ".csv"));
        int i = 0;
        for (Panel panel : panels) {
            if (i == MAX_PANELS) break;
            if (!drawable(f, panel)) continue;   // its numbers are still in the CSV
            String name = "paper-figure-" + n + "-" + (++i);
            String title = f.title() + (panel.quantity().isEmpty() ? "" : ", " + panel.quantity())
                    + (panel.facet().isEmpty() ? "" : ": " + panel.facet());
            out.add(new Drawn(drawPanel(f, title, panel, plots, name), caption(f, panel)
                    + (i == MAX_PANELS && panels.size() > MAX_PANELS ? " (the first " + MAX_PANELS + " of " + panels.size()
                    + " panels are drawn; all are in the CSV)" : "")));
        }
        return out;
    }

    private static ChartFiles drawPanel(PaperFigure f, String title, Panel panel, Path plots, String name) {
        switch (f.kind()) {
            case SIZE_BINS -> {
                List<BarGroup> groups = new ArrayList<>();
                for (Curve c : panel.curves()) groups.add(new BarGroup(c.series(), c.ours().stream().map(pt -> new Bar(pt.xLabel(), pt.y(), pt.sd())).toList()));
                return Charts.groupedBars(title, "flow size", "FCT slowdown, " + panel.quantity() + " (1 = as on the idle fabric)", groups, plots, name);
            }
            case THROUGHPUT -> {
                List<Series> lines = new ArrayList<>();
                for (Curve c : panel.curves()) lines.add(new Series(c.series(), c.ours().stream().mapToDouble(Point::x).toArray(),
                        c.ours().stream().mapToDouble(Point::y).toArray()));
                return Charts.throughput(title, lines, plots, name);
            }
            default -> {
                double maxX = 0, maxY = 0;
                for (Curve c : panel.curves()) {
                    for (Point pt : c.ours()) maxX = Math.max(maxX, pt.x());
                    for (Point pt : c.paper()) maxX = Math.max(maxX, pt.x());
                    for (Point pt : c.ours()) maxY = Math.max(maxY, Math.abs(pt.y()));
                    for (Point pt : c.paper()) maxY = Math.max(maxY, Math.abs(pt.y()));
                }
                Units xu = f.xBytes() ? Units.bytes(maxX) : new Units("", 1);
                boolean timeY = f.kind() == PaperFigure.Kind.GRID && f.y().contains("_ns");
                Units yu = timeY ? Units.timeFromUs(maxY / 1e3) : new Units("", 1);
                double yk = timeY ? yu.factor() / 1e3 : 1;
                List<PaperFigureCharts.Line> lines = new ArrayList<>();
                for (Curve c : panel.curves()) {
                    List<Point> ours = c.ours().stream().filter(pt -> drawable(f, pt)).toList();
                    List<Point> paper = c.paper().stream().filter(pt -> drawable(f, pt)).toList();
                    lines.add(new PaperFigureCharts.Line(c.series(), xu.scale(ours.stream().mapToDouble(Point::x).toArray()),
                            ours.stream().mapToDouble(pt -> pt.y() * yk).toArray(), ours.stream().mapToDouble(pt -> pt.sd() * yk).toArray(),
                            xu.scale(paper.stream().mapToDouble(Point::x).toArray()), paper.stream().mapToDouble(pt -> pt.y() * yk).toArray(),
                            c.reference()));
                }
                String xLabel = f.xLabel() + (xu.name().isEmpty() ? "" : " (" + xu.name() + ")");
                String yLabel = f.yLabel() + (yu.name().isEmpty() ? "" : " (" + yu.name() + ")");
                return PaperFigureCharts.lines(title, xLabel, yLabel, f.logX(), lines, plots, name);
            }
        }
    }

    /** Whether a point can go on the figure's axes: a number, and above 0 on a log axis. */
    private static boolean drawable(PaperFigure f, Point pt) {
        return !Double.isNaN(pt.x()) && !Double.isNaN(pt.y()) && !(f.logX() && pt.x() <= 0);
    }

    /** Whether a panel has anything to draw (a grid label that is not a number gives no x). */
    private static boolean drawable(PaperFigure f, Panel panel) {
        if (f.kind() != PaperFigure.Kind.GRID && f.kind() != PaperFigure.Kind.IMPROVEMENT) return true;
        for (Curve c : panel.curves()) {
            if (c.reference()) continue;
            for (Point pt : c.ours()) if (drawable(f, pt)) return true;
            for (Point pt : c.paper()) if (drawable(f, pt)) return true;
        }
        return false;
    }

    static String caption(PaperFigure f, Panel panel) {
        boolean paper = panel.curves().stream().anyMatch(c -> !c.paper().isEmpty());
        String ours = "lbsim: mean over seeds, error bar = sample sd (none with one seed)";
        return switch (f.kind()) {
            case GRID -> "The paper's figure redrawn from our runs: " + f.y() + " against " + f.x() + ", one line per " + f.series()
                    + "; " + ours + "; " + (paper ? "large markers without a line: the numbers the paper states (the cells above)."
                    : "the paper states no number on this panel (its claims are the cells above).");
            case IMPROVEMENT -> "The paper's figure redrawn from our runs: improvement of " + f.scheme() + " over each other " + f.series()
                    + " in " + f.y() + ", 100 x (other - " + f.scheme() + ") / other, paired by seed, against " + f.x() + "; " + ours + "; "
                    + (paper ? "large markers without a line: the improvements the paper states (the cells above)."
                    : "the paper states no number on this panel.");
            case SIZE_BINS -> "The paper's figure redrawn from our runs: " + panel.quantity() + " FCT slowdown per flow-size bin "
                    + "(summary.json flows.slowdown_bins; lbsim's decades, not the paper's x points), one bar per " + f.series()
                    + "; bar = mean over seeds of each run's bin " + panel.quantity() + ", error bar = sample sd. The paper states "
                    + "no per-bin numbers; its claims are the cells above.";
            case THROUGHPUT -> "The paper's figure redrawn from our runs: bytes sent by every host-facing switch port per interval "
                    + "(runs/KEY/throughput.csv), mean over seeds per interval, one line per " + f.series() + ". The paper states "
                    + "no numbers on it; its claims are the cells above.";
        };
    }

    /** The numbers behind a figure: one row per point, ours and the paper's, x and y in the runs' own units. */
    static void writeCsv(PaperFigure f, List<Panel> panels, Path file) {
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, w -> {
                try (CsvRows csv = new CsvRows(w)) {
                    csv.row("panel", "quantity", "series", "source", "x_label", "x", "y", "sd", "seeds");
                    for (Panel panel : panels) {
                        for (Curve c : panel.curves()) {
                            for (String src : List.of("lbsim", "paper")) {
                                boolean computed = !src.equals("lbsim") || c.reference();
                                for (Point pt : src.equals("lbsim") ? c.ours() : c.paper()) {
                                    csv.row(panel.facet(), panel.quantity(), c.series(), c.reference() ? "reference" : src, pt.xLabel(),
                                            num(pt.x()), num(pt.y()), computed ? "" : num(pt.sd()), computed ? "" : Integer.toString(pt.n()));
                                }
                            }
                        }
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** 10 significant digits, always with a point ({@code 65536.0}), so x, y and sd are decimal columns in every row. */
    private static String num(double x) {
        if (Double.isNaN(x)) return "";
        String s = java.math.BigDecimal.valueOf(x).round(new java.math.MathContext(10)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    /** The panel a run belongs to: every grid column but those left out (the series', the x's), as "column = label, ...". */
    private static String facet(List<String> cols, Map<String, String> labels, String... leftOut) {
        List<String> out = List.of(leftOut);
        StringBuilder facet = new StringBuilder();
        for (String c : cols) {
            if (out.contains(c)) continue;
            if (facet.length() > 0) facet.append(", ");
            facet.append(c).append(" = ").append(labels.get(c));
        }
        return facet.toString();
    }
}

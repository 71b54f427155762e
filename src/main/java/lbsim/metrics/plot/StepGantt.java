package lbsim.metrics.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import lbsim.metrics.StepTimeline;

/**
 * The collectives' steps as a Gantt chart (steps.csv): a row per rank, time on x, each step of a
 * rank a bar from its first flow's start to its last delivery, coloured by the step's number on
 * the heat maps' ramp (light early, dark late), the run's events as dashed dark-red lines. The
 * drawing stays small on any run: beyond {@link #MAX_ROWS} ranks a row merges a range of ranks,
 * beyond {@link #MAX_STEPS} steps a bar merges a range of steps (each the span of what it merges).
 */
public final class StepGantt {
    static final int MAX_ROWS = 64, MAX_STEPS = 96;
    private static final int WIDTH = 1000, LEFT = 120, RIGHT = 24, TOP = 80, BOTTOM = 64;
    private static final Font TITLE = TracedFont.of(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    private static final Font AXIS = TracedFont.of(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    private static final Font TICK = TracedFont.of(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    private static final Font SMALL = TracedFont.of(new Font(Font.SANS_SERIF, Font.PLAIN, 9));

    private StepGantt() {}

    /** A row of the chart: its label, and per step bin the span [start, end] in us (NaN when the bin has no bar). */
    record Band(String label, double[] startUs, double[] endUs) {}

    /** The chart's content: its rows, how many steps a bar merges, the largest step number and the time axis' end (us). */
    record Layout(List<Band> bands, int stepsPerBar, int maxStep, double endUs) {}

    /**
     * Rows and bars of {@code rows}: (collective, rank) pairs in order, merged into at most
     * {@link #MAX_ROWS} bands (whole collectives merge only when there are more of them than bands);
     * an unfinished step's bar ends at the axis' end, {@code endUs} or the latest time in the rows.
     */
    static Layout layout(List<StepTimeline.Row> rows, double endUs) {
        int maxStep = 0;
        double last = endUs;
        TreeMap<Integer, TreeSet<Integer>> ranks = new TreeMap<>();
        for (StepTimeline.Row r : rows) {
            maxStep = Math.max(maxStep, r.step());
            ranks.computeIfAbsent(r.group(), g -> new TreeSet<>()).add(r.rank());
            if (!Double.isNaN(r.endNs())) last = Math.max(last, r.endNs() / 1e3);
            if (!Double.isNaN(r.startNs())) last = Math.max(last, r.startNs() / 1e3);
        }
        int stepsPerBar = (maxStep + MAX_STEPS) / MAX_STEPS, bins = maxStep / stepsPerBar + 1;
        boolean oneGroup = ranks.size() == 1;
        int pairs = ranks.values().stream().mapToInt(TreeSet::size).sum();
        // band of each (group, rank): one each when few; else rank ranges per collective; else ranges of collectives
        Map<Long, Integer> bandOf = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>();
        if (pairs <= MAX_ROWS || ranks.size() <= MAX_ROWS) {
            int perGroup = pairs <= MAX_ROWS ? Integer.MAX_VALUE : Math.max(1, MAX_ROWS / ranks.size());
            for (var e : ranks.entrySet()) {
                List<Integer> rs = new ArrayList<>(e.getValue());
                int parts = Math.min(rs.size(), perGroup);
                for (int p = 0; p < parts; p++) {
                    int from = (int) ((long) rs.size() * p / parts), to = (int) ((long) rs.size() * (p + 1) / parts);
                    for (int i = from; i < to; i++) bandOf.put(key(e.getKey(), rs.get(i)), labels.size());
                    String rank = to - from == 1 ? "rank " + rs.get(from) : "ranks " + rs.get(from) + "-" + rs.get(to - 1);
                    labels.add(oneGroup ? rank : "c" + e.getKey() + " " + rank);
                }
            }
        } else {
            List<Integer> groups = new ArrayList<>(ranks.keySet());
            for (int p = 0; p < MAX_ROWS; p++) {
                int from = (int) ((long) groups.size() * p / MAX_ROWS), to = (int) ((long) groups.size() * (p + 1) / MAX_ROWS);
                for (int i = from; i < to; i++) for (int rank : ranks.get(groups.get(i))) bandOf.put(key(groups.get(i), rank), labels.size());
                labels.add(to - from == 1 ? "c" + groups.get(from) : "c" + groups.get(from) + "-c" + groups.get(to - 1));
            }
        }
        List<Band> bands = new ArrayList<>();
        for (String l : labels) {
            double[] s = new double[bins], e = new double[bins];
            java.util.Arrays.fill(s, Double.NaN);
            java.util.Arrays.fill(e, Double.NaN);
            bands.add(new Band(l, s, e));
        }
        for (StepTimeline.Row r : rows) {
            if (Double.isNaN(r.startNs())) continue;   // never started: nothing to draw
            Band b = bands.get(bandOf.get(key(r.group(), r.rank())));
            int k = r.step() / stepsPerBar;
            double start = r.startNs() / 1e3, end = Double.isNaN(r.endNs()) ? last : r.endNs() / 1e3;
            b.startUs()[k] = Double.isNaN(b.startUs()[k]) ? start : Math.min(b.startUs()[k], start);
            b.endUs()[k] = Double.isNaN(b.endUs()[k]) ? end : Math.max(b.endUs()[k], end);
        }
        return new Layout(bands, stepsPerBar, maxStep, last);
    }

    private static long key(int group, int rank) {
        return ((long) group << 32) | (rank & 0xffffffffL);
    }

    /** Tick values from 0 to at least {@code max} in steps of 1, 2, 2.5 or 5 x 10^k, about six of them. */
    static List<Double> ticks(double max) {
        double raw = max / 6, p = Math.pow(10, Math.floor(Math.log10(raw))), step = 10 * p;
        for (double m : new double[] {1, 2, 2.5, 5, 10}) if (raw <= m * p + 1e-12) { step = m * p; break; }
        List<Double> out = new ArrayList<>();
        for (int k = 0; k * step <= max * (1 + 1e-9); k++) out.add(k * step);
        return out;
    }

    /** Draws {@code rows} (with the run's {@code events}, times in us) into {@code dir/name.*}; {@code endUs} is the run's end. */
    public static ChartFiles draw(String title, List<StepTimeline.Row> rows, List<Marker> events, double endUs, Path dir, String name) {
        if (rows.stream().allMatch(r -> Double.isNaN(r.startNs()))) throw new IllegalArgumentException(title + ": no step started");
        Layout lay = layout(rows, endUs);
        Units time = Units.timeFromUs(lay.endUs());
        double axisEnd = Math.max(lay.endUs(), 1e-3) * time.factor();   // a run that ended at 0 still gets an axis
        int n = lay.bands().size();
        double rowH = Math.max(6, Math.min(22, 900.0 / n));
        int plotH = (int) Math.ceil(rowH * n), height = TOP + plotH + BOTTOM, plotW = WIDTH - LEFT - RIGHT;
        ColourBar bar = new ColourBar(Charts.RAMP, Math.max(1, lay.maxStep()), 1, lay.stepsPerBar() == 1 ? "step" : "step (bars merge " + lay.stepsPerBar() + ")");
        int labelEvery = (int) Math.ceil(11 / rowH);
        ChartWriter.Drawing d = new ChartWriter.Drawing(title, WIDTH + ColourBar.WIDTH, Math.max(height, 300), g -> {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fill(new Rectangle2D.Double(0, 0, WIDTH + ColourBar.WIDTH, Math.max(height, 300)));
            g.setColor(Color.BLACK);
            ColourBar.text(g, title, TITLE, WIDTH / 2.0 - title.length() * 3.8, 24, false);
            // grid and time ticks
            for (double t : ticks(axisEnd)) {
                double x = LEFT + plotW * t / axisEnd;
                g.setColor(new Color(0xDD, 0xDD, 0xDD));
                g.setStroke(new BasicStroke(0.6f));
                g.draw(new Line2D.Double(x, TOP, x, TOP + plotH));
                g.setColor(Color.BLACK);
                String label = ColourBar.label(t);
                ColourBar.text(g, label, TICK, x - label.length() * 3.1, TOP + plotH + 16, false);
            }
            String xTitle = "simulated time (" + time.name() + ")";
            ColourBar.text(g, xTitle, AXIS, LEFT + plotW / 2.0 - xTitle.length() * 3.4, TOP + plotH + 40, false);
            // one row per band, its step bars in step order (a later step drawn over an earlier, pipelined one)
            for (int i = 0; i < n; i++) {
                Band b = lay.bands().get(i);
                double y = TOP + i * rowH;
                for (int k = 0; k < b.startUs().length; k++) {
                    if (Double.isNaN(b.startUs()[k])) continue;
                    double x0 = LEFT + plotW * b.startUs()[k] * time.factor() / axisEnd, x1 = LEFT + plotW * b.endUs()[k] * time.factor() / axisEnd;
                    Rectangle2D r = new Rectangle2D.Double(x0, y + rowH * 0.12, Math.max(0.8, x1 - x0), rowH * 0.76);
                    double step = Math.min(lay.maxStep(), (k + 0.5) * lay.stepsPerBar() - 0.5);
                    g.setColor(ColourBar.colour(Charts.RAMP, lay.maxStep() == 0 ? 0 : step / lay.maxStep()));
                    g.fill(r);
                    if (x1 - x0 > 3) {
                        g.setColor(Color.WHITE);
                        g.setStroke(new BasicStroke(0.5f));
                        g.draw(r);
                    }
                }
                if (i % labelEvery == 0) {
                    g.setColor(Color.BLACK);
                    ColourBar.text(g, b.label(), rowH < 12 ? SMALL : TICK, 8, y + rowH / 2 + 4, false);
                }
            }
            g.setColor(Color.GRAY);
            g.setStroke(new BasicStroke(1f));
            g.draw(new Rectangle2D.Double(LEFT, TOP, plotW, plotH));
            // the run's events: dashed dark-red lines, labels stepping down so close ones stay readable
            int shown = 0;
            for (Marker m : events) {
                double t = m.x() * time.factor();
                if (t < 0 || t > axisEnd) continue;
                double x = LEFT + plotW * t / axisEnd;
                g.setColor(Charts.MARKER);
                g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
                double labelY = TOP - 32 + 13 * (shown++ % 3);   // above the rows, three lines so close events stay apart
                g.draw(new Line2D.Double(x, labelY + 2, x, TOP + plotH));
                double w = m.label().length() * 6.2;
                ColourBar.text(g, m.label(), TICK, x + 4 + w <= WIDTH ? x + 4 : x - 4 - w, labelY, false);
            }
            g.setStroke(new BasicStroke(1f));
            java.awt.geom.AffineTransform saved = g.getTransform();
            g.translate(WIDTH, 0);
            bar.paint(g, Math.max(height, 300));
            g.setTransform(saved);
        });
        return ChartWriter.write(d, dir, name);
    }
}

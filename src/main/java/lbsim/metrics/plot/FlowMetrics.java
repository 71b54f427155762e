package lbsim.metrics.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ThroughputSeries;

/** Chart inputs derived from the rows of flows.csv and links.csv of one run. */
public final class FlowMetrics {
    private FlowMetrics() {}

    /** Empirical CDF of the completed flows' FCT in microseconds, thinned to at most {@code maxPoints} points. */
    public static Series fctCdf(String name, List<FlowRecord> flows, int maxPoints) {
        double[] fct = flows.stream().filter(f -> f.fctNs() >= 0).mapToDouble(f -> f.fctNs() / 1e3).sorted().toArray();
        int n = fct.length;
        int points = Math.min(n, Math.max(2, maxPoints));
        double[] x = new double[points], y = new double[points];
        for (int i = 0; i < points; i++) {
            // evenly spaced ranks, always including the largest value
            int idx = points == n ? i : (int) Math.round((double) i * (n - 1) / (points - 1));
            x[i] = fct[idx];
            y[i] = (idx + 1) / (double) n;
        }
        return new Series(name, x, y);
    }

    /**
     * Mean FCT slowdown (± sd) per flow-size decade, from each flow's own slowdown (FCT over the
     * same flow alone on the idle fabric, {@link lbsim.metrics.IdleFct}); flows without one are left out.
     */
    public static BarGroup slowdownBySize(String series, List<FlowRecord> flows) {
        Map<Integer, List<Double>> byDecade = new TreeMap<>();
        for (FlowRecord f : flows) {
            if (f.fctNs() < 0 || f.sizeBytes() <= 0 || Double.isNaN(f.slowdown())) continue;
            int decade = (int) Math.floor(Math.log10(f.sizeBytes()));
            byDecade.computeIfAbsent(decade, d -> new ArrayList<>()).add(f.slowdown());
        }
        List<Bar> bars = new ArrayList<>();
        for (var e : byDecade.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            Bar b = Bar.ofSamples(sizeBin(e.getKey()) + " (n=" + v.length + ")", v);
            // XChart's error bars are symmetric: cap the half-height at the distance down to the bin's smallest
            // slowdown, so the lower whisker never reaches below any flow's value (nor below 0)
            double min = java.util.Arrays.stream(v).min().orElse(b.mean());
            bars.add(new Bar(b.category(), b.mean(), Math.min(b.sd(), Math.max(0, b.mean() - min))));
        }
        return new BarGroup(series, bars);
    }

    /** Label of the size decade [10^d, 10^(d+1)) bytes, e.g. "1MB-10MB". */
    static String sizeBin(int decade) {
        return bytes(Math.pow(10, decade)) + "-" + bytes(Math.pow(10, decade + 1));
    }

    static String bytes(double b) {
        String[] unit = {"B", "KB", "MB", "GB", "TB"};
        int u = 0;
        while (b >= 1000 && u < unit.length - 1) {
            b /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.0f%s", b, unit[u]);
    }

    /** Most points a throughput chart gets: longer series are averaged over consecutive intervals. */
    static final int MAX_THROUGHPUT_POINTS = 1000;

    /**
     * The run's total-throughput series (host-facing switch ports, {@link ThroughputSeries}) as a chart
     * series in us; a long run's intervals are averaged in groups so the chart stays at most
     * {@link #MAX_THROUGHPUT_POINTS} points (the mean over the run is unchanged).
     */
    public static Series throughput(String name, ThroughputSeries t) {
        int n = t.gbps().length;
        int group = Math.max(1, (n + MAX_THROUGHPUT_POINTS - 1) / MAX_THROUGHPUT_POINTS);
        int points = (n + group - 1) / group;
        double[] x = new double[points];
        double[] y = new double[points];
        for (int i = 0; i < points; i++) {
            int from = i * group;
            int to = Math.min(n, from + group);
            double sum = 0;
            for (int j = from; j < to; j++) sum += t.gbps()[j];
            y[i] = sum / (to - from);
            x[i] = (from + to) / 2.0 * t.intervalNs() / 1e3;
        }
        return new Series(name, x, y);
    }

    /** Event kinds drawn on time charts: failures, their detection, recoveries and QPs that gave up (not timeouts: too many). */
    static final java.util.Set<String> MARKED_KINDS = java.util.Set.of("link-down", "link-up", "link-degraded", "link-flaky",
            "link-detected", "qp-failed");

    /** Most markers a chart gets: the earliest ones. */
    static final int MAX_MARKERS = 12;

    /**
     * The run's failures and detections (events.csv) as chart markers in us; rows of one kind at
     * one time (a glob failing several links) become one marker naming how many.
     */
    public static List<Marker> eventMarkers(lbsim.engine.EventLog log) {
        List<Marker> out = new ArrayList<>();
        lbsim.engine.EventLog.Entry first = null;
        int same = 0;
        for (lbsim.engine.EventLog.Entry e : log.entries()) {
            if (!MARKED_KINDS.contains(e.kind())) continue;
            if (first != null && first.kind().equals(e.kind()) && first.timePs() == e.timePs()) {
                same++;
                continue;
            }
            if (first != null) out.add(marker(first, same));
            first = e;
            same = 1;
        }
        if (first != null) out.add(marker(first, same));
        return out.size() > MAX_MARKERS ? out.subList(0, MAX_MARKERS) : out;
    }

    private static Marker marker(lbsim.engine.EventLog.Entry e, int count) {
        return new Marker(e.timePs() / 1e6, e.kind() + " " + (count == 1 ? e.subject() : count + " links"));
    }

    /** A histogram (number of NICs per QP count) as one bar group; categories sorted by count. */
    public static BarGroup qpHistogram(String series, int[] maxQpsByNic) {
        Map<Integer, Integer> count = new TreeMap<>();
        for (int q : maxQpsByNic) if (q > 0) count.merge(q, 1, Integer::sum);
        List<Bar> bars = new ArrayList<>();
        for (var e : count.entrySet()) bars.add(new Bar(Integer.toString(e.getKey()), e.getValue(), 0));
        return new BarGroup(series, bars);
    }
}

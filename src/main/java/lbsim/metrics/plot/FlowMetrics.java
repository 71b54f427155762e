package lbsim.metrics.plot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;

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

    /** The NIC rate of host h0 (or the fastest link if there is no h0): the reference for FCT slowdown. */
    public static double hostGbps(List<LinkRecord> links) {
        double max = 0;
        for (LinkRecord l : links) {
            if (l.from().equals("h0")) return l.gbps();
            max = Math.max(max, l.gbps());
        }
        return max;
    }

    /**
     * Mean FCT slowdown (± sd) per flow-size decade: FCT over the flow's serialisation time
     * alone at {@code nicGbps} plus {@code baseLatencyNs}. With {@code baseLatencyNs = 0} small
     * flows show slowdowns above 1 even on an idle fabric (propagation is not subtracted).
     */
    public static BarGroup slowdownBySize(String series, List<FlowRecord> flows, double nicGbps, double baseLatencyNs) {
        Map<Integer, List<Double>> byDecade = new TreeMap<>();
        for (FlowRecord f : flows) {
            if (f.fctNs() < 0 || f.sizeBytes() <= 0) continue;
            double ideal = f.sizeBytes() * 8.0 / nicGbps + baseLatencyNs;
            int decade = (int) Math.floor(Math.log10(f.sizeBytes()));
            byDecade.computeIfAbsent(decade, d -> new ArrayList<>()).add(f.fctNs() / ideal);
        }
        List<Bar> bars = new ArrayList<>();
        for (var e : byDecade.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            bars.add(Bar.ofSamples(sizeBin(e.getKey()), v));
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

    /**
     * Total goodput over time in Gbit/s, in {@code bins} equal slices from 0 to the last finish:
     * each completed flow's bytes are spread evenly over its lifetime (start to finish), so this
     * is a smoothed view built from flows.csv, not a per-packet trace.
     */
    public static Series throughput(String name, List<FlowRecord> flows, int bins) {
        double end = 0;
        for (FlowRecord f : flows) end = Math.max(end, f.finishNs());
        double[] x = new double[bins], y = new double[bins];
        if (end <= 0) return new Series(name, x, y);
        double width = end / bins;
        double[] bits = new double[bins];
        for (FlowRecord f : flows) {
            if (f.finishNs() < 0 || f.startNs() < 0) continue;
            double s = f.startNs(), e = Math.max(f.finishNs(), s + 1e-9);
            double rate = f.sizeBytes() * 8.0 / (e - s); // bits per ns
            int first = (int) Math.min(bins - 1, Math.floor(s / width));
            int last = (int) Math.min(bins - 1, Math.floor(e / width));
            for (int b = first; b <= last; b++) {
                double lo = Math.max(s, b * width), hi = Math.min(e, (b + 1) * width);
                if (hi > lo) bits[b] += rate * (hi - lo);
            }
        }
        for (int b = 0; b < bins; b++) {
            x[b] = (b + 0.5) * width / 1e3;
            y[b] = bits[b] / width; // bits per ns = Gbit/s
        }
        return new Series(name, x, y);
    }

    /**
     * For every NIC that sent a flow, the most QPs it had open at once, counting each flow's
     * QPs from its start to its finish (QPs that linger for the last ACK are not counted,
     * so this can be slightly below the simulator's own max_qps_per_nic). Keyed by host id.
     */
    public static Map<Integer, Integer> maxQpsPerNic(List<FlowRecord> flows) {
        Map<Integer, List<long[]>> events = new TreeMap<>();
        for (FlowRecord f : flows) {
            if (f.startNs() < 0 || f.qps() <= 0) continue;
            double end = f.finishNs() >= 0 ? f.finishNs() : Double.MAX_VALUE;
            List<long[]> ev = events.computeIfAbsent(f.src(), h -> new ArrayList<>());
            // closes sort before opens at the same instant: a flow that ends as the next starts does not overlap it
            ev.add(new long[] {Double.doubleToLongBits(f.startNs()), 1, f.qps()});
            ev.add(new long[] {Double.doubleToLongBits(end), 0, -f.qps()});
        }
        Map<Integer, Integer> out = new TreeMap<>();
        for (var e : events.entrySet()) {
            long[][] ev = e.getValue().toArray(new long[0][]);
            Arrays.sort(ev, (a, b) -> a[0] != b[0] ? Double.compare(Double.longBitsToDouble(a[0]), Double.longBitsToDouble(b[0]))
                    : Long.compare(a[1], b[1]));
            int open = 0, max = 0;
            for (long[] x : ev) {
                open += (int) x[2];
                max = Math.max(max, open);
            }
            out.put(e.getKey(), max);
        }
        return out;
    }

    /** A histogram (number of NICs per QP count) as one bar group; categories sorted by count. */
    public static BarGroup qpHistogram(String series, Map<Integer, Integer> maxQpsPerNic) {
        Map<Integer, Integer> count = new TreeMap<>();
        for (int q : maxQpsPerNic.values()) count.merge(q, 1, Integer::sum);
        List<Bar> bars = new ArrayList<>();
        for (var e : count.entrySet()) bars.add(new Bar(Integer.toString(e.getKey()), e.getValue(), 0));
        return new BarGroup(series, bars);
    }
}

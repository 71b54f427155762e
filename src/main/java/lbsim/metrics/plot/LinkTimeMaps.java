package lbsim.metrics.plot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.metrics.LinkSeries;

/**
 * Per-link utilisation over time as a heat map (link_series.csv): a row per sampled link direction,
 * or per link class ("leaf → spine") when there are more than {@code maxRows} directions, and a
 * column per time window of a round length, so a failure shows as a row going pale after its column.
 * A window's value is the mean of the series' intervals weighted by the time they overlap it
 * (an interval split by a window boundary counts pro rata): the bytes sent in the window over what
 * the link's rate carries in it.
 */
public final class LinkTimeMaps {
    private LinkTimeMaps() {}

    /**
     * The heat map, with its window length and unit.
     *
     * @param byClass true when the rows are link classes, each the mean over its directions
     */
    public record TimeMap(HeatMap map, double windowUs, Units unit, boolean byClass) {
        /** The column (window) that holds time {@code us}, or -1 past the last. */
        public int column(double us) {
            int k = (int) Math.floor(us / windowUs);
            return k >= 0 && k < map.columns().size() ? k : -1;
        }

        /** The largest value in the map (0 if none). */
        public double max() {
            double m = 0;
            for (double[] row : map.values()) for (double x : row) if (!Double.isNaN(x)) m = Math.max(m, x);
            return m;
        }

        /** The same map with " *" after the label of every column that holds one of {@code events}. */
        public TimeMap marking(List<Marker> events) {
            List<String> cols = new ArrayList<>(map.columns());
            for (Marker m : events) {
                int k = column(m.x());
                if (k >= 0 && !cols.get(k).endsWith(" *")) cols.set(k, cols.get(k) + " *");
            }
            String x = events.isEmpty() ? map.columnLabel() : map.columnLabel().replaceFirst("\\)$", "; * = an event in the window)");
            return new TimeMap(new HeatMap(map.title(), map.rowLabel(), x, map.rows(), cols, map.values()), windowUs, unit, byClass);
        }
    }

    /** The map of {@code s} with at most {@code maxColumns} windows (of at least one interval each) and {@code maxRows} rows. */
    public static TimeMap of(LinkSeries s, int maxColumns, int maxRows) {
        if (s.intervals() == 0) throw new IllegalArgumentException("link series has no interval");
        double endUs = s.endPs(s.intervals() - 1) / 1e6, intervalUs = s.intervalPs() / 1e6;
        Units unit = Units.timeFromUs(endUs);
        // a round length in the axis unit (to the picosecond: no 100.00000000000001 us)
        double windowUs = Math.round(Charts.niceCeiling(Math.max(endUs / maxColumns, intervalUs) * unit.factor()) / unit.factor() * 1e6) / 1e6;
        int columns = (int) Math.ceil(endUs / windowUs - 1e-9);
        double[][] perLink = new double[s.links()][columns];
        double[] covered = new double[columns];
        for (int k = 0; k < s.intervals(); k++) {
            double from = (s.endPs(k) - s.lengthPs(k)) / 1e6, to = s.endPs(k) / 1e6;
            for (int w = (int) Math.floor(from / windowUs); w < columns && w * windowUs < to; w++) {
                double overlap = Math.min(to, (w + 1) * windowUs) - Math.max(from, w * windowUs);
                if (overlap <= 0) continue;
                covered[w] += overlap;
                for (int i = 0; i < s.links(); i++) perLink[i][w] += s.utilisation(k, i) * overlap;
            }
        }
        for (double[] row : perLink) for (int w = 0; w < columns; w++) row[w] = covered[w] > 0 ? row[w] / covered[w] : Double.NaN;

        // rows: each direction in name order, or each class (tier pair, upward first) as the mean of its directions
        boolean byClass = s.links() > maxRows;
        Map<String, List<Integer>> rows = byClass
                ? new TreeMap<>(Comparator.comparingDouble(LinkTimeMaps::classRank).thenComparing(Comparator.naturalOrder()))
                : new TreeMap<>(LinkHeatMaps::natural);
        for (int i = 0; i < s.links(); i++) rows.computeIfAbsent(byClass ? linkClass(s.linkId(i)) : s.linkId(i), k -> new ArrayList<>()).add(i);
        List<String> names = new ArrayList<>(rows.keySet());
        double[][] v = new double[names.size()][columns];
        for (int r = 0; r < names.size(); r++) {
            List<Integer> members = rows.get(names.get(r));
            for (int w = 0; w < columns; w++) {
                double sum = 0;
                for (int i : members) sum += perLink[i][w];
                v[r][w] = sum / members.size();
            }
        }
        List<String> cols = new ArrayList<>();
        for (int w = 0; w < columns; w++) cols.add(ColourBar.label(w * windowUs * unit.factor()));
        String title = "Link utilisation over time" + (byClass ? " (mean per link class)" : "");
        String xLabel = "window start (" + unit.name() + "; windows of " + ColourBar.label(windowUs * unit.factor()) + " " + unit.name() + ")";
        return new TimeMap(new HeatMap(title, byClass ? "link class" : "link direction", xLabel, names, cols, v), windowUs, unit, byClass);
    }

    /** "leaf → spine" for link id "leaf3->spine1" (a parallel member's "/k" dropped). */
    static String linkClass(String linkId) {
        int arrow = linkId.indexOf("->");
        if (arrow < 0) return linkId;
        String to = linkId.substring(arrow + 2);
        int slash = to.indexOf('/');
        if (slash >= 0) to = to.substring(0, slash);
        return LinkHeatMaps.tier(linkId.substring(0, arrow)) + " \u2192 " + LinkHeatMaps.tier(to);
    }

    private static double classRank(String cls) {
        String[] p = cls.split(" \u2192 ");
        if (p.length != 2) return 1000;
        double a = LinkHeatMaps.rank(p[0]), b = LinkHeatMaps.rank(p[1]);
        return a <= b ? a * 10 : 100 - a * 10;
    }
}

package lbsim.metrics.plot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.metrics.LinkRecord;

/**
 * Per-link utilisation as heat maps, one panel per direction between two tiers
 * ("leaf → spine", "spine → leaf", "tor → agg", ...). In a panel a row is a switch and a
 * column is the k-th link of that switch towards the other tier (peers in name order), so
 * leaf-spine gives a leaves × spines matrix and a fat-tree a ToRs × uplinks one. Links to
 * hosts are drawn with the ToR as the row and its hosts as columns. Tiers come from node
 * names without their trailing number (h, leaf, spine, tor, agg, core, or any other prefix).
 */
public final class LinkHeatMaps {
    private LinkHeatMaps() {}

    /** One panel of links between two tiers in one direction. */
    public record Panel(String fromTier, String toTier, HeatMap map) {
        /** True for links between two switches (not to or from a host). */
        public boolean fabric() {
            return !fromTier.equals(HOST) && !toTier.equals(HOST);
        }

        /** A file-name-safe key such as "leaf-spine". */
        public String key() {
            return fromTier + "-" + toTier;
        }
    }

    static final String HOST = "h";

    public static List<Panel> panels(String titlePrefix, List<LinkRecord> links) {
        // tier pair -> row node -> links of that row
        Map<String, Map<String, List<LinkRecord>>> groups = new TreeMap<>(Comparator.comparingInt(LinkHeatMaps::pairRank)
                .thenComparing(Comparator.naturalOrder()));
        for (LinkRecord l : links) {
            String ft = tier(l.from()), tt = tier(l.to());
            String row = ft.equals(HOST) ? l.to() : l.from();
            groups.computeIfAbsent(ft + ">" + tt, k -> new TreeMap<>(LinkHeatMaps::natural))
                    .computeIfAbsent(row, k -> new ArrayList<>()).add(l);
        }
        List<Panel> out = new ArrayList<>();
        for (var g : groups.entrySet()) {
            String[] pair = g.getKey().split(">");
            Map<String, List<LinkRecord>> rows = g.getValue();
            boolean hostFrom = pair[0].equals(HOST);
            int cols = 0;
            for (List<LinkRecord> r : rows.values()) {
                r.sort((a, b) -> {
                    int c = natural(hostFrom ? a.from() : a.to(), hostFrom ? b.from() : b.to());
                    return c != 0 ? c : natural(a.link(), b.link());
                });
                cols = Math.max(cols, r.size());
            }
            List<String> rowNames = new ArrayList<>(rows.keySet());
            double[][] v = new double[rowNames.size()][cols];
            Map<Integer, String> sameColumnPeer = new LinkedHashMap<>();
            for (int r = 0; r < rowNames.size(); r++) {
                List<LinkRecord> ls = rows.get(rowNames.get(r));
                java.util.Arrays.fill(v[r], Double.NaN);
                for (int k = 0; k < ls.size(); k++) {
                    LinkRecord l = ls.get(k);
                    v[r][k] = l.utilisation();
                    String peer = (hostFrom ? l.from() : l.to()) + member(l.link());
                    if (r == 0) sameColumnPeer.put(k, peer);
                    else if (!peer.equals(sameColumnPeer.get(k))) sameColumnPeer.put(k, null);
                }
            }
            List<String> colNames = new ArrayList<>();
            for (int k = 0; k < cols; k++) {
                String peer = sameColumnPeer.get(k);
                colNames.add(peer != null ? peer : "#" + k);
            }
            String other = hostFrom ? pair[0] : pair[1];
            String dir = rank(pair[0]) < rank(pair[1]) ? "up" : rank(pair[0]) > rank(pair[1]) ? "down" : "across";
            String title = titlePrefix + pair[0] + " \u2192 " + pair[1] + " (" + dir + ") utilisation";
            String rowTier = hostFrom ? pair[1] : pair[0];
            out.add(new Panel(pair[0], pair[1], new HeatMap(title, rowTier, other + " link (k-th, peers in name order)", rowNames, colNames, v)));
        }
        return out;
    }

    /** The largest value in any of the panels (0 if none). */
    public static double max(List<Panel> panels) {
        double m = 0;
        for (Panel p : panels) for (double[] row : p.map().values()) for (double v : row) if (!Double.isNaN(v)) m = Math.max(m, v);
        return m;
    }

    /** The node name without its trailing number: "leaf12" -> "leaf", "h3" -> "h". */
    static String tier(String node) {
        int i = node.length();
        while (i > 0 && Character.isDigit(node.charAt(i - 1))) i--;
        return i == 0 ? node : node.substring(0, i);
    }

    /** "/2" for the third member of a parallel bundle, else "". */
    static String member(String link) {
        int slash = link.indexOf('/');
        return slash < 0 ? "" : link.substring(slash);
    }

    /** Height of a tier in the fabric: hosts 0, ToR 1, spine/agg 2, core 3; others between ToR and spine. */
    static double rank(String tier) {
        return switch (tier) {
            case HOST -> 0;
            case "leaf", "tor" -> 1;
            case "spine", "agg" -> 2;
            case "core" -> 3;
            default -> 1.5;
        };
    }

    /** Upward panels first (host→ToR, ToR→spine, ...), then downward from the top. */
    private static int pairRank(String pair) {
        String[] p = pair.split(">");
        double a = rank(p[0]), b = rank(p[1]);
        return a <= b ? (int) (a * 10) : (int) (100 - a * 10);
    }

    /** Digits {@code s[from, to)} without leading zeros, one digit kept ("007" -> "7", "000" -> "0"); no regex, as sorting a large fabric's links calls it millions of times. */
    private static String withoutLeadingZeros(String s, int from, int to) {
        while (from < to - 1 && s.charAt(from) == '0') from++;
        return s.substring(from, to);
    }

    /** Names compared with their embedded numbers as numbers ("leaf2" before "leaf10"). */
    static int natural(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                String na = withoutLeadingZeros(a, si, i), nb = withoutLeadingZeros(b, sj, j);
                if (na.length() != nb.length()) return Integer.compare(na.length(), nb.length());
                int c = na.compareTo(nb);
                if (c != 0) return c;
            } else {
                if (x != y) return Character.compare(x, y);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}

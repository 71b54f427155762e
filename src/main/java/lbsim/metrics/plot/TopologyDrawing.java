package lbsim.metrics.plot;

import java.awt.Color;
import java.awt.Font;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import lbsim.metrics.LinkRecord;

/**
 * The fabric drawn tier above tier (hosts at the bottom, then ToRs, spines or aggregation, core),
 * each link a line coloured and thickened by the utilisation of its busier direction (links.csv), on
 * the heat maps' colour scale; a link that is not up at the end of the run is drawn dashed in red.
 * Tiers come from node names, as in {@link LinkHeatMaps}. Fabrics with more than
 * {@link #MAX_HOSTS} hosts are drawn without their hosts.
 */
public final class TopologyDrawing {
    static final int MAX_HOSTS = 256;
    private static final int WIDTH = 1000, TIER_GAP = 130, MARGIN_TOP = 50, MARGIN_BOTTOM = 40, LEFT = 80, RIGHT = 30;
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font TIER = new Font(Font.SANS_SERIF, Font.BOLD, 12);
    private static final Font NODE = new Font(Font.SANS_SERIF, Font.PLAIN, 9);
    private static final Color DOWN = new Color(0xCC, 0, 0);

    private TopologyDrawing() {}

    /** One link (both directions): its ends and the larger of its two utilisations; up unless some direction says otherwise. */
    record Edge(String a, String b, double utilisation, boolean up) {}

    /** Whether the drawing leaves the hosts out (more than {@link #MAX_HOSTS}). */
    public static boolean hostsLeftOut(List<LinkRecord> links) {
        TreeSet<String> hosts = new TreeSet<>();
        for (LinkRecord l : links) {
            if (LinkHeatMaps.tier(l.from()).equals(LinkHeatMaps.HOST)) hosts.add(l.from());
            if (LinkHeatMaps.tier(l.to()).equals(LinkHeatMaps.HOST)) hosts.add(l.to());
        }
        return hosts.size() > MAX_HOSTS;
    }

    /** The links to draw: one per link (directions merged), hosts' left out when there are too many. */
    static List<Edge> edges(List<LinkRecord> links) {
        boolean noHosts = hostsLeftOut(links);
        Map<String, Edge> byLink = new LinkedHashMap<>();
        for (LinkRecord l : links) {
            if (noHosts && (LinkHeatMaps.tier(l.from()).equals(LinkHeatMaps.HOST) || LinkHeatMaps.tier(l.to()).equals(LinkHeatMaps.HOST))) continue;
            boolean up = "up".equals(l.state()) || l.state() == null || l.state().isEmpty();
            byLink.merge(l.link(), new Edge(l.from(), l.to(), l.utilisation(), up),
                    (x, y) -> new Edge(x.a(), x.b(), Math.max(x.utilisation(), y.utilisation()), x.up() && y.up()));
        }
        List<Edge> out = new ArrayList<>(byLink.values());
        out.sort(Comparator.comparingDouble(Edge::utilisation));   // the busiest drawn last, on top
        return out;
    }

    /** Draws the fabric of {@code links} with colour scale 0..{@code scaleMax} into {@code dir/name.*}. */
    public static ChartFiles draw(String title, List<LinkRecord> links, double scaleMax, Path dir, String name) {
        List<Edge> edges = edges(links);
        if (edges.isEmpty()) throw new IllegalArgumentException(title + ": no links to draw");
        // tiers bottom-up, nodes in name order within a tier
        Map<String, TreeSet<String>> tiers = new TreeMap<>(Comparator.comparingDouble(LinkHeatMaps::rank).thenComparing(Comparator.naturalOrder()));
        for (Edge e : edges) {
            tiers.computeIfAbsent(LinkHeatMaps.tier(e.a()), k -> new TreeSet<>(LinkHeatMaps::natural)).add(e.a());
            tiers.computeIfAbsent(LinkHeatMaps.tier(e.b()), k -> new TreeSet<>(LinkHeatMaps::natural)).add(e.b());
        }
        int height = MARGIN_TOP + MARGIN_BOTTOM + TIER_GAP * Math.max(1, tiers.size() - 1) + 40;
        Map<String, double[]> at = new HashMap<>();
        int level = 0;
        for (TreeSet<String> nodes : tiers.values()) {
            double y = height - MARGIN_BOTTOM - 20 - level++ * TIER_GAP, span = WIDTH - LEFT - RIGHT, k = 0;
            for (String n : nodes) at.put(n, new double[] {LEFT + span * (k++ + 0.5) / nodes.size(), y});
        }
        String topTier = ((TreeMap<String, TreeSet<String>>) tiers).lastKey();
        ColourBar bar = new ColourBar(Charts.RAMP, scaleMax, 100, "utilisation (%)");
        Scene s = new Scene(title, WIDTH + ColourBar.WIDTH, height);
        s.text(title, TITLE, WIDTH / 2.0, 24, Scene.Anchor.MIDDLE, false, Color.BLACK);
        for (Edge e : edges) {
            double[] p = at.get(e.a()), q = at.get(e.b());
            double f = Math.min(1, e.utilisation() / scaleMax);
            if (e.up()) s.line(p[0], p[1], q[0], q[1], ColourBar.colour(Charts.RAMP, f), 0.6 + 2.4 * f, 0);
            else s.line(p[0], p[1], q[0], q[1], DOWN, 1.5, 5);
        }
        for (var tier : tiers.entrySet()) {
            boolean hosts = tier.getKey().equals(LinkHeatMaps.HOST), labelled = tier.getValue().size() <= 24;
            double y = 0;
            for (String n : tier.getValue()) {
                double[] p = at.get(n);
                y = p[1];
                if (hosts) s.dot(p[0], p[1], 2.5, Color.DARK_GRAY);
                else s.fill(p[0] - 5, p[1] - 4, 10, 8, Color.DARK_GRAY);
                if (labelled) {
                    // the top tier labelled above, hosts below, the tiers between to the right (clear of the links)
                    if (tier.getKey().equals(topTier)) s.text(n, NODE, p[0], p[1] - 9, Scene.Anchor.MIDDLE, false, Color.BLACK);
                    else if (hosts) s.text(n, NODE, p[0], p[1] + 16, Scene.Anchor.MIDDLE, false, Color.BLACK);
                    else s.text(n, NODE, p[0] + 8, p[1] + 3, Scene.Anchor.START, false, Color.BLACK);
                }
            }
            s.text(tier.getKey() + " (" + tier.getValue().size() + ")", TIER, 8, y + 4, Scene.Anchor.START, false, Color.BLACK);
        }
        bar.addTo(s, WIDTH, height);
        return ChartWriter.write(s, dir, name);
    }
}

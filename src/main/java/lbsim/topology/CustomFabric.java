package lbsim.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fabric given node by node and link by link (a topology file, an ns-3 topology, a Slurm
 * import) rather than by a generator. Checks what {@link Topology} and {@link Routing} rely on
 * and says what is wrong by name: every host has exactly one link, to a switch, and every switch
 * is connected to some ToR (a switch with hosts). The fabric may be in pieces (planes, or rails
 * without spines): a workload is then refused only if one of its flows crosses between pieces
 * ({@link Routing#reachable}). Switch tiers not given are inferred: a
 * switch with hosts is a ToR, a switch one hop above the nearest ToR an aggregation switch, two
 * hops a core switch (deeper fabrics are refused: lbsim's path IDs and tiers stop at three).
 *
 * <p>Links between the same two nodes form a bundle named as the generators name theirs
 * ({@code a-b} alone, {@code a-b/0}, {@code a-b/1}, ... for several), so a generated fabric
 * written out link by link and read back has the same link names.
 */
public final class CustomFabric {
    private CustomFabric() {}

    /** {@code count} parallel links between nodes a and b (indices: hosts first, then switches). */
    public record Link(int a, int b, int count, long rateBps, long latencyPs) {}

    /**
     * @param tiers per switch, its tier, or null to infer it
     * @throws IllegalArgumentException naming the node or link that does not fit
     */
    public static TopologyBuilder builder(List<String> hosts, List<String> switches, List<Tier> tiers, List<Link> links) {
        int h = hosts.size(), n = h + switches.size();
        if (h < 1) throw new IllegalArgumentException("a fabric needs at least one host");
        if (switches.isEmpty()) throw new IllegalArgumentException("a fabric needs at least one switch");
        List<String> names = new ArrayList<>(hosts);
        names.addAll(switches);
        Set<String> seen = new HashSet<>();
        for (String name : names) if (!seen.add(name)) throw new IllegalArgumentException("node " + name + " is named twice");
        int[] hostLinks = new int[h];
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        Map<Long, Integer> perPair = new HashMap<>();
        for (Link l : links) {
            if (l.a() == l.b()) throw new IllegalArgumentException("link " + names.get(l.a()) + "-" + names.get(l.b()) + " connects a node to itself");
            if (l.a() < h && l.b() < h) {
                throw new IllegalArgumentException("link " + names.get(l.a()) + "-" + names.get(l.b()) + " connects two hosts; a host connects to a switch");
            }
            if (l.count() < 1) throw new IllegalArgumentException("link " + names.get(l.a()) + "-" + names.get(l.b()) + ": count must be >= 1");
            for (int e : new int[] {l.a(), l.b()}) if (e < h) hostLinks[e] += l.count();
            adj.get(l.a()).add(l.b());
            adj.get(l.b()).add(l.a());
            perPair.merge(((long) l.a() << 32) | l.b(), l.count(), Integer::sum);
        }
        for (int i = 0; i < h; i++) {
            if (hostLinks[i] != 1) {
                throw new IllegalArgumentException("host " + hosts.get(i) + " has " + hostLinks[i] + " links; a host (one NIC) has"
                        + " exactly one, to its ToR (give a server with several NICs one host per NIC)");
            }
        }
        Tier[] tier = tiers(h, names, tiers, adj);
        TopologyBuilder b = new TopologyBuilder();
        for (int i = 0; i < n; i++) b.addNode(names.get(i), i < h ? Tier.HOST : tier[i]);
        Map<Long, Integer> added = new HashMap<>();
        Set<String> linkNames = new HashSet<>();
        for (Link l : links) {
            long key = ((long) l.a() << 32) | l.b();
            int total = perPair.get(key);
            int before = added.getOrDefault(key, 0);
            String base = names.get(l.a()) + "-" + names.get(l.b());
            for (int i = 0; i < l.count(); i++) {
                String name = total == 1 ? base : base + "/" + (before + i);
                if (!linkNames.add(name)) {
                    throw new IllegalArgumentException("two links would both be named " + name + " (node names with '-' run together);"
                            + " rename a node");
                }
                b.addNamedLink(l.a(), l.b(), name, l.rateBps(), l.latencyPs());
            }
            added.put(key, before + l.count());
        }
        return b;
    }

    /** Given tiers checked, missing ones inferred by hops above the nearest ToR; all ToRs must reach each other. */
    private static Tier[] tiers(int h, List<String> names, List<Tier> given, List<List<Integer>> adj) {
        int n = names.size();
        Tier[] tier = new Tier[n];
        int[] dist = new int[n];
        Arrays.fill(dist, Integer.MAX_VALUE);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        List<Integer> tors = new ArrayList<>();
        for (int s = h; s < n; s++) {
            boolean hasHosts = adj.get(s).stream().anyMatch(x -> x < h);
            Tier g = given.get(s - h);
            if (hasHosts && g != null && g != Tier.TOR) {
                throw new IllegalArgumentException("switch " + names.get(s) + " has hosts, so it is a ToR (tier: tor), not tier "
                        + g.name().toLowerCase(java.util.Locale.ROOT));
            }
            if (g == Tier.HOST) throw new IllegalArgumentException("switch " + names.get(s) + " cannot have tier host");
            if (adj.get(s).isEmpty()) throw new IllegalArgumentException("switch " + names.get(s) + " has no links");
            if (hasHosts || g == Tier.TOR) {
                dist[s] = 0;
                queue.add(s);
                tors.add(s);
            }
        }
        if (tors.isEmpty()) throw new IllegalArgumentException("no switch has hosts");
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v : adj.get(u)) {
                if (v < h || dist[v] != Integer.MAX_VALUE) continue;
                dist[v] = dist[u] + 1;
                queue.add(v);
            }
        }
        for (int s = h; s < n; s++) {
            Tier g = given.get(s - h);
            if (dist[s] == Integer.MAX_VALUE) {
                throw new IllegalArgumentException("switch " + names.get(s) + " is not connected to any ToR (a switch with hosts)");
            }
            if (g != null) {
                tier[s] = g;
            } else if (dist[s] > 2) {
                throw new IllegalArgumentException("switch " + names.get(s) + " is " + dist[s] + " switch hops above the nearest ToR;"
                        + " lbsim's tiers stop at three (tor, agg, core): give its tier, or flatten the fabric");
            } else {
                tier[s] = dist[s] == 0 ? Tier.TOR : dist[s] == 1 ? Tier.AGG : Tier.CORE;
            }
        }
        return tier;
    }
}

package lbsim.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects nodes and links; hosts must be added before any switch. */
public final class TopologyBuilder {
    private final List<String> names = new ArrayList<>();
    private final List<Tier> tiers = new ArrayList<>();
    private final List<int[]> linkEnds = new ArrayList<>();
    private final List<long[]> linkSpecs = new ArrayList<>();
    private final List<String> linkNames = new ArrayList<>();
    private final Map<Long, Integer> parallelCount = new HashMap<>();
    private int hosts;

    public int addNode(String name, Tier tier) {
        if (tier == Tier.HOST) {
            if (hosts != names.size()) throw new IllegalStateException("hosts must be added before switches");
            hosts++;
        }
        names.add(name);
        tiers.add(tier);
        return names.size() - 1;
    }

    /**
     * Adds {@code parallel} links between a and b. A single link is named "a-b"; members of a
     * bundle "a-b/0", "a-b/1", ...
     */
    public void addLinks(int a, int b, int parallel, long rateBps, long latencyPs) {
        if (rateBps <= 0) throw new IllegalArgumentException("link rate must be positive");
        if (latencyPs < 0) throw new IllegalArgumentException("link latency must be non-negative");
        long key = ((long) a << 32) | b;
        int already = parallelCount.getOrDefault(key, 0);
        for (int i = 0; i < parallel; i++) {
            linkEnds.add(new int[] {a, b});
            linkSpecs.add(new long[] {rateBps, latencyPs});
            String base = names.get(a) + "-" + names.get(b);
            linkNames.add(parallel == 1 && already == 0 ? base : base + "/" + (already + i));
        }
        parallelCount.put(key, already + parallel);
    }

    /** Adds one link with a name of the caller's choosing ({@link CustomFabric} names bundles as {@link #addLinks} does). */
    void addNamedLink(int a, int b, String name, long rateBps, long latencyPs) {
        if (rateBps <= 0) throw new IllegalArgumentException("link " + name + ": rate must be positive");
        if (latencyPs < 0) throw new IllegalArgumentException("link " + name + ": latency must be non-negative");
        linkEnds.add(new int[] {a, b});
        linkSpecs.add(new long[] {rateBps, latencyPs});
        linkNames.add(name);
        parallelCount.merge(((long) a << 32) | b, 1, Integer::sum);
    }

    /** Changes rate and latency of one already-added link (index in insertion order). */
    public void overrideLink(int link, long rateBps, long latencyPs) {
        linkSpecs.set(link, new long[] {rateBps, latencyPs});
    }

    public int linkCount() {
        return linkEnds.size();
    }

    public String linkName(int link) {
        return linkNames.get(link);
    }

    public long[] linkSpec(int link) {
        return linkSpecs.get(link).clone();
    }

    public Topology build() {
        return new Topology(hosts, names.toArray(new String[0]), tiers.toArray(new Tier[0]), linkEnds, linkSpecs,
                linkNames);
    }
}

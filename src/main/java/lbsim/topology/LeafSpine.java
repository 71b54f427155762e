package lbsim.topology;

/** Two-tier Clos: every leaf connects to every spine with {@code parallel} links. */
public final class LeafSpine {
    private LeafSpine() {}

    /**
     * Hosts h0..h(N-1) leaf by leaf, leaves leaf0.., spines spine0..; links named
     * "h3-leaf0", "leaf0-spine1" (or "leaf0-spine1/k" for bundle members).
     */
    public static TopologyBuilder builder(int leaves, int spines, int hostsPerLeaf, int parallel, long hostRateBps,
                                          long uplinkRateBps, long latencyPs) {
        require(leaves >= 1, "leaves must be >= 1");
        require(spines >= 1 || leaves == 1, "spines must be >= 1 when there is more than one leaf");
        require(hostsPerLeaf >= 1, "hosts_per_leaf must be >= 1");
        require(parallel >= 1, "parallel_links must be >= 1");
        TopologyBuilder b = new TopologyBuilder();
        int hosts = leaves * hostsPerLeaf;
        for (int h = 0; h < hosts; h++) b.addNode("h" + h, Tier.HOST);
        int firstLeaf = hosts;
        for (int l = 0; l < leaves; l++) b.addNode("leaf" + l, Tier.TOR);
        int firstSpine = hosts + leaves;
        for (int s = 0; s < spines; s++) b.addNode("spine" + s, Tier.AGG);
        for (int h = 0; h < hosts; h++) b.addLinks(h, firstLeaf + h / hostsPerLeaf, 1, hostRateBps, latencyPs);
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) b.addLinks(firstLeaf + l, firstSpine + s, parallel, uplinkRateBps, latencyPs);
        }
        return b;
    }

    static void require(boolean ok, String message) {
        if (!ok) throw new IllegalArgumentException(message);
    }
}

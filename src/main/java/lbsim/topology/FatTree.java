package lbsim.topology;

/**
 * Three-tier Clos with pods. Aggregation switch j of every pod connects to the same
 * "plane" of cores: cores j*c/a .. (j+1)*c/a - 1 (a aggs per pod, c cores). The k-ary
 * fat-tree is pods = k, ToRs = aggs = hosts per ToR = k/2, cores = (k/2)^2; Ethereal §4.1's
 * 512-GPU fabric is 8 pods x (4 ToR, 4 agg), 16 cores, 16 hosts per ToR, 4-link bundles.
 */
public final class FatTree {
    private FatTree() {}

    public static TopologyBuilder kAry(int k, long hostRateBps, long fabricRateBps, long latencyPs) {
        LeafSpine.require(k >= 2 && k % 2 == 0, "fat-tree k must be an even number >= 2");
        int h = k / 2;
        return builder(k, h, h, h * h, h, 1, hostRateBps, fabricRateBps, latencyPs);
    }

    public static TopologyBuilder builder(int pods, int torsPerPod, int aggsPerPod, int cores, int hostsPerTor,
                                          int parallel, long hostRateBps, long fabricRateBps, long latencyPs) {
        LeafSpine.require(pods >= 1, "pods must be >= 1");
        LeafSpine.require(torsPerPod >= 1, "tors_per_pod must be >= 1");
        LeafSpine.require(aggsPerPod >= 1, "aggs_per_pod must be >= 1");
        LeafSpine.require(hostsPerTor >= 1, "hosts_per_tor must be >= 1");
        LeafSpine.require(parallel >= 1, "parallel_links must be >= 1");
        LeafSpine.require(cores >= aggsPerPod && cores % aggsPerPod == 0,
                "cores must be a positive multiple of aggs_per_pod (each aggregation switch serves cores/aggs_per_pod cores)");
        TopologyBuilder b = new TopologyBuilder();
        int tors = pods * torsPerPod;
        int aggs = pods * aggsPerPod;
        int hosts = tors * hostsPerTor;
        for (int i = 0; i < hosts; i++) b.addNode("h" + i, Tier.HOST);
        int firstTor = hosts;
        for (int t = 0; t < tors; t++) b.addNode("tor" + t, Tier.TOR);
        int firstAgg = firstTor + tors;
        for (int a = 0; a < aggs; a++) b.addNode("agg" + a, Tier.AGG);
        int firstCore = firstAgg + aggs;
        for (int c = 0; c < cores; c++) b.addNode("core" + c, Tier.CORE);
        for (int i = 0; i < hosts; i++) b.addLinks(i, firstTor + i / hostsPerTor, 1, hostRateBps, latencyPs);
        int perPlane = cores / aggsPerPod;
        for (int p = 0; p < pods; p++) {
            for (int t = 0; t < torsPerPod; t++) {
                for (int a = 0; a < aggsPerPod; a++) {
                    b.addLinks(firstTor + p * torsPerPod + t, firstAgg + p * aggsPerPod + a, parallel, fabricRateBps, latencyPs);
                }
            }
        }
        for (int p = 0; p < pods; p++) {
            for (int a = 0; a < aggsPerPod; a++) {
                for (int c = a * perPlane; c < (a + 1) * perPlane; c++) {
                    b.addLinks(firstAgg + p * aggsPerPod + a, firstCore + c, parallel, fabricRateBps, latencyPs);
                }
            }
        }
        return b;
    }
}

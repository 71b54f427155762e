package lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link Routing#bestPath} (its switch hops kept per pair of ToRs) against the same bound taken
 * from scratch over every source-route path between the two hosts: per hop, the fastest rate
 * and the shortest latency of any link some path can take there, and how many links that is.
 * Checked for every host pair of fabrics with uneven link rates and latencies, parallel links
 * and failed links, asked in random order so the kept hops are reused across hosts.
 */
class BestPathTest {
    static final long G = 1_000_000_000L;

    /** The bound from {@link Routing#pathBundles} of every path ID; the NIC link first. */
    private static Routing.PathBound fromEveryPath(Topology topo, Routing r, int src, int dst) {
        int[] ids = r.pathIds(src, dst);
        int hops = r.pathBundles(src, dst, ids[0]).length;
        long[] rates = new long[hops + 1];
        int[] links = new int[hops + 1];
        int nic = topo.hostPort(src);
        rates[0] = topo.portRateBps(nic);
        links[0] = 1;
        long latency = topo.portLatencyPs(nic);
        for (int h = 0; h < hops; h++) {
            TreeSet<Integer> ports = new TreeSet<>();
            for (int id : ids) for (int port : r.pathBundles(src, dst, id)[h]) ports.add(port);
            long nearest = Long.MAX_VALUE;
            for (int port : ports) {
                rates[h + 1] = Math.max(rates[h + 1], topo.portRateBps(port));
                nearest = Math.min(nearest, topo.portLatencyPs(port));
            }
            links[h + 1] = ports.size();
            latency += nearest;
        }
        return new Routing.PathBound(rates, latency, links);
    }

    private static void assertEveryPairMatches(Topology topo, Routing r, long seed) {
        int n = topo.hostCount();
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] order = new int[n * n];
        for (int i = 0; i < order.length; i++) order[i] = i;
        for (int i = order.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int pair : order) {
            int src = pair / n;
            int dst = pair % n;
            if (src == dst) continue;
            Routing.PathBound got = r.bestPath(src, dst);
            Routing.PathBound want = fromEveryPath(topo, r, src, dst);
            assertThat(got.ratesBps()).as("rates %d -> %d", src, dst).containsExactly(want.ratesBps());
            assertThat(got.links()).as("links %d -> %d", src, dst).containsExactly(want.links());
            assertThat(got.latencyPs()).as("latency %d -> %d", src, dst).isEqualTo(want.latencyPs());
        }
    }

    /** Random rates (10-400 G) and latencies (0.1-2 us) on every link. */
    private static Topology uneven(TopologyBuilder b, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int l = 0; l < b.linkCount(); l++) {
            b.overrideLink(l, (10 + rnd.nextInt(391)) * G, 100_000 + rnd.nextInt(1_900_000));
        }
        return b.build();
    }

    @Test
    void aFatTreeWithUnevenLinks() {
        Topology topo = uneven(FatTree.kAry(4, 100 * G, 100 * G, 1_000_000), 7);
        assertEveryPairMatches(topo, topo.routing(), 1);
    }

    @Test
    void aLeafSpineWithParallelLinks() {
        Topology topo = uneven(LeafSpine.builder(3, 2, 2, 2, 100 * G, 100 * G, 1_000_000), 8);
        assertEveryPairMatches(topo, topo.routing(), 2);
    }

    @Test
    void aFatTreeWithFailedLinks() {
        Topology topo = uneven(FatTree.kAry(4, 100 * G, 100 * G, 1_000_000), 9);
        boolean[] down = new boolean[topo.linkCount()];
        down[topo.linkCount() - 1] = true;   // a core link
        down[topo.linkCount() / 2] = true;
        assertEveryPairMatches(topo, topo.routingAvoiding(down), 3);
    }
}

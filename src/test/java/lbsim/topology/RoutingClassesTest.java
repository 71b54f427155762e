package lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Routing searches once per class of ToRs with the same neighbouring switches and derives the
 * others' next hops: its groups must equal, id for id, those of a plain breadth-first search from
 * every ToR (the reference below), on regular fabrics, irregular ones, random graphs and with
 * random links down.
 */
class RoutingClassesTest {
    static final long G100 = TopologyTest.G100;
    static final long LAT = TopologyTest.LAT;

    /** Per switch, per ToR index: the group's ports by a search from that ToR (null at the ToR itself). */
    static int[][][] reference(Topology t, boolean[] down) {
        int hosts = t.hostCount(), switches = t.nodeCount() - hosts;
        int[][][] out = new int[switches][t.torCount()][];
        for (int tor = 0; tor < t.torCount(); tor++) {
            int[] d = new int[switches];
            Arrays.fill(d, Integer.MAX_VALUE);
            int src = t.torNode(tor) - hosts;
            d[src] = 0;
            ArrayList<Integer> queue = new ArrayList<>(List.of(src));
            for (int head = 0; head < queue.size(); head++) {
                int u = queue.get(head);
                for (int i = 0; i < t.portsOf(hosts + u); i++) {
                    int port = t.firstPort(hosts + u) + i;
                    int v = t.peerNode(port);
                    if (down[t.portLink(port)] || t.isHost(v) || d[v - hosts] != Integer.MAX_VALUE) continue;
                    d[v - hosts] = d[u] + 1;
                    queue.add(v - hosts);
                }
            }
            for (int s = 0; s < switches; s++) {
                if (s == src) continue;
                List<Integer> ports = new ArrayList<>();
                for (int i = 0; i < t.portsOf(hosts + s) && d[s] != Integer.MAX_VALUE; i++) {
                    int port = t.firstPort(hosts + s) + i;
                    int v = t.peerNode(port);
                    if (!down[t.portLink(port)] && !t.isHost(v) && d[v - hosts] == d[s] - 1) ports.add(i);
                }
                out[s][tor] = ports.stream().mapToInt(Integer::intValue).toArray();
            }
        }
        return out;
    }

    /** Every switch's group toward every ToR, and the ids' order of first appearance, match the reference. */
    static void assertMatchesReference(Topology t, boolean[] down) {
        Routing r = down == null ? t.routing() : t.routingAvoiding(down);
        int[][][] ref = reference(t, down == null ? new boolean[t.linkCount()] : down);
        int hosts = t.hostCount();
        for (int s = 0; s < ref.length; s++) {
            int node = hosts + s;
            List<int[]> firstSeen = new ArrayList<>();
            for (int tor = 0; tor < t.torCount(); tor++) {
                int id = r.groupToward(node, tor);
                if (ref[s][tor] == null) {
                    assertThat(id).isEqualTo(-1);
                    continue;
                }
                assertThat(r.groupsOf(node)[id]).as(t.nodeName(node) + " toward ToR " + tor).containsExactly(ref[s][tor]);
                int[] group = ref[s][tor];
                if (firstSeen.stream().noneMatch(g -> Arrays.equals(g, group))) {
                    assertThat(id).as("ids in order of first appearance at " + t.nodeName(node)).isEqualTo(firstSeen.size());
                    firstSeen.add(group);
                }
            }
            assertThat(r.groupsOf(node).length).isEqualTo(firstSeen.size());
        }
    }

    /** bestPath by the plain layer walk from the source ToR (every node's bundles, sets of nodes), for every pair of hosts. */
    static void assertBestPathsMatchTheWalk(Topology t, Routing r) {
        for (int src = 0; src < t.hostCount(); src++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                int dstTor = t.hostTor(dst);
                java.util.Set<Integer> layer = java.util.Set.of(t.hostTor(src));
                List<Long> rates = new ArrayList<>(List.of(t.hostRateBps(src)));
                List<Integer> links = new ArrayList<>(List.of(1));
                long latency = t.portLatencyPs(t.hostPort(src));
                boolean reachable = true;
                while (!layer.contains(dstTor) && reachable) {
                    long fastest = 0, nearest = Long.MAX_VALUE;
                    int count = 0;
                    java.util.Set<Integer> next = new java.util.HashSet<>();
                    for (int node : layer) {
                        for (int[] bundle : r.nextBundles(node, dst)) {
                            for (int local : bundle) {
                                fastest = Math.max(fastest, t.portRateBps(t.firstPort(node) + local));
                                nearest = Math.min(nearest, t.portLatencyPs(t.firstPort(node) + local));
                                count++;
                            }
                            next.add(t.peerNode(t.firstPort(node) + bundle[0]));
                        }
                    }
                    reachable = fastest > 0;
                    rates.add(fastest);
                    links.add(count);
                    latency += nearest;
                    layer = next;
                }
                if (!reachable) continue;   // bestPath refuses such pairs; runs never ask for them
                int last = t.firstPort(dstTor) + r.torPortToHost(dst);
                rates.add(t.portRateBps(last));
                links.add(1);
                latency += t.portLatencyPs(last);
                Routing.PathBound b = r.bestPath(src, dst);
                String pair = "host " + src + " -> " + dst;
                assertThat(b.ratesBps()).as(pair).containsExactly(rates.stream().mapToLong(Long::longValue).toArray());
                assertThat(b.links()).as(pair).containsExactly(links.stream().mapToInt(Integer::intValue).toArray());
                assertThat(b.latencyPs()).as(pair).isEqualTo(latency);
            }
        }
    }

    /** Uneven rates and latencies per link, so a hop's figures depend on which ToR and which links it leaves from. */
    static Topology uneven(TopologyBuilder b, Random rnd) {
        for (int l = 0; l < b.linkCount(); l++) b.overrideLink(l, (10 + rnd.nextInt(391)) * 1_000_000_000L, 100_000 + rnd.nextInt(1_900_000));
        return b.build();
    }

    @Test
    void bestPathsSharedPerPairOfToRClassesMatchTheWalk() {
        Random rnd = new Random(3);
        for (int trial = 0; trial < 6; trial++) {
            Topology t = uneven(trial % 2 == 0 ? FatTree.kAry(4 + 2 * (trial % 3 == 2 ? 1 : 0), G100, G100, LAT)
                    : FatTree.builder(3, 2, 2, 4, 2, 1 + trial % 2, G100, G100, LAT), rnd);
            assertBestPathsMatchTheWalk(t, t.routing());
            boolean[] down = randomDown(t, rnd, 0.05);
            assertBestPathsMatchTheWalk(t, t.routingAvoiding(down));
        }
    }

    static boolean[] randomDown(Topology t, Random rnd, double fraction) {
        boolean[] down = new boolean[t.linkCount()];
        for (int l = 0; l < down.length; l++) down[l] = rnd.nextDouble() < fraction;
        return down;
    }

    @Test
    void regularFabricsMatchASearchFromEveryTor() {
        for (Topology t : List.of(TopologyTest.leafSpine(4, 3, 2, 1), TopologyTest.leafSpine(3, 4, 1, 2),
                FatTree.kAry(4, G100, G100, LAT).build(), FatTree.kAry(6, G100, G100, LAT).build(),
                FatTree.builder(3, 2, 2, 4, 2, 2, G100, G100, LAT).build())) {
            assertMatchesReference(t, null);
        }
    }

    @Test
    void linksDownMatchASearchFromEveryTor() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 40; trial++) {
            Topology t = trial % 2 == 0 ? FatTree.kAry(4 + 2 * (trial % 3), G100, G100, LAT).build()
                    : FatTree.builder(2 + trial % 3, 3, 2, 4, 1, 1 + trial % 2, G100, G100, LAT).build();
            assertMatchesReference(t, randomDown(t, rnd, 0.02 + 0.3 * rnd.nextDouble()));
        }
    }

    /** Random switch graphs: ToRs with shared and distinct neighbour sets, ToR-to-ToR links, parallel links, islands. */
    @Test
    void randomGraphsMatchASearchFromEveryTor() {
        Random rnd = new Random(11);
        for (int trial = 0; trial < 60; trial++) {
            TopologyBuilder b = new TopologyBuilder();
            int tors = 2 + rnd.nextInt(6), others = 1 + rnd.nextInt(6);
            for (int h = 0; h < tors; h++) b.addNode("h" + h, Tier.HOST);
            for (int i = 0; i < tors; i++) b.addNode("tor" + i, Tier.TOR);
            for (int i = 0; i < others; i++) b.addNode("sw" + i, rnd.nextBoolean() ? Tier.AGG : Tier.CORE);
            for (int h = 0; h < tors; h++) b.addLinks(h, tors + h, 1, G100, LAT);
            boolean[] firstUplinks = new boolean[others];
            for (int o = 0; o < others; o++) firstUplinks[o] = rnd.nextInt(3) > 0;
            for (int tor = 0; tor < tors; tor++) {
                // about half the ToRs copy the first ToR's uplinks, so classes with several members occur
                boolean copy = tor == 0 || rnd.nextBoolean();
                for (int o = 0; o < others; o++) {
                    if (copy ? firstUplinks[o] : rnd.nextInt(3) == 0) b.addLinks(tors + tor, 2 * tors + o, 1 + rnd.nextInt(2), G100, LAT);
                }
                for (int u = tor + 1; u < tors; u++) if (rnd.nextInt(8) == 0) b.addLinks(tors + tor, tors + u, 1, G100, LAT);
            }
            for (int o = 0; o < others; o++) {
                for (int p = o + 1; p < others; p++) if (rnd.nextInt(3) == 0) b.addLinks(2 * tors + o, 2 * tors + p, 1, G100, LAT);
            }
            Topology t = uneven(b, rnd);
            assertMatchesReference(t, null);
            boolean[] down = randomDown(t, rnd, 0.2);
            assertMatchesReference(t, down);
            assertBestPathsMatchTheWalk(t, t.routing());
            assertBestPathsMatchTheWalk(t, t.routingAvoiding(down));
        }
    }
}

package lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingTest {
    static final long G100 = TopologyTest.G100;
    static final long LAT = TopologyTest.LAT;

    @Test
    void leafSpineEcmpGroupsAndPathIds() {
        for (int parallel : new int[] {1, 2}) {
            Topology t = TopologyTest.leafSpine(3, 4, 2, parallel);
            Routing r = t.routing();
            int leaf0 = t.nodeId("leaf0");
            assertThat(r.nextHops(leaf0, 5)).hasSize(4 * parallel);      // to another leaf: every uplink
            assertThat(r.nextHops(leaf0, 1)).hasSize(1);                 // own host
            int spine = t.nodeId("spine2");
            assertThat(r.nextHops(spine, 5)).hasSize(parallel);
            // every member of the leaf's group is an uplink to a spine
            for (int local : r.nextHops(leaf0, 5)) {
                assertThat(t.tier(t.peerNode(t.firstPort(leaf0) + local))).isEqualTo(Tier.AGG);
            }
            assertThat(r.pathCount(0, 1)).isEqualTo(1);
            // path IDs name switch-level paths: one per spine; the bundle member is hashed by the switch
            assertThat(r.pathIds(0, 5)).hasSize(4);
            assertThat(r.nextBundles(leaf0, 5).length).isEqualTo(4);
            for (int[] b : r.nextBundles(leaf0, 5)) assertThat(b).hasSize(parallel);
            for (int id : r.pathIds(0, 5)) {
                int[] ports = r.pathPorts(0, 5, id);
                assertThat(t.portOwner(t.portPeer(r.pathPorts(5, 0, r.reversePathId(0, 5, id))[0])))
                        .as("ACK goes through the spine the data crossed").isEqualTo(t.portOwner(ports[1]));
            }
        }
        assertThat(TopologyTest.leafSpine(2, 8, 1, 1).routing().pathCount(0, 1)).isEqualTo(8);
    }

    @Test
    void fatTreeGroupsAndPathCounts() {
        for (int k : new int[] {4, 8}) {
            Topology t = FatTree.kAry(k, G100, G100, LAT).build();
            Routing r = t.routing();
            int h = k / 2;
            int last = t.hostCount() - 1;
            int tor0 = t.hostTor(0);
            assertThat(r.nextHops(tor0, last)).hasSize(h);               // k/2 aggs
            assertThat(r.nextHops(tor0, h)).hasSize(h);                  // other ToR in the pod
            assertThat(r.nextHops(t.nodeId("agg0"), last)).hasSize(h);   // k/2 cores
            assertThat(r.nextHops(t.nodeId("core0"), last)).hasSize(1);  // one agg in the pod
            assertThat(r.pathCount(0, last)).isEqualTo(h * h);           // inter-pod
            assertThat(r.pathCount(0, h)).isEqualTo(h);                  // intra-pod
            assertThat(r.pathCount(0, 1)).isEqualTo(1);                  // same ToR
        }
    }

    @Test
    void distinctPathIdsTakeDistinctPortSequences() {
        List<Topology> fabrics = List.of(TopologyTest.leafSpine(3, 4, 2, 2), FatTree.kAry(4, G100, G100, LAT).build(),
                FatTree.kAry(8, G100, G100, LAT).build(), FatTree.builder(2, 2, 2, 4, 2, 2, G100, G100, LAT).build());
        for (Topology t : fabrics) {
            Routing r = t.routing();
            for (int[] pair : pairs(t)) {
                int src = pair[0], dst = pair[1];
                Set<String> seen = new HashSet<>();
                int[] ids = r.pathIds(src, dst);
                for (int id : ids) {
                    int[] ports = r.pathPorts(src, dst, id);
                    assertThat(seen.add(Arrays.toString(ports))).as("path %d of %d->%d is unique", id, src, dst).isTrue();
                    assertValidPath(t, src, dst, ports);
                }
                assertThat(seen).hasSize(ids.length);
            }
        }
    }

    @Test
    void reversePathTraversesExactlyTheReverseLinks() {
        List<Topology> fabrics = List.of(TopologyTest.leafSpine(3, 4, 2, 2), FatTree.kAry(4, G100, G100, LAT).build(),
                FatTree.builder(2, 2, 2, 4, 2, 2, G100, G100, LAT).build(),
                FatTree.builder(8, 4, 4, 16, 16, 4, G100, G100, LAT).build());
        for (Topology t : fabrics) {
            Routing r = t.routing();
            for (int[] pair : pairs(t)) {
                int src = pair[0], dst = pair[1];
                for (int id : r.pathIds(src, dst)) {
                    int[] fwd = r.pathPorts(src, dst, id);
                    int rev = r.reversePathId(src, dst, id);
                    int[] back = r.pathPorts(dst, src, rev);
                    int[] expected = new int[fwd.length];
                    for (int i = 0; i < fwd.length - 1; i++) expected[i] = t.portPeer(fwd[fwd.length - 2 - i]);
                    expected[fwd.length - 1] = t.portPeer(t.hostPort(src)); // src ToR's port down to src
                    assertThat(back).as("reverse of %d->%d path %d", src, dst, id).containsExactly(expected);
                    // and the reverse of the reverse is the original
                    assertThat(r.pathPorts(src, dst, r.reversePathId(dst, src, rev))).containsExactly(fwd);
                }
            }
        }
    }

    /** Ethereal §4's fat-tree: 8 pods x 4 ToRs x 16 hosts, 4 aggs per pod, 16 cores, 4-link bundles. */
    private static Topology paperFatTree() {
        return FatTree.builder(8, 4, 4, 16, 16, 4, G100, G100, LAT).build();
    }

    @Test
    void portPathIdsNameEveryUplinkPortBundleMembersIncluded() {
        Topology ls = TopologyTest.leafSpine(3, 4, 2, 2);
        assertThat(ls.routing().pathIds(0, 5, PathControl.PORT)).hasSize(4 * 2);   // 4 spines x 2 members
        assertThat(ls.routing().pathIds(0, 5, PathControl.LAG)).hasSize(4);
        Topology ft = FatTree.builder(2, 2, 2, 4, 2, 2, G100, G100, LAT).build(); // 2 aggs, 2 cores per agg, 2-link bundles
        assertThat(ft.routing().pathIds(0, 4, PathControl.PORT)).hasSize(4 * 4);    // other pod: 4 ToR uplinks x 4 agg uplinks
        assertThat(ft.routing().pathIds(0, 2, PathControl.PORT)).hasSize(4);        // other ToR of the pod
        assertThat(ft.routing().pathIds(0, 1, PathControl.PORT)).containsExactly(0);
        Topology paper = paperFatTree();
        assertThat(paper.routing().pathIds(0, 64, PathControl.PORT)).hasSize(16 * 16);
        assertThat(paper.routing().pathIds(0, 16, PathControl.PORT)).hasSize(16);
        assertThat(paper.routing().widestChoice(PathControl.PORT).nextHops()).isEqualTo(16); // a ToR's or agg's uplink ports
        assertThat(paper.routing().widestChoice(PathControl.LAG).nextHops()).isEqualTo(4);   // its next-hop switches
        for (Topology t : List.of(ls, ft, paper)) {
            Routing r = t.routing();
            for (int[] pair : pairs(t)) {
                int src = pair[0], dst = pair[1];
                int[] ids = r.pathIds(src, dst, PathControl.PORT);
                Set<String> seen = new HashSet<>();
                java.util.Map<Integer, Integer> perPort = new java.util.HashMap<>();   // hop index * 1e6 + port -> paths
                for (int id : ids) {
                    int[] ports = r.pathPorts(src, dst, id, PathControl.PORT);
                    assertThat(seen.add(Arrays.toString(ports))).as("path %d of %d->%d is unique", id, src, dst).isTrue();
                    assertValidPath(t, src, dst, ports);
                    for (int i = 0; i < ports.length; i++) perPort.merge(i * 1_000_000 + ports[i], 1, Integer::sum);
                    // downward hops take the member the path went up on at the same tier boundary
                    int hops = ports.length - 1;
                    for (int i = 0; i < hops / 2; i++) {
                        assertThat(member(t, ports[hops - 1 - i])).as("member down at hop %d of path %d", hops - 1 - i, id)
                                .isEqualTo(member(t, ports[i]));
                    }
                }
                // every egress port of every hop carries the same number of path IDs: Theorem 1's even split reaches every member link
                for (int i = 0; ids.length > 1 && i < r.pathPorts(src, dst, ids[0], PathControl.PORT).length; i++) {
                    int hop = i;
                    List<Integer> counts = perPort.entrySet().stream().filter(e -> e.getKey() / 1_000_000 == hop)
                            .map(java.util.Map.Entry::getValue).distinct().toList();
                    assertThat(counts).as("paths per port at hop %d of %d->%d", hop, src, dst).hasSize(1);
                }
            }
        }
    }

    /** The member index of a port inside its bundle (the number after '/' in the link's name, 0 for a single link). */
    private static int member(Topology t, int port) {
        String name = t.linkName(t.portLink(port));
        int slash = name.indexOf('/');
        return slash < 0 ? 0 : Integer.parseInt(name.substring(slash + 1));
    }

    @Test
    void portPathIdEncodingIsTheUplinkIndexPerUpwardHop() {
        // docs/scenario.md: 0x0105 from host 0 to another pod: ToR uplink 5 = member 1 of the bundle to the second agg,
        // then that agg's uplink 1 = member 1 to the first core of its plane; down the same members
        Topology t = paperFatTree();
        int[] ports = t.routing().pathPorts(0, 511, 0x0105, PathControl.PORT);
        List<String> links = Arrays.stream(ports).mapToObj(p -> t.portName(p)).toList();
        assertThat(links).containsExactly("tor0->agg1/1", "agg1->core4/1", "core4->agg29/1", "agg29->tor31/1", "tor31->h511");
    }

    @Test
    void portReversePathTraversesExactlyTheReverseLinks() {
        List<Topology> fabrics = List.of(TopologyTest.leafSpine(3, 4, 2, 2), TopologyTest.leafSpine(2, 1, 2, 4),
                FatTree.kAry(4, G100, G100, LAT).build(), FatTree.builder(2, 2, 2, 4, 2, 2, G100, G100, LAT).build(),
                FatTree.builder(2, 2, 1, 2, 2, 3, G100, G100, LAT).build(), paperFatTree());
        for (Topology t : fabrics) {
            Routing r = t.routing();
            for (int[] pair : pairs(t)) {
                int src = pair[0], dst = pair[1];
                for (int id : r.pathIds(src, dst, PathControl.PORT)) {
                    int[] fwd = r.pathPorts(src, dst, id, PathControl.PORT);
                    int rev = r.reversePathId(src, dst, id, PathControl.PORT);
                    int[] back = r.pathPorts(dst, src, rev, PathControl.PORT);
                    int[] expected = new int[fwd.length];
                    for (int i = 0; i < fwd.length - 1; i++) expected[i] = t.portPeer(fwd[fwd.length - 2 - i]);
                    expected[fwd.length - 1] = t.portPeer(t.hostPort(src));
                    assertThat(back).as("reverse of %d->%d path %d", src, dst, id).containsExactly(expected);
                    assertThat(r.reversePathId(dst, src, rev, PathControl.PORT)).isEqualTo(id);
                }
            }
        }
    }

    @Test
    void withoutBundlesPortAndLagPathIdsAreTheSame() {
        for (Topology t : List.of(TopologyTest.leafSpine(3, 4, 2, 1), FatTree.kAry(4, G100, G100, LAT).build(),
                FatTree.kAry(8, G100, G100, LAT).build())) {
            Routing r = t.routing();
            for (int[] pair : pairs(t)) {
                int src = pair[0], dst = pair[1];
                int[] ids = r.pathIds(src, dst, PathControl.LAG);
                assertThat(r.pathIds(src, dst, PathControl.PORT)).containsExactly(ids);
                for (int id : ids) {
                    assertThat(r.pathPorts(src, dst, id, PathControl.PORT)).containsExactly(r.pathPorts(src, dst, id));
                    assertThat(r.reversePathId(src, dst, id, PathControl.PORT)).isEqualTo(r.reversePathId(src, dst, id));
                }
            }
        }
    }

    /** A few host pairs: same ToR, same pod / neighbouring leaf, far apart. */
    private static List<int[]> pairs(Topology t) {
        int n = t.hostCount();
        int perTor = 0;
        for (int h = 0; h < n; h++) if (t.hostTor(h) == t.hostTor(0)) perTor++;
        return List.of(new int[] {0, 1 % n}, new int[] {0, perTor}, new int[] {perTor + 1, 0}, new int[] {0, n - 1},
                new int[] {n - 1, n / 2 - 1});
    }

    /** The ports chain: each starts where the previous one ends, and the last one reaches dst. */
    private static void assertValidPath(Topology t, int src, int dst, int[] ports) {
        int node = t.hostTor(src);
        for (int p : ports) {
            assertThat(t.portOwner(p)).isEqualTo(node);
            node = t.peerNode(p);
        }
        assertThat(node).isEqualTo(dst);
    }
}

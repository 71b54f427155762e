package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.topology.FatTree;
import lbsim.topology.LeafSpine;
import lbsim.topology.Routing;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Switches with equal next-hop tables share one array (Network.sharedTable): the sharing must
 * leave every switch's next hops toward every other ToR what its own routing says, before and
 * after a detected failure, and it must actually share (a k-ary fat-tree has one table for all
 * ToRs, one per pod for the aggregation switches and one for the cores).
 */
class SharedRoutingTableTest {
    static final long RATE = 100_000_000_000L;

    private static Network network(Topology topo) {
        return new Network(new Simulation(1), topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
    }

    /** Every switch's live next hops toward every ToR but its own are the routing's group toward it. */
    private static void assertNextHopsMatch(Network net, Topology topo, Routing routing) {
        for (Switch s : net.switches()) {
            int self = topo.torIndex(s.id);
            for (int t = 0; t < topo.torCount(); t++) {
                if (t == self) continue;
                int g = routing.groupToward(s.id, t);
                int[] expected = g >= 0 ? routing.groupsOf(s.id)[g] : new int[0];
                assertThat(s.liveNextHops(t)).as("%s toward ToR %d", s.name(), t).containsExactly(expected);
            }
        }
    }

    @Test
    void aKAryFatTreeHasOneTablePerRole() {
        for (int k : new int[] {4, 8}) {
            Topology topo = FatTree.kAry(k, RATE, RATE, 1_000_000).build();
            Network net = network(topo);
            assertNextHopsMatch(net, topo, topo.routing());
            // all ToRs, the aggregation switches of each of the k pods, all cores
            assertThat(net.sharedTableCount()).as("k=%d", k).isEqualTo(1 + k + 1);
            // the routing's group ids per ToR and the switches' source-route bundles are shared the same way
            java.util.Set<Object> rows = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            java.util.Set<Object> bundles = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Switch s : net.switches()) {
                rows.add(topo.routing().groupByTor(s.id));
                bundles.add(s.staticBundleTable());
                int self = topo.torIndex(s.id);
                for (int t = 0; t < topo.torCount(); t++) {
                    if (t == self) continue;
                    int g = topo.routing().groupToward(s.id, t);
                    assertThat(s.staticBundleTable()[t]).as("%s toward ToR %d", s.name(), t).isDeepEqualTo(topo.routing().bundlesOf(s.id)[g]);
                }
            }
            assertThat(rows).as("k=%d routing rows", k).hasSize(1 + k + 1);
            assertThat(bundles).as("k=%d bundle tables", k).hasSize(1 + k + 1);
        }
    }

    @Test
    void nextHopsStayExactAfterADetectedFailure() {
        Topology topo = FatTree.kAry(4, RATE, RATE, 1_000_000).build();
        Network net = network(topo);
        boolean[] down = new boolean[topo.linkCount()];
        for (int link : new int[] {topo.linkCount() - 1, topo.linkCount() / 2}) {
            net.failLink(link, 0);
            down[link] = true;
            assertNextHopsMatch(net, topo, topo.routingAvoiding(down));
            java.util.Set<int[]> live = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Switch s : net.switches()) live.add(s.nextHopTable());
            assertThat(net.sharedTableCount()).as("only the live tables are kept").isEqualTo(live.size());
        }
    }

    @Test
    void aToRsOwnEntryTakesTheCommonValueSoLeavesShare() {
        // 4 leaves x 2 spines: every leaf reaches the other three leaves over both spines
        Topology topo = LeafSpine.builder(4, 2, 2, 1, RATE, RATE, 1_000_000).build();
        Network net = network(topo);
        assertNextHopsMatch(net, topo, topo.routing());
        assertThat(net.sharedTableCount()).as("one for the leaves, one for the spines").isEqualTo(2);
    }

    @Test
    void mostCommonIsTheModeWithTheSmallestOnTies() {
        assertThat(Switch.mostCommon(new int[] {5, -2, -2, 7, -2})).isEqualTo(-2);
        assertThat(Switch.mostCommon(new int[] {3, 1, 3, 1})).isEqualTo(1);
        assertThat(Switch.mostCommon(new int[] {9})).isEqualTo(9);
    }
}

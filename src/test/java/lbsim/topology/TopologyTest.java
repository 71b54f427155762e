package lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopologyTest {
    static final long G100 = 100_000_000_000L;
    static final long LAT = 1_000_000L;

    static Topology leafSpine(int leaves, int spines, int hpl, int parallel) {
        return LeafSpine.builder(leaves, spines, hpl, parallel, G100, G100, LAT).build();
    }

    static int countTier(Topology t, Tier tier) {
        int c = 0;
        for (int n = 0; n < t.nodeCount(); n++) if (t.tier(n) == tier) c++;
        return c;
    }

    @Test
    void leafSpineCountsAndHostNumbering() {
        Topology t = leafSpine(4, 3, 5, 2);
        assertThat(t.hostCount()).isEqualTo(20);
        assertThat(t.nodeCount()).isEqualTo(20 + 4 + 3);
        assertThat(t.torCount()).isEqualTo(4);
        assertThat(countTier(t, Tier.AGG)).isEqualTo(3);
        assertThat(t.linkCount()).isEqualTo(20 + 4 * 3 * 2);
        assertThat(t.portCount()).isEqualTo(2 * t.linkCount());
        for (int h = 0; h < 20; h++) {
            assertThat(t.isHost(h)).isTrue();
            assertThat(t.nodeName(h)).isEqualTo("h" + h);
            assertThat(t.nodeName(t.hostTor(h))).isEqualTo("leaf" + (h / 5));
            assertThat(t.torIndex(t.hostTor(h))).isEqualTo(h / 5);
            assertThat(t.peerNode(t.hostPort(h))).isEqualTo(t.hostTor(h));
        }
        // every leaf: hosts + spines x parallel ports; every spine: leaves x parallel
        assertThat(t.portsOf(t.nodeId("leaf2"))).isEqualTo(5 + 3 * 2);
        assertThat(t.portsOf(t.nodeId("spine1"))).isEqualTo(4 * 2);
        for (int p = 0; p < t.portCount(); p++) assertThat(t.portPeer(t.portPeer(p))).isEqualTo(p);
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 8})
    void kAryFatTreeCounts(int k) {
        Topology t = FatTree.kAry(k, G100, G100, LAT).build();
        int h = k / 2;
        assertThat(t.hostCount()).isEqualTo(k * k * k / 4);
        assertThat(countTier(t, Tier.TOR)).isEqualTo(k * h);
        assertThat(countTier(t, Tier.AGG)).isEqualTo(k * h);
        assertThat(countTier(t, Tier.CORE)).isEqualTo(h * h);
        assertThat(t.nodeCount()).isEqualTo(k * k * k / 4 + 5 * k * k / 4);
        assertThat(t.linkCount()).isEqualTo(3 * k * k * k / 4);
        // every switch has k ports, every host one
        for (int n = t.hostCount(); n < t.nodeCount(); n++) assertThat(t.portsOf(n)).as(t.nodeName(n)).isEqualTo(k);
        // hosts numbered pod by pod, ToR by ToR
        for (int host = 0; host < t.hostCount(); host++) {
            assertThat(t.nodeName(t.hostTor(host))).isEqualTo("tor" + (host / h));
            assertThat(t.torIndex(t.hostTor(host))).isEqualTo(host / h);
        }
        // ToR t sits in pod t / (k/2): its aggs are that pod's aggs
        for (int tor = 0; tor < k * h; tor++) {
            int node = t.nodeId("tor" + tor);
            for (int i = 0; i < t.portsOf(node); i++) {
                int peer = t.peerNode(t.firstPort(node) + i);
                if (t.tier(peer) == Tier.AGG) {
                    int agg = Integer.parseInt(t.nodeName(peer).substring(3));
                    assertThat(agg / h).isEqualTo(tor / h);
                }
            }
        }
    }

    @Test
    void etherealFabricHas512HostsAnd16PortToRUplinkGroups() {
        Topology t = FatTree.builder(8, 4, 4, 16, 16, 4, G100, G100, LAT).build();
        assertThat(t.hostCount()).isEqualTo(512);
        assertThat(t.torCount()).isEqualTo(32);
        assertThat(countTier(t, Tier.CORE)).isEqualTo(16);
        Routing r = t.routing();
        int tor0 = t.hostTor(0);
        assertThat(r.nextHops(tor0, 511)).hasSize(16);            // 4 aggs x 4-link bundles
        assertThat(r.nextHops(tor0, 16)).hasSize(16);             // another ToR in the same pod
        int agg0 = t.nodeId("agg0");
        assertThat(r.nextHops(agg0, 511)).hasSize(4 * 4);         // 4 cores of its plane x 4 links
        assertThat(r.nextHops(agg0, 16)).hasSize(4);              // down to a ToR of its pod: one bundle
        // path IDs name switch-level paths (Ethereal §3): 4 aggs x 4 cores; bundle members are hashed
        assertThat(r.pathCount(0, 511)).isEqualTo(4 * 4);
        assertThat(r.pathCount(0, 16)).isEqualTo(4);
        assertThat(r.pathCount(0, 1)).isEqualTo(1);
    }

    @Test
    void linksMatchingGlobs() {
        Topology t = leafSpine(3, 2, 2, 1);
        assertThat(names(t, "leaf0-spine1")).containsExactly("leaf0-spine1");
        assertThat(names(t, "leaf*-spine0")).containsExactly("leaf0-spine0", "leaf1-spine0", "leaf2-spine0");
        assertThat(names(t, "leaf1-*")).containsExactly("leaf1-spine0", "leaf1-spine1");
        assertThat(names(t, "h?-leaf0")).containsExactly("h0-leaf0", "h1-leaf0");
        assertThat(names(t, "*")).hasSize(t.linkCount());
        assertThat(t.linksMatching("leaf9-spine0")).isEmpty();
        assertThat(t.linksMatching("leaf0.spine0")).as("'.' is literal").isEmpty();
        // only * and ? are wildcards: regex and shell-brace characters are literal, never a crash
        for (String g : new String[] {"leaf[0-spine0", "{leaf0,leaf1}-spine0", "leaf0-spine0+", "leaf(0)-spine0", "leaf\\Q0-spine0",
            "leaf0-spine0$", "^leaf0-spine0", "leaf0|leaf1-spine0"}) {
            assertThat(t.linksMatching(g)).as(g).isEmpty();
        }
        assertThat(names(t, "leaf[0-*")).isEmpty();

        Topology b = leafSpine(2, 2, 1, 3);
        assertThat(names(b, "leaf0-spine1")).as("a bundle name matches its members")
                .containsExactly("leaf0-spine1/0", "leaf0-spine1/1", "leaf0-spine1/2");
        assertThat(names(b, "leaf0-spine1/2")).containsExactly("leaf0-spine1/2");
        assertThat(names(b, "leaf*-spine0/0")).containsExactly("leaf0-spine0/0", "leaf1-spine0/0");
        assertThat(names(b, "leaf0*")).as("'*' does not cross the member '/'").hasSize(6);
    }

    private static String[] names(Topology t, String glob) {
        return Arrays.stream(t.linksMatching(glob)).mapToObj(t::linkName).toArray(String[]::new);
    }
}

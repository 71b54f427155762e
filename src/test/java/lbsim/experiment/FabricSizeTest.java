package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lbsim.BadInputException;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/** A fabric too large for the heap is refused when the scenario is read, naming the keys that shrink it (issue 31). */
class FabricSizeTest {
    static TopologySpec topology(String topo) {
        return ScenarioLoader.parse("big.yaml", "topology: " + topo + "\nworkload: {kind: permutation, size_bytes: 1000}\n", null, List.of(), null)
                .topology();
    }

    /** The counts match the built fabric's, so the estimate is of the fabric that would be built. */
    @Test
    void theCountsAreThoseOfTheBuiltFabric() {
        Topology ft = topology("{kind: fat-tree, k: 8, parallel_links: 2}").build("t");
        FabricSize f = FabricSize.fatTree(8, 4, 4, 16, 4, 2);
        assertThat(f.hosts()).isEqualTo(ft.hostCount());
        assertThat(f.links()).isEqualTo(ft.linkCount());
        assertThat(f.hosts() + f.switches()).isEqualTo(ft.nodeCount());
        Topology ls = topology("{kind: leaf-spine, leaves: 6, spines: 3, hosts_per_leaf: 5}").build("t");
        FabricSize l = FabricSize.leafSpine(6, 3, 5, 1);
        assertThat(l.links()).isEqualTo(ls.linkCount());
        assertThat(l.hosts() + l.switches()).isEqualTo(ls.nodeCount());
    }

    @Test
    void aFatTreeOfK256IsRefusedNamingTheKeysThatShrinkIt() {
        assertThat(FabricSize.fatTree(256, 128, 128, 128 * 128, 128, 1).heapBytes()).isGreaterThan(Runtime.getRuntime().maxMemory());
        assertThatThrownBy(() -> topology("{kind: fat-tree, k: 256}"))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("big.yaml: topology.k: a fabric of 4194304 hosts")
                .hasMessageContaining("topology.k, topology.pods").hasMessageContaining("-Xmx");
    }

    /** Sizes whose products pass an int (and switches x ToRs a long) are refused, not wrapped. */
    @Test
    void sizesPastAnIntAreRefusedNotWrapped() {
        assertThatThrownBy(() -> topology("{kind: leaf-spine, leaves: 100000, spines: 100000, hosts_per_leaf: 100000}"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.leaves: a fabric of 10000000000 hosts");
        assertThatThrownBy(() -> topology("{kind: fat-tree, k: 2, pods: 100000, tors_per_pod: 100000, aggs_per_pod: 1, cores: 100000}"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.k:");
    }

    @Test
    void aFabricThatFitsIsRead() {
        assertThat(topology("{kind: fat-tree, k: 32}").hostCount()).isEqualTo(8192);
        assertThat(FabricSize.fatTree(32, 16, 16, 256, 16, 1).heapBytes()).isLessThan(64L << 20);
    }
}

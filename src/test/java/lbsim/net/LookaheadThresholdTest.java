package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.topology.FatTree;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/** The network turns the event loop's prefetching on only for fabrics whose state outgrows the caches. */
class LookaheadThresholdTest {
    static final long RATE = 100_000_000_000L;

    private static boolean lookaheadFor(int k) {
        Simulation sim = new Simulation(1);
        Topology topo = FatTree.kAry(k, RATE, RATE, 1_000_000).build();
        Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
        assertThat(net.ports().length >= Network.LOOKAHEAD_MIN_PORTS).isEqualTo(sim.lookahead());
        return sim.lookahead();
    }

    @Test
    void smallFabricsRunWithoutItLargeOnesWithIt() {
        assertThat(lookaheadFor(8)).isFalse();    // 768 ports
        assertThat(lookaheadFor(12)).isFalse();   // 2 592 ports
        assertThat(lookaheadFor(16)).isTrue();    // 6 144 ports
    }
}

package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The load adaptive routing compares ({@link Switch#arLoad}): egress bytes (waiting + serialising) in
 * {@code ar_levels} equal bands over min(the port's ECN Kmax, its buffer), the last band open-ended.
 */
class ArLoadTest {
    static final long RATE = 100_000_000_000L;
    static final int BYTES = 4160;           // a 4096 B packet with its 64 B header
    static final long SER_PS = BYTES * 80L;  // 80 ps per byte at 100 Gbps

    @Test
    void bandsSplitTheRangeEquallyAndTheLastIsOpenEnded() {
        assertThat(SwitchConfig.arBandBytes(65_536, 8)).isEqualTo(8_192);
        assertThat(SwitchConfig.arBandBytes(300_000, 8)).isEqualTo(37_500);
        assertThat(SwitchConfig.arBandBytes(65_537, 8)).as("rounded up").isEqualTo(8_193);
        assertThat(SwitchConfig.arBandBytes(3, 8)).as("at least a byte").isEqualTo(1);
        long w = 8_192;
        assertThat(SwitchConfig.arBand(0, w, 8)).isZero();
        assertThat(SwitchConfig.arBand(BYTES, w, 8)).as("one packet").isZero();
        assertThat(SwitchConfig.arBand(8_191, w, 8)).isZero();
        assertThat(SwitchConfig.arBand(8_192, w, 8)).isEqualTo(1);
        assertThat(SwitchConfig.arBand(2 * BYTES, w, 8)).as("two packets").isEqualTo(1);
        assertThat(SwitchConfig.arBand(7 * w, w, 8)).isEqualTo(7);
        assertThat(SwitchConfig.arBand(1L << 40, w, 8)).as("beyond the range: the last band").isEqualTo(7);
        assertThat(SwitchConfig.arBand(1L << 40, w, 1)).as("one level: every port ties").isZero();
    }

    /** Two packets from two hosts to a third meet at the leaf: one serialising, one waiting, 8320 bytes. */
    private static long arLoadOfTwoPackets(SwitchConfig cfg) {
        Simulation sim = new Simulation(1);
        Topology topo = LeafSpine.builder(1, 0, 3, 1, RATE, RATE, 1_000_000).build();
        Network net = new Network(sim, topo, cfg, sw -> (s, p, c) -> c[0]);
        net.setSink((h, p) -> net.release(p));
        for (int src = 0; src < 2; src++) {
            Packet p = net.newPacket();
            p.src = src;
            p.dst = 2;
            p.wireBytes = BYTES;
            net.host(src).sendAtDataPriority(p);
        }
        sim.run(SER_PS + 1_000_000 + SER_PS / 2);
        Switch leaf = net.switchNode(topo.nodeId("leaf0"));
        for (int i = 0; i < leaf.portCount(); i++) {
            if (leaf.port(i).peer().id == 2) {
                assertThat(leaf.egressBytes(i)).isEqualTo(2 * BYTES);
                return leaf.arLoad(i);
            }
        }
        throw new AssertionError("no port to h2");
    }

    @Test
    void aPortsRangeIsItsEcnKmaxButNoMoreThanItsBuffer() {
        // 64 KB static buffer under the 300 KB DCTCP threshold of 100 Gbps: bands of 8 KB, two packets in band 1
        SwitchConfig small = new SwitchConfig(64L << 20, 65_536, 1.0, false, 1.0, -1, -1, -1, -1, -1, "dctcp-hpcc", 4096);
        assertThat(small.arLevels()).isEqualTo(SwitchConfig.AR_LEVELS).isEqualTo(8);
        assertThat(arLoadOfTwoPackets(small)).isEqualTo(1);
        // the shared 64 MB buffer: the 300 KB threshold, bands of 37.5 KB, two packets in band 0
        assertThat(arLoadOfTwoPackets(SwitchConfig.defaults())).isZero();
        // an explicit ECN threshold of 16 KB: bands of 2 KB
        assertThat(arLoadOfTwoPackets(SwitchConfig.defaults().withEcn(16_384, 16_384, 1.0))).isEqualTo(4);
        // ar_levels 0: the exact bytes
        assertThat(arLoadOfTwoPackets(small.withArLevels(0))).isEqualTo(2 * BYTES);
    }
}

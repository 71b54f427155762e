package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * ECN profile thresholds scale with the port rate over the whole range a scenario accepts
 * (topology.link_gbps up to 1e6): 30 KB per 10 Gbps (DCTCP), RED 100/400 KB per 25 Gbps (DCQCN).
 * Bytes-per-Gbps x rate in bit/s overflowed a long from 23 Tb/s (DCQCN Kmax) and 307 Tb/s (DCTCP).
 */
class SwitchConfigTest {
    static final long PBPS = 1_000_000_000_000_000L;

    @Test
    void dctcpStepScalesWithoutOverflow() {
        SwitchConfig c = SwitchConfig.defaults();
        assertThat(c.kmin(100_000_000_000L)).isEqualTo(300_000);
        assertThat(c.kmin(PBPS)).isEqualTo(3_000_000_000L);
        assertThat(c.kmax(PBPS)).isEqualTo(3_000_000_000L);
    }

    @Test
    void dcqcnRedScalesWithoutOverflow() {
        SwitchConfig c = new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dcqcn-hpcc", 4096);
        assertThat(c.kmin(25_000_000_000L)).isEqualTo(100_000);
        assertThat(c.kmax(25_000_000_000L)).isEqualTo(400_000);
        assertThat(c.kmin(40_000_000_000_000L)).isEqualTo(160_000_000L);
        assertThat(c.kmax(40_000_000_000_000L)).isEqualTo(640_000_000L);
        assertThat(c.kmax(PBPS)).isEqualTo(16_000_000_000L);
    }

    /** DCTCP §3.4: K = C x RTT / 7, at least two packets; the RTT the configuration is sized for. */
    @Test
    void dctcpGuidelineIsTheBdpOverSeven() {
        long rtt = 7 * lbsim.engine.Simulation.PS_PER_US;   // 7 us
        SwitchConfig c = new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dctcp", 4096, SwitchConfig.TRIM_OFF, 64, rtt, SwitchConfig.AR_LEVELS);
        assertThat(c.kmin(400_000_000_000L)).isEqualTo(50_000);          // 400 Gbit/s x 7 us = 350 KB, / 7
        assertThat(c.kmax(400_000_000_000L)).isEqualTo(50_000);          // a step
        assertThat(c.pmax()).isEqualTo(1.0);
        assertThat(c.kmin(10_000_000_000L)).isEqualTo(2 * (4096 + 64));  // 1.25 KB would be under two packets
        assertThat(c.kmin(PBPS)).isEqualTo(125_000_000L);                // no overflow at 1 Pbit/s
    }

    /** NVIDIA's RoCE switch default: absolute 150 KB / 1500 KB at every rate; ConWeave's 100/400 KB at every rate too. */
    @Test
    void vendorAndConweaveRedAreAbsolute() {
        SwitchConfig v = new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dcqcn", 4096);
        for (long rate : new long[] {25_000_000_000L, 400_000_000_000L}) {
            assertThat(v.kmin(rate)).isEqualTo(150_000);
            assertThat(v.kmax(rate)).isEqualTo(1_500_000);
        }
        SwitchConfig cw = new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dcqcn-conweave", 4096);
        assertThat(cw.kmin(400_000_000_000L)).isEqualTo(100_000);
        assertThat(cw.kmax(400_000_000_000L)).isEqualTo(400_000);
        assertThat(cw.pmax()).isEqualTo(0.2);
    }
}

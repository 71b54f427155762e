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
        SwitchConfig c = new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dcqcn", 4096);
        assertThat(c.kmin(25_000_000_000L)).isEqualTo(100_000);
        assertThat(c.kmax(25_000_000_000L)).isEqualTo(400_000);
        assertThat(c.kmin(40_000_000_000_000L)).isEqualTo(160_000_000L);
        assertThat(c.kmax(40_000_000_000_000L)).isEqualTo(640_000_000L);
        assertThat(c.kmax(PBPS)).isEqualTo(16_000_000_000L);
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** compare's default seed count comes from the workload and the fabric alone: the same on every machine. */
class RunSizeTest {
    private static Scenario defaultCompare(String... overrides) {
        return ScenarioLoader.loadResource("default-compare.yaml", List.of(overrides), null);
    }

    @Test
    void theEmbeddedDefaultIsSmallAndGetsThreeSeeds() {
        // 64 MiB all-reduce on 128 GPUs, 16 per leaf: reduce-scatter by recursive halving, then all-gather by
        // recursive doubling, 7 steps each; every host sends 32, 16, 8, 4 MiB (8192 ... 1024 packets of 4096 B)
        // to partners 1, 2, 4, 8 away (same leaf: 2 links, NIC and leaf to host), then 2, 1, 0.5 MiB to partners
        // 16, 32, 64 away (another leaf: 4 links)
        long perHostAndPhase = (8192 + 4096 + 2048 + 1024) * 2 + (512 + 256 + 128) * 4;
        assertThat(RunSize.idealPacketHops(defaultCompare())).isEqualTo(128 * 2 * perHostAndPhase).isEqualTo(8_781_824);
        assertThat(RunSize.defaultSeeds(defaultCompare())).isEqualTo(RunSize.SMALL_RUN_SEEDS).isEqualTo(3);
    }

    @Test
    void aRunOverTheLimitGetsOneSeed() {
        Scenario big = defaultCompare("workload.size_bytes=268435456");   // four times the data
        assertThat(RunSize.idealPacketHops(big)).isEqualTo(4 * RunSize.idealPacketHops(defaultCompare()))
                .isGreaterThan(RunSize.SMALL_RUN_PACKET_HOPS);
        assertThat(RunSize.defaultSeeds(big)).isEqualTo(1);
    }
}

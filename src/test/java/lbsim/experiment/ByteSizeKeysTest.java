package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.BadInputException;
import lbsim.ByteSize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every byte-count key of a scenario reads a unit ({@code 64MiB}) as the same scenario as the plain integer. */
class ByteSizeKeysTest {
    private static final String BASE = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
            """;

    /** key, value in bytes, and overrides the key needs to be read (its scheme or mode). */
    private record Key(String path, long bytes, List<String> context) {}

    private static final List<Key> KEYS = List.of(
            new Key("topology.switch_buffer_bytes", 32L << 20, List.of()),
            new Key("topology.port_buffer_bytes", 1L << 20, List.of()),
            new Key("topology.mtu_bytes", 4096, List.of()),
            new Key("transport.header_bytes", 64, List.of()),
            new Key("transport.ack_bytes", 64, List.of()),
            new Key("transport.init_cwnd_bytes", 64L << 10, List.of()),
            new Key("nic.arbitration_bytes", 4096, List.of()),
            new Key("switch.ecn_kmin_bytes", 100_000, List.of("switch.ecn_kmax_bytes=400000")),
            new Key("switch.pfc_headroom_bytes", 32_000, List.of()),
            new Key("workload.size_bytes", 2L << 20, List.of()),
            new Key("workload.chunk_bytes", 512L << 10, List.of()),
            new Key("load_balancer.flowlet_bytes", 64L << 10, List.of("load_balancer.scheme=paralet")),
            new Key("load_balancer.threshold_bytes", 8192, List.of("load_balancer.scheme=ecmp-ar")),
            new Key("load_balancer.probe_bytes", 10_000, List.of("load_balancer.scheme=hopper")));

    private static String resolved(List<String> overrides) {
        return ScenarioLoader.toYaml(ScenarioLoader.parse("s.yaml", BASE, null, overrides, null).resolved());
    }

    @Test
    void everyByteKeyReadsUnitsAsThePlainIntegerAndRecordsTheInteger() {
        for (Key k : KEYS) {
            List<String> plain = new ArrayList<>(k.context());
            plain.add(k.path() + "=" + k.bytes());
            String expected = resolved(plain);
            for (String text : List.of(ByteSize.format(k.bytes()), k.bytes() / 1000 + "kB", "'" + k.bytes() + "'")) {
                if (text.endsWith("kB") && k.bytes() % 1000 != 0) continue;
                List<String> withUnit = new ArrayList<>(k.context());
                withUnit.add(k.path() + "=" + text);
                assertThat(resolved(withUnit)).as(k.path() + " = " + text).isEqualTo(expected);
            }
        }
    }

    @Test
    void aBadUnitOrAnOverflowNamesTheKeyAndTheAcceptedForms() {
        assertThatThrownBy(() -> resolved(List.of("workload.size_bytes=64M")))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("s.yaml: workload.size_bytes: '64M': unknown unit 'M'")
                .hasMessageContaining("SI kB, MB, GB").hasMessageContaining("IEC KiB, MiB, GiB");
        assertThatThrownBy(() -> resolved(List.of("topology.mtu_bytes=1GiB")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.mtu_bytes: '1GiB' = 1073741824 bytes is out of range");
        assertThatThrownBy(() -> resolved(List.of("workload.size_bytes=9000PiB")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("workload.size_bytes: '9000PiB' is more bytes than lbsim can count");
        // a key that is not a byte count still refuses text
        assertThatThrownBy(() -> resolved(List.of("topology.leaves=2kB")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.leaves: expected an integer");
    }

    @Test
    void flowListsAndSweepGridsTakeUnitsToo(@TempDir Path tmp) throws Exception {
        Scenario flows = ScenarioLoader.parse("f.yaml", """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 1MB}, {src: 1, dst: 3, size_bytes: 1 MiB}]}
                """, null, List.of(), null);
        assertThat(ScenarioLoader.toYaml(flows.resolved())).contains("size_bytes: 1000000\n").contains("size_bytes: 1048576\n");
        Path sweep = tmp.resolve("sweep.yaml");
        Files.writeString(sweep, "base:\n  " + BASE.replace("\n", "\n  ") + "\ngrid:\n  workload.size_bytes: [64KiB, 1MB]\n");
        SweepSpec spec = SweepSpec.load(sweep, List.of());
        spec.validate();
        assertThat(spec.points()).isEqualTo(2);
    }
}

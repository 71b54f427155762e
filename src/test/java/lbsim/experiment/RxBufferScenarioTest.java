package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nic.rx_buffer_bytes end to end, on a 16-host all-to-all whose NICs hold 2 QP contexts (every
 * packet misses): 0 (unbounded) gives the very flows.csv lbsim wrote before the buffer existed,
 * and the ConnectX buffer (the default) changes the run through pauses, reported in summary.json.
 */
class RxBufferScenarioTest {
    static final String MISSES = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100}
            transport: {pfc: true}
            nic: {qp_cache_entries: 2, qp_miss_ns: 1000}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 1048576}
            """;
    /** flows.csv of MISSES written by lbsim before the receive buffer (commit 7b8c1e81, branch ethmem). */
    static final String UNBOUNDED_FLOWS_SHA256 = "69f55f788b6369e45e046d48d3227b443e8d2dee8f08504754ba525f0426d806";

    static RunResult run(Path out, String... overrides) throws Exception {
        RunResult r = Runner.run(ScenarioLoader.parse("misses.yaml", MISSES, null, List.of(overrides), null), Runner.Progress.NONE);
        ResultWriter.write(r, out);
        return r;
    }

    static String sha256(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    @Test
    void anUnboundedBufferReproducesTheRunBeforeTheBuffer(@TempDir Path tmp) throws Exception {
        run(tmp, "nic.rx_buffer_bytes=0");
        assertThat(sha256(tmp.resolve("flows.csv"))).isEqualTo(UNBOUNDED_FLOWS_SHA256);
        String summary = Files.readString(tmp.resolve("summary.json"));
        assertThat(summary).contains("\"rx_buffer_bytes\" : 0,", "\"rx_pause_frames\" : 0,", "unbounded receive buffer");
    }

    @Test
    void theDefaultIsTheConnectXBufferAndTheResolvedScenarioSaysSo(@TempDir Path tmp) throws Exception {
        run(tmp);
        String byDefault = sha256(tmp.resolve("flows.csv"));
        run(tmp, "nic.rx_buffer_bytes=262016");
        assertThat(byDefault).isEqualTo(sha256(tmp.resolve("flows.csv"))).isNotEqualTo(UNBOUNDED_FLOWS_SHA256);
        assertThat(ScenarioLoader.toYaml(ScenarioLoader.parse("misses.yaml", MISSES, null, List.of(), null).resolved()))
                .contains("rx_buffer_bytes: 262016");
        // the idealised NIC keeps its unbounded line, and says so in the resolved scenario too
        assertThat(ScenarioLoader.toYaml(ScenarioLoader.parse("misses.yaml", MISSES, null, List.of("nic.profile=ideal"), null)
                .resolved())).contains("rx_buffer_bytes: 0");
    }

    @Test
    void theConnectXBufferPausesTheTorAndChangesTheRun(@TempDir Path tmp) throws Exception {
        RunResult r = run(tmp, "nic.rx_buffer_bytes=262016");
        assertThat(r.completed()).isTrue();
        assertThat(sha256(tmp.resolve("flows.csv"))).isNotEqualTo(UNBOUNDED_FLOWS_SHA256);
        String summary = Files.readString(tmp.resolve("summary.json"));
        assertThat(summary).contains("\"rx_buffer_bytes\" : 262016,", "\"rx_buffer_drops\" : 0,", "receive buffer 262016 B")
                .doesNotContain("\"rx_pause_frames\" : 0,").doesNotContain("unbounded receive buffer");
    }

    @Test
    void withoutPfcTheBufferDropsAndTheRunStillCompletes(@TempDir Path tmp) throws Exception {
        // a tail dropped at the NIC waits for the QP timer: 500 us instead of NCCL's 4.3 s
        RunResult r = run(tmp, "transport.pfc=false", "nic.rx_buffer_bytes=65536", "transport.timeout_us=500");
        assertThat(r.completed()).isTrue();
        String summary = Files.readString(tmp.resolve("summary.json"));
        assertThat(summary).contains("\"rx_pause_frames\" : 0,").doesNotContain("\"rx_buffer_drops\" : 0,");
    }

    /** What the stored reproductions' migration rests on: without receive-side misses the buffer's size is never read. */
    @Test
    void withoutReceiveMissesTheBufferChangesNothing(@TempDir Path tmp) throws Exception {
        // the same all-to-all with contexts enough for every QP (30 per NIC): nothing ever waits
        RunResult held = run(tmp, "nic.qp_cache_entries=64", "nic.rx_buffer_bytes=0");
        String unbounded = sha256(tmp.resolve("flows.csv"));
        RunResult bounded = run(tmp, "nic.qp_cache_entries=64", "nic.rx_buffer_bytes=4096");
        assertThat(sha256(tmp.resolve("flows.csv"))).isEqualTo(unbounded);
        assertThat(bounded.cctNs()).isEqualTo(held.cctNs());
        assertThat(Files.readString(tmp.resolve("summary.json"))).contains("\"context_misses_rx\" : 0,", "\"rx_max_held_bytes\" : 0\n");
    }
}

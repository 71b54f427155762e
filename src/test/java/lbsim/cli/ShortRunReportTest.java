package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that ends within its first throughput interval still gets its report (found by fuzzing: it was exit 1). */
class ShortRunReportTest {
    @TempDir
    Path tmp;

    @Test
    void aRunShorterThanOneSamplingIntervalReportsWithoutAThroughputChart() throws Exception {
        Path f = tmp.resolve("q.yaml");
        Files.writeString(f, """
                max_time_ms: 0.001
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 1, link_latency_ns: 0}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 1000}]}
                """);
        Path out = tmp.resolve("out");
        assertThat(Main.execute("run", f.toString(), "--out", out.toString())).isEqualTo(0);
        assertThat(out.resolve("summary.json")).exists();
    }
}

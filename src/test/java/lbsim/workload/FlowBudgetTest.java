package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload with more flows than the heap can hold is refused as bad input (exit 2, naming the
 * key to change), not an out-of-memory crash (exit 1). Run in a fresh JVM with a 64 MiB heap,
 * where the limit is 64 Ki flows: a 1 MB ring all-reduce over 2 ranks cut into 1-byte pieces
 * would be 2 M flows.
 */
class FlowBudgetTest {
    @TempDir
    Path tmp;

    @Test
    void aCollectiveCutIntoMorePiecesThanTheHeapHoldsIsExitTwo() throws Exception {
        Path f = tmp.resolve("pieces.yaml");
        Files.writeString(f, """
                topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}
                workload: {kind: collective, op: all-reduce, algorithm: ring, ranks: 2, size_bytes: 1000000, chunk_bytes: 1}
                """);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), "lbsim.cli.Main", "run", f.toString(), "--out", tmp.resolve("out").toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out).contains("pieces.yaml", "workload", "flows", "chunk_bytes", "-Xmx").doesNotContain("OutOfMemoryError");
    }

    @Test
    void theLimitScalesWithTheHeapAndNeverExceedsTheOpenLoopCap() {
        assertThat(FlowGraph.maxFlows()).isEqualTo(Math.min(OpenLoop.MAX_FLOWS, Runtime.getRuntime().maxMemory() / FlowGraph.HEAP_BYTES_PER_FLOW));
        assertThat(FlowGraph.maxFlows()).isGreaterThan(100_000);   // any test JVM holds the presets' workloads
    }
}

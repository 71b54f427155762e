package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario within the flow budget whose queue pairs the heap cannot hold ends with a message
 * that says what to change (exit 1), not an OutOfMemoryError stack trace: in a fresh 48 MiB JVM,
 * a 128-host all-to-all (16 256 flows) with 64 QPs per flow is about a million queue pairs, on
 * the main thread (run) and on the worker threads of compare and sweep.
 */
class OutOfMemoryMessageTest {
    @TempDir
    Path tmp;

    private String runOutOfMemory(String... args) throws Exception {
        Path f = tmp.resolve("a2a.yaml");
        Files.writeString(f, """
                topology: {kind: fat-tree, k: 8}
                workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 16777216, qps_per_connection: 64}
                """);
        if (args[0].equals("sweep")) {
            f = tmp.resolve("sweep.yaml");
            Files.writeString(f, "base: a2a.yaml\ngrid:\n  load_balancer.scheme: [ecmp, reps, plb]\n");
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "-cp", System.getProperty("java.class.path"), "lbsim.cli.Main"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of(f.toString(), "--out", tmp.resolve("out").toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("lbsim: out of memory", "MB Java heap", "LBSIM_JAVA_OPTS", "-Xmx", "qps_per_connection")
                .doesNotContain("OutOfMemoryError", "internal error", "\tat ");
        return out;
    }

    @Test
    void aRunTooLargeForTheHeapSaysWhatToChange() throws Exception {
        runOutOfMemory("run");
    }

    @Test
    void soDoesACompareWhoseRunsAreOnWorkerThreads() throws Exception {
        runOutOfMemory("compare", "--schemes", "ecmp,reps", "--jobs", "2");
    }

    @Test
    void andASweep() throws Exception {
        runOutOfMemory("sweep", "--jobs", "2");
    }
}

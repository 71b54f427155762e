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

    /** A fabric far too large for the heap (k = 256: 4 million hosts) is exit 2 naming its keys, before anything is built or written. */
    @Test
    void aFabricTooLargeForTheHeapIsRefusedBeforeItIsBuilt() throws Exception {
        Path f = tmp.resolve("huge.yaml");
        Files.writeString(f, "topology: {kind: fat-tree, k: 256}\nworkload: {kind: permutation, size_bytes: 1000}\n");
        for (String verb : new String[] {"run", "compare"}) {
            RunCommandTest.Outcome o = RunCommandTest.exec(verb, f.toString(), "--out", tmp.resolve(verb).toString());
            assertThat(o.code()).as(o.err()).isEqualTo(2);
            assertThat(o.err()).contains("huge.yaml: topology.k: a fabric of 4194304 hosts", "MiB of Java heap", "-Xmx")
                    .doesNotContain("Exception");
            assertThat(tmp.resolve(verb)).doesNotExist();
        }
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

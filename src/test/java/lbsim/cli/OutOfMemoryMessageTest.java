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
 * A scenario whose start the heap certainly cannot hold is refused before it runs (exit 2): in a
 * fresh 48 MiB JVM, a 128-host all-to-all (16 256 flows) with 64 QPs per flow opens about a million
 * queue pairs at once. One that outgrows the heap as it runs ends with a message that says what to
 * change (exit 1), not an OutOfMemoryError stack trace: a 31-to-1 incast at line rate into a 64 GB
 * switch buffer queues packets until the heap is full, on the main thread (run) and on the worker
 * threads of compare and sweep.
 */
class OutOfMemoryMessageTest {
    @TempDir
    Path tmp;

    private static final String ALL_TO_ALL_64_QPS = """
            topology: {kind: fat-tree, k: 8}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 16777216, qps_per_connection: 64}
            """;

    /** 31 senders at line rate into one host, no congestion control, no loss: the queue grows for good. */
    private static String incast() {
        StringBuilder flows = new StringBuilder();
        for (int i = 1; i < 32; i++) flows.append(i > 1 ? ", " : "").append("{src: ").append(i).append(", dst: 0, size_bytes: 4GB}");
        return "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 16, switch_buffer_bytes: 64GB}\n"
                + "workload: {kind: flows, flows: [" + flows + "]}\ntransport: {cc: fixed-rate, pfc: false}\nmax_time_ms: 100\n";
    }

    /** Runs {@code args} on {@code scenario} (a sweep over three schemes of it for "sweep") in a fresh 48 MiB JVM. */
    private RunCommandTest.Outcome inSmallJvm(String scenario, String... args) throws Exception {
        Path f = tmp.resolve("s.yaml");
        Files.writeString(f, scenario);
        if (args[0].equals("sweep")) {
            f = tmp.resolve("sweep.yaml");
            Files.writeString(f, "base: s.yaml\ngrid:\n  load_balancer.scheme: [ecmp, reps, plb]\n");
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "-cp", System.getProperty("java.class.path"), "lbsim.cli.Main"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of(f.toString(), "--out", tmp.resolve("out").toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new RunCommandTest.Outcome(p.exitValue(), out, out);
    }

    private void runOutOfMemory(String... args) throws Exception {
        RunCommandTest.Outcome o = inSmallJvm(incast(), args);
        assertThat(o.code()).as(o.out()).isEqualTo(1);
        assertThat(o.out()).contains("lbsim: out of memory", "MB Java heap", "LBSIM_JAVA_OPTS", "-Xmx", "switch_buffer_bytes")
                .doesNotContain("OutOfMemoryError", "internal error", "\tat ");
    }

    /** The QPs that start together are counted before the run: a million of them cannot fit 48 MiB, so nothing runs. */
    @Test
    void queuePairsThatCannotFitAreRefusedBeforeTheRun() throws Exception {
        for (String verb : new String[] {"run", "compare"}) {
            RunCommandTest.Outcome o = verb.equals("run") ? inSmallJvm(ALL_TO_ALL_64_QPS, verb)
                    : inSmallJvm(ALL_TO_ALL_64_QPS, verb, "--schemes", "ecmp,reps");
            assertThat(o.code()).as(o.out()).isEqualTo(2);
            assertThat(o.out()).contains("16256 flows start together with 1040384 queue pairs", "MiB of Java heap",
                    "workload.qps_per_connection", "-Xmx").doesNotContain("out of memory", "Exception");
        }
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

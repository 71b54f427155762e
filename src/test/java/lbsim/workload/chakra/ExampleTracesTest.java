package lbsim.workload.chakra;

import static lbsim.workload.chakra.TraceWriter.collective;
import static lbsim.workload.chakra.TraceWriter.comp;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import org.junit.jupiter.api.Test;

/**
 * The traces under examples/chakra are this helper's output, byte for byte (so they stay readable
 * by the schema here); {@code -Dchakra.examples.update=true} rewrites them.
 */
class ExampleTracesTest {
    static final Path DIR = Path.of("examples/chakra");

    /**
     * One data-parallel training step per rank: forward (200 us), backward of the last layers (150 us),
     * whose gradients (32 MiB) are all-reduced while the first layers' backward (150 us) runs, then
     * their gradients (16 MiB, after the first bucket: one NCCL stream) and the optimizer step (50 us).
     */
    static TraceWriter dataParallelStep(int ranks) {
        TraceWriter t = new TraceWriter(ranks);
        for (int r = 0; r < ranks; r++) {
            long fwd = t.add(r, comp("forward", 200));
            long bwd2 = t.add(r, comp("backward layers 2", 150, fwd));
            long ar2 = t.add(r, collective("grad bucket 2", CollectiveKind.ALL_REDUCE, 32L << 20, bwd2));
            long bwd1 = t.add(r, comp("backward layers 1", 150, bwd2));
            long ar1 = t.add(r, collective("grad bucket 1", CollectiveKind.ALL_REDUCE, 16L << 20, bwd1).addCtrlDeps(ar2));
            t.add(r, comp("optimizer", 50, ar1, ar2));
        }
        return t;
    }

    @Test
    void committedExampleTracesAreTheHelpersOutput() throws Exception {
        check(TraceWriter.loweredRing(8, 1 << 20, 7), "ring", "ring");
        check(dataParallelStep(8), "dp-step", "step");
    }

    private static void check(TraceWriter t, String folder, String prefix) throws Exception {
        Path dir = DIR.resolve(folder);
        if (Boolean.getBoolean("chakra.examples.update")) t.write(dir, prefix);
        for (int r = 0; r < t.ranks(); r++) {
            assertThat(Files.readAllBytes(dir.resolve(prefix + "." + r + ".et"))).as("%s rank %d", folder, r).isEqualTo(t.bytes(r));
        }
        assertThat(ChakraTraces.read(dir)).hasSize(t.ranks());
    }
}

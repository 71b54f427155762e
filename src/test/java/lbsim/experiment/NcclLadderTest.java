package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NcclLadderTest {
    @Test
    void theLaddersNcclTestsRuns() {
        long[] doubling = NcclLadder.sizes("-b 8 -e 8G -f 2");
        assertThat(doubling).hasSize(31).startsWith(8, 16, 32).endsWith(4L << 30, 8L << 30);
        assertThat(NcclLadder.sizes("-b 1M -e 4M -i 1M")).containsExactly(1L << 20, 2L << 20, 3L << 20, 4L << 20);
        assertThat(NcclLadder.sizes("")).containsExactly(32L << 20);                      // nccl-tests' defaults: -b 32M -e 32M
        assertThat(NcclLadder.sizes("--minbytes=8 --maxbytes=100 --stepfactor=4")).containsExactly(8, 32);
        assertThat(NcclLadder.sizes("-b8 -e64k -f8")).containsExactly(8, 64, 512, 4096, 32768);
        assertThat(NcclLadder.sizes("-b 0.5K -e 1k -f 2")).containsExactly(512, 1024);
        assertThat(NcclLadder.sizes("-b 8 -e 8 -f 2")).containsExactly(8);
    }

    /** Every size in [b, e], each the previous times f, and the next one past e: what nccl-tests' loop visits. */
    @Test
    void aFactorLadderIsGeometricFromMinToMax() {
        qt().forAll(integers().between(1, 1 << 20), integers().between(2, 16), integers().between(0, 1 << 30)).checkAssert((b, f, extra) -> {
            long e = (long) b + extra;
            long[] s = NcclLadder.sizes("-b " + b + " -e " + e + " -f " + f);
            assertThat(s[0]).isEqualTo((long) b);
            for (int i = 1; i < s.length; i++) assertThat(s[i]).isEqualTo(s[i - 1] * f);
            assertThat(s[s.length - 1]).isLessThanOrEqualTo(e);
            assertThat(s[s.length - 1] * f).isGreaterThan(e);
        });
    }

    @Test
    void badLaddersSayWhatIsAllowed() {
        assertThatThrownBy(() -> NcclLadder.sizes("-b 8 -e 8G -f 2 -g 8")).hasMessageContaining("'-g' is not a size option")
                .hasMessageContaining("-b/--minbytes");
        assertThatThrownBy(() -> NcclLadder.sizes("-b 8MB")).hasMessageContaining("expected a size like 8, 512K");
        assertThatThrownBy(() -> NcclLadder.sizes("-b 1G -e 1M")).hasMessageContaining("below -b");
        assertThatThrownBy(() -> NcclLadder.sizes("-b 1 -e 1G -i 1")).hasMessageContaining("more than 10000 sizes");
        assertThatThrownBy(() -> NcclLadder.sizes("-b")).hasMessageContaining("option -b has no value");
    }

    @Test
    void theExampleSweepExpandsItsLadder() {
        SweepSpec spec = SweepSpec.load(Path.of("examples/sweeps/nccl-ladder.yaml"), List.of());
        assertThat(spec.points()).isEqualTo(2 * 9);   // 64 KiB .. 16 MiB doubling
        assertThat(spec.validate()).isEmpty();
    }

    @Test
    void aSweepGridTakesALadderAsItsSizes(@TempDir Path tmp) throws Exception {
        Path sweep = tmp.resolve("sweep.yaml");
        Files.writeString(sweep, """
                base:
                  topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
                  workload: {kind: collective, op: all-reduce, algorithm: ring}
                grid:
                  load_balancer.scheme: [ecmp, spray-host]
                  workload.size_bytes: {nccl_ladder: "-b 64K -e 1M -f 2"}
                """);
        SweepSpec spec = SweepSpec.load(sweep, List.of());
        assertThat(spec.points()).isEqualTo(2 * 5);
        assertThat(spec.validate()).isEmpty();
        assertThat(spec.runs()).extracting(r -> r.labels().get(1)).containsSubsequence("65536", "131072", "262144", "524288", "1048576");
        assertThat(spec.runs().get(0).overrides()).contains("workload.size_bytes=65536");
        Files.writeString(sweep, Files.readString(sweep).replace("-f 2", "-f 2 -n 20"));
        assertThatThrownBy(() -> SweepSpec.load(sweep, List.of())).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid.workload.size_bytes.nccl_ladder: '-b 64K -e 1M -f 2 -n 20': '-n' is not a size option");
    }
}

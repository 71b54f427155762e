package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import lbsim.workload.chakra.TraceWriter;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A malformed Chakra trace is exit 2 naming the file, the record and what was expected; a good one runs. */
class ChakraTraceExitTest {
    @TempDir
    Path tmp;

    private Path scenario(String trace) throws Exception {
        return RunCommandTest.writeScenario(tmp, "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
                + "workload: {kind: chakra, trace: " + trace + "}\n");
    }

    @Test
    void aTruncatedRankFileIsExit2NamingFileAndRecord() throws Exception {
        Path prefix = TraceWriter.singleCollective(4, CollectiveKind.ALL_REDUCE, 100_000).write(tmp.resolve("t"), "ar");
        RunCommandTest.Outcome ok = RunCommandTest.exec("run", scenario("t/ar").toString(), "--out", tmp.resolve("out").toString());
        assertThat(ok.code()).as(ok.err()).isZero();

        Path rank2 = tmp.resolve("t/ar.2.et");
        byte[] b = Files.readAllBytes(rank2);
        Files.write(rank2, Arrays.copyOf(b, b.length - 5));
        RunCommandTest.Outcome bad = RunCommandTest.exec("run", scenario(prefix.toString()).toString(), "--out", tmp.resolve("out2").toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("workload.trace: ").contains("ar.2.et: record 1 (byte ").contains("the length prefix says");
    }

    @Test
    void aMissingTraceIsExit2() throws Exception {
        RunCommandTest.Outcome bad = RunCommandTest.exec("run", scenario("nowhere/x").toString(), "--out", tmp.resolve("o").toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("workload.trace: ").contains("no Chakra trace files x.0.et");
    }
}

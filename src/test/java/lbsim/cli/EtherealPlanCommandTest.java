package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lbsim plan ethereal} and {@code run} with scheme ethereal: what they refuse and what they tell. */
class EtherealPlanCommandTest {
    @TempDir
    Path tmp;

    private Path scenario(String yaml) throws Exception {
        Path f = tmp.resolve("s.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    /** The audit's eth5: 300 spines, so path IDs 0x0100.. would take the same uplinks as 0x0000.. (byte mod 300). */
    @Test
    void moreNextHopsThanOneByteNamesIsExitTwoForThePlanAndTheRun() throws Exception {
        Path f = scenario("""
                topology: {kind: leaf-spine, leaves: 2, spines: 300, hosts_per_leaf: 1}
                load_balancer: {scheme: ethereal}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 30000}]}
                """);
        for (String[] args : new String[][] {{"plan", "ethereal", f.toString()}, {"plan", "ethereal", f.toString(), "--format", "csv"},
                {"run", f.toString(), "--out", tmp.resolve("o").toString()}}) {
            RunCommandTest.Outcome o = RunCommandTest.exec(args);
            assertThat(o.code()).as(String.join(" ", args) + ": " + o.err()).isEqualTo(2);
            assertThat(o.err()).contains(f.toString(), "ethereal", "switch leaf0 has 300", "at most 256").doesNotContain("Exception");
            assertThat(o.out()).doesNotContain("0x0100");
        }
        assertThat(tmp.resolve("o")).doesNotExist();
    }

    @Test
    void exactly256NextHopsStillPlan() throws Exception {
        Path f = scenario("""
                topology: {kind: leaf-spine, leaves: 2, spines: 256, hosts_per_leaf: 1}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 25600}]}
                """);
        RunCommandTest.Outcome o = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out().lines()).hasSize(1 + 256).anyMatch(l -> l.contains(",0x00ff,"));
    }
}

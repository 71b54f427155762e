package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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

    private static final String RING = """
            topology: {kind: leaf-spine, leaves: 3, spines: 3, hosts_per_leaf: 2}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 600000}
            """;

    /** plan.md "Common behaviour": JSON has the inputs, "warnings" and "notes", and the notes are the text output's. */
    @Test
    void jsonHasInputsWarningsAndTheTextsNotes() throws Exception {
        Path f = scenario(RING);
        RunCommandTest.Outcome text = RunCommandTest.exec("plan", "ethereal", f.toString());
        RunCommandTest.Outcome json = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "json", "--set", "seed=5");
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(json.out());
        assertThat(root.get("inputs").get("scenario").asString()).isEqualTo(f.toString());
        assertThat(root.get("inputs").get("seed").asLong()).isEqualTo(5);
        assertThat(root.get("inputs").get("topology").get("spines").asInt()).isEqualTo(3);
        assertThat(root.get("inputs").get("workload").get("op").asString()).isEqualTo("all-reduce");
        assertThat(root.get("warnings").isArray()).isTrue();
        assertThat(root.get("notes").isArray()).isTrue();
        assertThat(root.get("notes")).isNotEmpty();
        for (JsonNode n : root.get("notes")) assertThat(text.out()).contains("note: " + n.asString() + "\n");
    }
}

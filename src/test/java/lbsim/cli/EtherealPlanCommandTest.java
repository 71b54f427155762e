package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code lbsim plan ethereal} and {@code run} with scheme ethereal: what they refuse and what they tell. */
class EtherealPlanCommandTest {
    @TempDir
    Path tmp;

    private Path scenario(String yaml) throws Exception {
        return RunCommandTest.writeScenario(tmp, yaml);
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
        // the paper by title, not a file a user does not have
        assertThat(text.out()).contains("Ethereal: Divide and Conquer Network Load Balancing").doesNotContain("papers/");
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

    /** The audit's eth3: leaf0-spine1 down from the start; the plan used to route leaf0's flows over it (path 0x0001). */
    @Test
    void linksDownFromTheStartAreLeftOutAndSaidSo() throws Exception {
        Path f = scenario(RING + "failures: [{at_us: 0, link: \"leaf0-spine1\", kind: down, detect_ms: 0}]\n");
        RunCommandTest.Outcome csv = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv");
        assertThat(csv.code()).as(csv.err()).isZero();
        List<String[]> leaf0 = csv.out().lines().skip(1).map(l -> l.split(",", -1))
                .filter(c -> c[1].equals("0") || c[1].equals("1")).filter(c -> !c[5].isEmpty()).toList();
        assertThat(leaf0).isNotEmpty().allSatisfy(c -> assertThat(c[5]).isNotEqualTo("0x0001"));
        assertThat(RunCommandTest.exec("plan", "ethereal", f.toString()).out()).contains("note: 1 link down from t = 0");
    }

    /** Failures later than t = 0 and unequal rates of equal-cost paths cannot be planned for: warned in every format. */
    @Test
    void laterFailuresAndUnequalRatesAreWarnedInEveryFormat() throws Exception {
        Path f = scenario(RING.replace("hosts_per_leaf: 2}", "hosts_per_leaf: 2, link_overrides: [{links: \"leaf*-spine2\", gbps: 10}]}")
                + "failures: [{at_us: 5, link: \"leaf0-spine1\", kind: down}]\n"
                + "transport: {timeout_us: 1000}\n"); // Ethereal §4.1's timer: its reroute after a timeout happens within the run
        RunCommandTest.Outcome text = RunCommandTest.exec("plan", "ethereal", f.toString());
        assertThat(text.out()).contains("WARNING: failures[0] (down of 'leaf0-spine1' at 5 us) happens in the planning run",
                "WARNING: topology.link_overrides: leaf0's equal-cost next hops toward one destination run at 10.0 to 100.0 Gbps");
        RunCommandTest.Outcome csv = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv");
        assertThat(csv.err()).contains("WARNING: failures[0]", "WARNING: topology.link_overrides");
        assertThat(csv.out()).doesNotContain("WARNING");
        JsonNode json = JsonMapper.builder().build().readTree(RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "json").out());
        assertThat(json.get("warnings")).hasSize(2);
    }

    /** The audit's eth4 (fat-tree): the low byte is the ToR's choice, as the note now says (it said "the first byte"). */
    @Test
    void theLowByteIsTheSourceTorsChoiceAndTheNoteSaysSo() throws Exception {
        Path f = scenario("""
                topology: {kind: fat-tree, pods: 2, tors_per_pod: 2, aggs_per_pod: 2, cores: 4, hosts_per_tor: 2, parallel_links: 2}
                workload: {kind: flows, flows: [{src: 0, dst: 4, size_bytes: 400000}]}
                """);
        java.util.Map<String, String> uplinkById = new java.util.HashMap<>();
        RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv").out().lines().skip(1)
                .map(l -> l.split(",", -1)).forEach(c -> uplinkById.put(c[5], c[6]));
        assertThat(uplinkById).containsKeys("0x0000", "0x0100", "0x0001");
        assertThat(uplinkById.get("0x0100")).isEqualTo(uplinkById.get("0x0000"));
        assertThat(uplinkById.get("0x0001")).isNotEqualTo(uplinkById.get("0x0000"));
        assertThat(RunCommandTest.exec("plan", "ethereal", f.toString()).out())
                .contains("note: path ID bytes (path_control port): the low byte is the uplink index at the source ToR, the next byte"
                        + " the uplink index at the next switch going up with a choice");
        // path_control port: byte 1 at the ToR is member 1 of the bundle to the first agg; lag: the second agg (member hashed)
        assertThat(uplinkById.get("0x0001")).isEqualTo(Integer.toString(Integer.parseInt(uplinkById.get("0x0000")) + 1));
        java.util.Map<String, String> lagUplinks = new java.util.HashMap<>();
        RunCommandTest.Outcome lag = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv", "--set",
                "load_balancer.scheme=ethereal", "--set", "load_balancer.path_control=lag");
        assertThat(lag.code()).as(lag.err()).isZero();
        lag.out().lines().skip(1).map(l -> l.split(",", -1)).forEach(c -> lagUplinks.put(c[5], c[6]));
        assertThat(lagUplinks).containsOnlyKeys("0x0000", "0x0100", "0x0001", "0x0101");
        assertThat(lagUplinks.get("0x0001")).isEqualTo(Integer.toString(Integer.parseInt(lagUplinks.get("0x0000")) + 2));
        assertThat(RunCommandTest.exec("plan", "ethereal", f.toString(), "--set", "load_balancer.scheme=ethereal", "--set",
                "load_balancer.path_control=lag").out())
                .contains("note: path ID bytes (path_control lag): the low byte is read at the source ToR, the next byte at the next"
                        + " switch with a choice");
    }

    /** path_control port: a bundle member down from t = 0 is a dead path and left out; lag keeps the bundle (its other member). */
    @Test
    void aMemberDownFromTheStartIsLeftOutOfPortPathsOnly() throws Exception {
        Path f = scenario("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, parallel_links: 2}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 300000}, {src: 1, dst: 0, size_bytes: 300000}]}
                failures: [{at_us: 0, link: "leaf0-spine0/1", kind: down}]
                """);
        RunCommandTest.Outcome port = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv");
        assertThat(port.code()).as(port.err()).isZero();
        // 2 spines x 2 members: uplink 1 is leaf0-spine0/1; from leaf1 uplink 1 comes down spine0->leaf0 over member 1
        assertThat(port.out().lines().skip(1).map(l -> l.split(",", -1)[5]).toList())
                .containsExactlyInAnyOrder("0x0000", "0x0002", "0x0003", "0x0000", "0x0002", "0x0003");
        RunCommandTest.Outcome lag = RunCommandTest.exec("plan", "ethereal", f.toString(), "--format", "csv", "--set",
                "load_balancer.scheme=ethereal", "--set", "load_balancer.path_control=lag");
        assertThat(lag.out().lines().skip(1).map(l -> l.split(",", -1)[5]).toList())
                .containsExactlyInAnyOrder("0x0000", "0x0001", "0x0000", "0x0001");
    }

    /** The plan splits by Ethereal's own rule; a scenario's NCCL QP count is not followed and it says so. */
    @Test
    void aQpCountOfTheWorkloadIsWarnedAsNotRead() throws Exception {
        Path f = scenario(RING.replace("size_bytes: 600000}", "size_bytes: 600000, qps_per_connection: 4}"));
        RunCommandTest.Outcome o = RunCommandTest.exec("plan", "ethereal", f.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("WARNING: workload.qps_per_connection (4) is not read: Ethereal decides its own QPs");
    }

    /** As run does, the plan says on stderr which keys the scenario's settings do not read. */
    @Test
    void keysTheSettingsDoNotReadAreWarnedAsByRun() throws Exception {
        Path f = scenario(RING);
        RunCommandTest.Outcome o = RunCommandTest.exec("plan", "ethereal", f.toString(), "--set", "transport.irn_rto_low_us=10");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.err()).contains("lbsim: warning: transport.irn_rto_low_us is not read with loss_recovery");
        assertThat(RunCommandTest.exec("plan", "ethereal", f.toString()).err()).doesNotContain("warning");
    }

    /** The audit's finding 3: a host's own link down from t = 0 leaves its flows no path at all; the plan warned only for uplinks. */
    @Test
    void aHostLinkDownFromTheStartIsWarnedLikeUplinks() throws Exception {
        String one = """
                topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 2}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 100000}, {src: 1, dst: 0, size_bytes: 1000}]}
                failures: [{at_us: 0, link: "leaf1-spine0", kind: down}]
                """;
        RunCommandTest.Outcome ok = RunCommandTest.exec("plan", "ethereal", scenario(one).toString());
        assertThat(ok.out()).doesNotContain("WARNING");
        for (String link : List.of("h0-leaf0", "h2-leaf1")) {
            RunCommandTest.Outcome o = RunCommandTest.exec("plan", "ethereal", scenario(one).toString(), "--set", "failures.0.link=" + link);
            assertThat(o.code()).as(o.err()).isZero();
            // h0: flow 0 (to another ToR) and flow 1 (rack-local, to h0); h2: flow 0's destination
            assertThat(o.out()).as(link).contains("WARNING: " + (link.equals("h0-leaf0") ? 2 : 1) + " batches (a source's flows to one ToR)"
                    + " have no path avoiding the links down at t = 0");
        }
    }
}

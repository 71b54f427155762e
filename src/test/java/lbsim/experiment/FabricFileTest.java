package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.BadInputException;
import lbsim.topology.Tier;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topology files: the examples read as described, exports read back as the same fabric, bad files are refused by name. */
class FabricFileTest {
    @TempDir
    Path tmp;

    private static Topology fabric(String scenarioYaml, Path dir) {
        Scenario sc = ScenarioLoader.parse(dir.resolve("s.yaml").toString(), scenarioYaml, dir, List.of(), null);
        return sc.topology().build(sc.file());
    }

    @Test
    void theRailOptimisedExampleHasEightRailsAndEveryCrossRailPairFourPaths() {
        Topology t = ScenarioLoader.load(Path.of("examples/rail-optimised-file.yaml"), List.of(), null).topology().build("x");
        assertThat(t.hostCount()).isEqualTo(32);
        assertThat(t.nodeCount() - t.hostCount()).isEqualTo(12);
        assertThat(t.torCount()).isEqualTo(8);
        assertThat(t.nodeName(9)).isEqualTo("s1n1");
        assertThat(t.nodeName(t.hostTor(9))).isEqualTo("rail1");
        assertThat(t.tier(t.nodeId("spine3"))).isEqualTo(Tier.AGG);
        assertThat(t.hostRateBps(0)).isEqualTo(400_000_000_000L);
        assertThat(t.portLatencyPs(t.hostPort(0))).isEqualTo(500_000);
        // NIC 0 of server 0 to NIC 1 of server 1: up a rail, over any of 4 spines, down another rail
        assertThat(t.routing().pathIds(0, 9)).hasSize(4);
        assertThat(t.routing().pathPorts(0, 9, 0)).hasSize(3);
        // the same rail: through the rail switch only
        assertThat(t.routing().pathIds(0, 8)).hasSize(1);
        assertThat(t.linksMatching("rail0-spine*")).hasSize(4);
    }

    @Test
    void tiersAreInferredAndBundlesNamedAsTheGeneratorsNameThem() {
        Topology t = fabric("topology: {kind: file, file: " + Path.of("src/test/resources/fabrics/unequal-pods.yaml").toAbsolutePath()
                + "}\nworkload: {kind: permutation}\n", tmp);
        assertThat(t.hostCount()).isEqualTo(18);
        assertThat(t.tier(t.nodeId("p1t0"))).isEqualTo(Tier.TOR);
        assertThat(t.tier(t.nodeId("p0a1"))).isEqualTo(Tier.AGG);
        assertThat(t.tier(t.nodeId("core2"))).isEqualTo(Tier.CORE);
        assertThat(java.util.Arrays.stream(t.linksMatching("p1t0-p1a0")).mapToObj(t::linkName).toList()).containsExactly("p1t0-p1a0/0", "p1t0-p1a0/1");
        assertThat(java.util.Arrays.stream(t.linksMatching("p0t2-*")).mapToObj(t::linkName).toList()).containsExactly("p0t2-p0a0");
        assertThat(t.portRateBps(t.linkPortA(t.linksMatching("p1a1-core3")[0]))).isEqualTo(40_000_000_000L);
        // p0t2 has one uplink (to p0a0, then 2 cores); p0t0 has two aggregation switches with 2 cores each
        int p0t2h0 = t.nodeId("p0t2h0"), p1t0h0 = t.nodeId("p1t0h0"), p0t0h0 = t.nodeId("p0t0h0");
        assertThat(t.routing().pathIds(p0t2h0, p1t0h0)).hasSize(2);
        assertThat(t.routing().pathIds(p0t0h0, p1t0h0)).hasSize(4);
        assertThat(t.routing().maxTorHops()).isEqualTo(4);
    }

    /** Generated fabrics of random shapes, exported and read back: the same nodes, tiers, links, names, rates and latencies. */
    @Test
    void anExportReadsBackAsTheSameFabric() {
        qt().withExamples(25).forAll(integers().between(1, 4), integers().between(1, 3), integers().between(1, 3), integers().between(0, 1))
                .checkAssert((a, b, par, kind) -> {
                    String topo = kind == 0
                            ? "{kind: leaf-spine, leaves: " + a + ", spines: " + b + ", hosts_per_leaf: " + (a + 1) + ", parallel_links: " + par
                              + ", uplink_gbps: 150, link_overrides: [{links: \"h0-leaf0\", latency_ns: 33}]}"
                            : "{kind: fat-tree, k: 4, pods: " + a + ", cores: " + 2 * b + ", parallel_links: " + par + ", host_link_gbps: 25}";
                    Topology gen = fabric("topology: " + topo + "\nworkload: {kind: permutation}\n", tmp);
                    Path file = tmp.resolve("export.yaml");
                    try {
                        Files.writeString(file, FabricFile.write(gen, "test export"));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    Topology back = fabric("topology: {kind: file, file: export.yaml}\nworkload: {kind: permutation}\n", tmp);
                    assertSame(gen, back);
                });
    }

    private static void assertSame(Topology a, Topology b) {
        assertThat(b.hostCount()).isEqualTo(a.hostCount());
        assertThat(b.nodeCount()).isEqualTo(a.nodeCount());
        assertThat(b.portCount()).isEqualTo(a.portCount());
        for (int n = 0; n < a.nodeCount(); n++) {
            assertThat(b.nodeName(n)).isEqualTo(a.nodeName(n));
            assertThat(b.tier(n)).isEqualTo(a.tier(n));
        }
        assertThat(b.linkCount()).isEqualTo(a.linkCount());
        for (int l = 0; l < a.linkCount(); l++) {
            assertThat(b.linkName(l)).isEqualTo(a.linkName(l));
            assertThat(b.linkPortA(l)).isEqualTo(a.linkPortA(l));
            assertThat(b.portRateBps(b.linkPortA(l))).isEqualTo(a.portRateBps(a.linkPortA(l)));
            assertThat(b.portLatencyPs(b.linkPortA(l))).isEqualTo(a.portLatencyPs(a.linkPortA(l)));
        }
        for (int p = 0; p < a.portCount(); p++) assertThat(b.portPeer(p)).isEqualTo(a.portPeer(p));
    }

    @Test
    void aRelativePathIsReadFromTheScenarioFolder() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("deep/er"));
        Files.writeString(dir.resolve("f.yaml"), "hosts: [a, b]\nswitches: [s]\nlinks: [{a: a, b: s}, {a: b, b: s}]\n");
        Path sc = dir.resolve("s.yaml");
        Files.writeString(sc, "topology: {kind: file, file: f.yaml}\nworkload: {kind: permutation, size_bytes: 1000}\n");
        Scenario s = ScenarioLoader.load(sc, List.of(), null);
        assertThat(s.topology().hostCount()).isEqualTo(2);
        assertThat(lbsim.experiment.Scenarios.run(Files.readString(sc).replace("f.yaml", dir.resolve("f.yaml").toString())).completed()).isTrue();
    }

    /** The topology files shown in docs/inputs.md read as files; the repository's example files too. */
    @Test
    void theDocumentedAndExampleTopologyFilesRead() throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?ms)^```yaml\\n(.*?)^```").matcher(Files.readString(Path.of("docs/inputs.md")));
        int files = 0;
        while (m.find()) {
            if (!m.group(1).contains("hosts:")) continue;
            Files.writeString(tmp.resolve("doc.yaml"), m.group(1));
            assertThat(FabricFile.read(tmp.resolve("doc.yaml")).hostCount()).isPositive();
            files++;
        }
        assertThat(files).isPositive();
        try (var ex = Files.list(Path.of("examples/fabrics"))) {
            for (Path p : ex.toList()) assertThat(FabricFile.read(p).hostCount()).as(p.toString()).isPositive();
        }
    }

    /** Rail placement assumes the generators' host numbering; the rail example numbers server by server and is refused with a hint. */
    @Test
    void railPlacementOnAServerByServerFileIsRefusedNotMisplaced() {
        assertThatThrownBy(() -> lbsim.experiment.Runner.run(ScenarioLoader.load(Path.of("examples/rail-optimised-file.yaml"),
                List.of("workload.placement=rail"), null), lbsim.experiment.Runner.Progress.NONE))
                .isInstanceOf(BadInputException.class).hasMessageContaining("workload.placement: rail needs hosts numbered leaf by leaf")
                .hasMessageContaining("host s0n1 is not under the leaf of host s0n0").hasMessageContaining("placement: contiguous");
    }

    /** Planes or rails without spines: the fabric loads, and a workload is refused only if a flow crosses between pieces. */
    @Test
    void aFabricInPiecesCarriesOnlyTrafficInsideEachPiece() throws Exception {
        Files.writeString(tmp.resolve("planes.yaml"), "hosts: [a0, a1, b0, b1]\nswitches: [sa, sb]\n"
                + "links: [{a: a0, b: sa}, {a: a1, b: sa}, {a: b0, b: sb}, {a: b1, b: sb}]\n");
        String topo = "topology: {kind: file, file: planes.yaml}\n";
        Scenario inside = ScenarioLoader.parse(tmp.resolve("s.yaml").toString(), topo
                + "workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 50000}, {src: 3, dst: 2, size_bytes: 50000}]}\n", tmp,
                List.of(), null);
        Topology t = inside.topology().build("x");
        assertThat(t.routing().reachable(0, 1)).isTrue();
        assertThat(t.routing().reachable(0, 2)).isFalse();
        lbsim.experiment.Scenarios.assertConserved(Runner.run(inside, Runner.Progress.NONE));
        Scenario across = ScenarioLoader.parse(tmp.resolve("s.yaml").toString(), topo + "workload: {kind: permutation, size_bytes: 1000}\n",
                tmp, List.of(), null);
        assertThatThrownBy(() -> Runner.run(across, Runner.Progress.NONE)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("has no path: the fabric is in pieces").hasMessageContaining("are not connected");
    }

    private void bad(String fabricYaml, String... fragments) throws Exception {
        Path f = tmp.resolve("bad-fabric.yaml");
        Files.writeString(f, fabricYaml);
        assertThatThrownBy(() -> fabric("topology: {kind: file, file: bad-fabric.yaml}\nworkload: {kind: permutation}\n", tmp))
                .as(fabricYaml).isInstanceOf(BadInputException.class).hasMessageContaining(f.toString()).hasMessageContaining(fragments[0])
                .hasMessageContaining(fragments.length > 1 ? fragments[1] : "");
    }

    @Test
    void badFilesAreRefusedNamingTheFileTheRecordAndWhatWasExpected() throws Exception {
        String ok = "hosts: [a, b]\nswitches: [s]\nlinks: [{a: a, b: s}, {a: b, b: s}]\n";
        bad(ok.replace("{a: b, b: s}", "{a: b, b: s, rate: 5}"), "links[1].rate: unknown key", "gbps");
        bad(ok.replace("{a: b, b: s}", "{a: b, b: x}"), "links[1].b: 'x' is not a host or switch of this file");
        bad(ok.replace("{a: b, b: s}", "{a: a, b: s}"), "host a has 2 links", "exactly one");
        bad(ok.replace("{a: b, b: s}", "{a: b, b: a}"), "connects two hosts");
        bad(ok.replace("switches: [s]", "switches: [{name: s, tier: core}]"), "switch s has hosts, so it is a ToR");
        bad(ok.replace("switches: [s]", "switches: [{name: s, tier: middle}]"), "switches[0].tier: 'middle' is not allowed", "tor, agg, core");
        bad(ok.replace("hosts: [a, b]", "hosts: [a, b, a]"), "hosts[2]: node a is named twice");
        bad(ok.replace("hosts: [a, b]", "hosts: [\"n[1-\"]"), "hosts[0]: '[' without ']'");
        bad(ok.replace("hosts: [a, b]", "hosts: [a, 7]"), "hosts[1]: expected a name");
        bad(ok.replace("switches: [s]", "switches: [s, t]"), "switch t has no links");
        bad("hosts: [a, b]\nswitches: [s, t, u, v, w]\nlinks: [{a: a, b: s}, {a: b, b: s}, {a: s, b: t}, {a: t, b: u}, {a: u, b: v}]\n"
                + "", "switch w has no links");
        bad("hosts: [a, b]\nswitches: [s, t, u, v]\nlinks: [{a: a, b: s}, {a: b, b: s}, {a: s, b: t}, {a: t, b: u}, {a: u, b: v}]\n",
                "switch v is 3 switch hops above the nearest ToR", "tor, agg, core");
        bad(ok.replace("{a: b, b: s}", "{a: b, b: s, gbps: 0}"), "links[1].gbps", "out of range");
        bad(ok + "extra: 1\n", "extra: unknown key");
        bad("hosts: [\"h[0-2999]\"]\nswitches: [\"s[0-1999]\"]\nlinks: [{a: \"h[0-2999]\", b: \"s[0-1999]\"}]\n",
                "links[0].b: 3000 x 2000 ends make more than 4000000 links");
        bad("- a\n", "expected a YAML mapping");
        assertThatThrownBy(() -> fabric("topology: {kind: file, file: none.yaml}\nworkload: {kind: permutation}\n", tmp))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.file: cannot read 'none.yaml'");
        Files.writeString(tmp.resolve("ok.yaml"), ok);
        assertThatThrownBy(() -> fabric("topology: {kind: file, file: ok.yaml, link_gbps: 100}\nworkload: {kind: permutation}\n", tmp))
                .isInstanceOf(BadInputException.class).hasMessageContaining("topology.link_gbps: unknown key");
    }
}

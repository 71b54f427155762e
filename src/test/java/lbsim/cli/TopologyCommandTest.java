package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lbsim topology export} and {@code import-slurm}: a generated fabric and its export run to
 * byte-identical results; malformed Slurm files are exit 2 naming file and line.
 */
class TopologyCommandTest {
    @TempDir
    Path tmp;

    /** Bundles, an asymmetric override and unequal host/uplink rates: everything the export must carry. */
    private static final String LEAF_SPINE = """
            name: gen
            topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts_per_leaf: 3, parallel_links: 2, link_gbps: 100,
                       uplink_gbps: 200, link_latency_ns: 700, switch_buffer_bytes: 4MiB,
                       link_overrides: [{links: "leaf1-spine0/1", gbps: 50, latency_ns: 900}]}
            transport: {cc: dctcp, pfc: false}
            workload: {kind: permutation, size_bytes: 100000, concurrent: 2}
            """;
    private static final String FAT_TREE = """
            name: gen
            topology: {kind: fat-tree, k: 4, link_gbps: 100, link_latency_ns: 1000, switch_buffer_bytes: 2MiB}
            transport: {cc: dctcp, pfc: true}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 32KiB}
            """;

    @Test
    void aGeneratedFabricAndItsExportGiveByteIdenticalResults() throws Exception {
        for (String[] c : new String[][] {{"leaf-spine", LEAF_SPINE, "ecmp"}, {"leaf-spine", LEAF_SPINE, "ethereal"},
            {"fat-tree", FAT_TREE, "reps"}, {"fat-tree", FAT_TREE, "conweave"}}) {
            Path dir = Files.createDirectories(tmp.resolve(c[0] + "-" + c[2]));
            Path gen = dir.resolve("gen.yaml");
            Files.writeString(gen, c[1]);
            Path fabric = dir.resolve("fabrics/exported.yaml");
            RunCommandTest.Outcome export = exec("topology", "export", gen.toString(), "-o", fabric.toString());
            assertThat(export.code()).as(export.err()).isZero();
            // the same scenario with the topology section replaced by the file (relative to the scenario) and the buffer keys
            String buffer = c[1].contains("4MiB") ? "4MiB" : "2MiB";
            Path fromFile = dir.resolve("file.yaml");
            Files.writeString(fromFile, c[1].replaceAll("(?s)topology: \\{.*?}\\n(?=transport)",
                    "topology: {kind: file, file: fabrics/exported.yaml, switch_buffer_bytes: " + buffer + "}\n"));
            assertThat(Files.readString(fromFile)).contains("kind: file").doesNotContain("spines");
            String a = runFingerprint(gen, dir.resolve("out-gen"), c[2]);
            String b = runFingerprint(fromFile, dir.resolve("out-file"), c[2]);
            assertThat(b).as(c[0] + " " + c[2]).isEqualTo(a);
        }
    }

    private static String runFingerprint(Path scenario, Path out, String scheme) throws Exception {
        RunCommandTest.Outcome o = exec("run", scenario.toString(), "--out", out.toString(), "--set", "load_balancer.scheme=" + scheme);
        assertThat(o.code()).as(o.err()).isZero();
        String summary = Files.readString(out.resolve("summary.json")).lines()
                // the scenario hash differs by design: the two scenarios are written differently (a fabric file vs its keys)
                .filter(l -> !l.contains("wall") && !l.contains("per_sec") && !l.contains("cpu") && !l.contains("scenario_sha256"))
                .collect(Collectors.joining("\n"));
        assertThat(summary).contains("\"completed\" : true");
        return summary + Files.readString(out.resolve("flows.csv")) + Files.readString(out.resolve("links.csv"));
    }

    @Test
    void exportWritesToStandardOutputWithoutOut() throws Exception {
        Path gen = tmp.resolve("gen.yaml");
        Files.writeString(gen, LEAF_SPINE);
        RunCommandTest.Outcome o = exec("topology", "export", gen.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("hosts: [h0, h1,", "  - {name: leaf0, tier: tor}", "  - {name: spine1, tier: agg}",
                "link_gbps: 200\n", "link_latency_ns: 700\n", "  - {a: h0, b: leaf0, gbps: 100}",
                "  - {a: leaf0, b: spine0, count: 2}", "  - {a: leaf1, b: spine0}\n  - {a: leaf1, b: spine0, gbps: 50, latency_ns: 900}");
        assertThat(exec("topology").code()).isEqualTo(2);
    }

    private static final String SLURM = """
            # a two-level tree, as Slurm's topology.conf(5) describes one
            SwitchName=s0 Nodes=node[01-04] LinkSpeed=100
            SwitchName=s1 Nodes=node[05-08]
            switchname=s2 switches=s[0-1]   # parameter names are case-insensitive
            """;

    @Test
    void importSlurmWritesATopologyFileThatRuns() throws Exception {
        Path conf = tmp.resolve("topology.conf");
        Files.writeString(conf, SLURM);
        Path fabric = tmp.resolve("slurm.yaml");
        RunCommandTest.Outcome o = exec("topology", "import-slurm", conf.toString(), "-o", fabric.toString(), "--link-gbps", "200",
                "--parallel-links", "2");
        assertThat(o.code()).as(o.err()).isZero();
        String text = Files.readString(fabric);
        assertThat(text).contains("hosts: [node01, node02, node03, node04, node05, node06, node07, node08]",
                "{name: s0, tier: tor}", "{name: s2, tier: agg}", "{a: node05, b: s1}", "{a: s0, b: s2, count: 2, gbps: 200}");
        Path sc = tmp.resolve("s.yaml");
        Files.writeString(sc, "topology: {kind: file, file: slurm.yaml}\nworkload: {kind: permutation, size_bytes: 100kB}\n");
        RunCommandTest.Outcome run = exec("run", sc.toString(), "--out", tmp.resolve("o").toString());
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(tmp.resolve("o/links.csv"))).contains("s0-s2/1");
    }

    /** A leaf-spine described in Slurm's terms (the generator's names) imports as the generated fabric: byte-identical runs. */
    @Test
    void aSlurmLeafSpineImportsAsTheGeneratedOne() throws Exception {
        Path conf = tmp.resolve("topology.conf");
        Files.writeString(conf, "SwitchName=leaf0 Nodes=h[0-3]\nSwitchName=leaf1 Nodes=h[4-7]\nSwitchName=leaf2 Nodes=h[8-11]\n"
                + "SwitchName=spine0 Switches=leaf[0-2]\nSwitchName=spine1 Switches=leaf[0-2]\n");
        RunCommandTest.Outcome o = exec("topology", "import-slurm", conf.toString(), "-o", tmp.resolve("slurm.yaml").toString(),
                "--host-link-gbps", "100", "--link-gbps", "200", "--link-latency-ns", "700", "--parallel-links", "2");
        assertThat(o.code()).as(o.err()).isZero();
        String work = "transport: {cc: dctcp, pfc: false}\nworkload: {kind: permutation, size_bytes: 100000, concurrent: 2}\n";
        Path gen = tmp.resolve("gen.yaml");
        Files.writeString(gen, "name: s\ntopology: {kind: leaf-spine, leaves: 3, spines: 2, hosts_per_leaf: 4, parallel_links: 2,"
                + " link_gbps: 100, uplink_gbps: 200, link_latency_ns: 700}\n" + work);
        Path file = tmp.resolve("file.yaml");
        Files.writeString(file, "name: s\ntopology: {kind: file, file: slurm.yaml}\n" + work);
        assertThat(runFingerprint(file, tmp.resolve("b"), "ecmp")).isEqualTo(runFingerprint(gen, tmp.resolve("a"), "ecmp"));
    }

    @Test
    void malformedSlurmLinesAreExitTwoNamingFileLineAndExpectation() throws Exception {
        List<String[]> cases = List.of(
                new String[] {"SwitchName=s0 Nodes=n[1-2]\nSwitchName=s1 Node=n[3-4]\n", "line 2: unknown parameter 'Node'", "Nodes=HOSTLIST"},
                new String[] {"SwitchName=s0 Nodes=n[1-2\n", "line 1: Nodes: '[' without ']'", ""},
                new String[] {"SwitchName=s0\n", "line 1: switch s0 has no Nodes= or Switches=", "SwitchName=NAME"},
                new String[] {"Nodes=n1\n", "line 1: no SwitchName", "SwitchName=NAME"},
                new String[] {"SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodes=n1\nSwitchName=s2 Switches=s[0-1]\n",
                    "line 2: node n1 is also under switch s0", "exactly one switch"},
                new String[] {"SwitchName=s0 Nodes=n1\nSwitchName=s2 Switches=s[0-1]\n", "line 2: Switches= names s1, which has no SwitchName line", ""},
                new String[] {"SwitchName=s0 Nodes=n[1-2]\nSwitchName=s0 Nodes=n[3-4]\n", "line 2: switch s0 was already described on line 1", ""},
                new String[] {"SwitchName=s0 Nodes=n[1-2] garbage\n", "line 1: 'garbage' is not KEY=VALUE", "SwitchName=NAME"},
                new String[] {"BlockName=b1 Nodes=n[1-4]\n", "line 1: BlockName", "topology/tree"});
        for (String[] c : cases) {
            Path conf = tmp.resolve("bad.conf");
            Files.writeString(conf, c[0]);
            RunCommandTest.Outcome o = exec("topology", "import-slurm", conf.toString());
            assertThat(o.code()).as(c[0] + o.err()).isEqualTo(2);
            assertThat(o.err()).as(c[0]).contains(conf + ": ", c[1], c[2]).doesNotContain("Exception");
        }
    }
}

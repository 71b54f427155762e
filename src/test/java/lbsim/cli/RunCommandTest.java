package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    @TempDir
    Path tmp;

    record Outcome(int code, String out, String err) {}

    static Outcome exec(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        try {
            int code = Main.execute(args);
            return new Outcome(code, out.toString(), err.toString());
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** Writes {@code yaml} as the scenario file s.yaml in {@code dir} (shared by the CLI tests). */
    static Path writeScenario(Path dir, String yaml) throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private Path scenario(String yaml) throws Exception {
        return writeScenario(tmp, yaml);
    }

    private static final String SMALL = """
            name: small
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
            workload: {kind: permutation, size_bytes: 100000}
            """;

    @Test
    void runWritesTheThreeResultFilesAndTheResolvedScenario() throws Exception {
        Path out = tmp.resolve("out");
        Outcome o = exec("run", scenario(SMALL).toString(), "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(out.resolve("summary.json")).exists();
        assertThat(Files.readString(out.resolve("flows.csv")).lines()).hasSize(1 + 8);
        assertThat(Files.readString(out.resolve("links.csv"))).startsWith("link,link_id,from,to");
        assertThat(Files.readString(out.resolve("events.csv"))).isEqualTo("time_ns,kind,subject,detail\n");
        // --help and the README name every file run writes
        String help = exec("run", "--help").out().replaceAll("\\s+", ""); // picocli may wrap inside a file name
        String readme = Files.exists(Path.of("README.md")) ? Files.readString(Path.of("README.md")) : "";
        try (java.util.stream.Stream<Path> written = Files.list(out)) {
            for (Path p : written.toList()) {
                String name = p.getFileName() + (Files.isDirectory(p) ? "/" : "");
                assertThat(help).as("run --help").contains(name);
                assertThat(readme).as("README").contains("`" + name + "`");
            }
        }
        // defaults are written into the resolved scenario
        assertThat(Files.readString(out.resolve("scenario.resolved.yaml"))).contains("local_ack_timeout: 20", "cc: \"dcqcn\"", "profile: \"roce\"", "ecn_profile: \"auto\"");
    }

    /** --no-report: the results files and the summary line, no report.html and no plots/. */
    @Test
    void noReportWritesTheResultsWithoutTheCharts() throws Exception {
        Path out = tmp.resolve("plain");
        Outcome o = exec("run", scenario(SMALL).toString(), "--out", out.toString(), "--no-report");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("completed", "results in");
        for (String f : new String[] {"summary.json", "flows.csv", "links.csv", "throughput.csv", "scenario.resolved.yaml"}) {
            assertThat(out.resolve(f)).exists();
        }
        assertThat(out.resolve("report.html")).doesNotExist();
        assertThat(out.resolve("plots")).doesNotExist();
        assertThat(exec("run", "--help").out()).contains("--no-report");
        // the same run with the report has the same results
        Path full = tmp.resolve("full");
        assertThat(exec("run", scenario(SMALL).toString(), "--out", full.toString()).code()).isZero();
        assertThat(full.resolve("report.html")).exists();
        assertThat(Files.readString(out.resolve("flows.csv"))).isEqualTo(Files.readString(full.resolve("flows.csv")));
    }

    @Test
    void unknownKeyIsExitTwoNamingFileKeyAndAllowedKeys() throws Exception {
        Path f = scenario(SMALL.replace("leaves: 2", "leafs: 2"));
        Outcome o = exec("run", f.toString(), "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains(f.toString(), "topology.leafs", "unknown key", "leaves");
    }

    @Test
    void badEnumValueListsAllowedValues() throws Exception {
        Outcome o = exec("run", scenario(SMALL).toString(), "--set", "load_balancer.scheme=magic", "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("load_balancer.scheme", "magic", "ecmp", "spray-host");
    }

    @Test
    void aTimeoutCapBelowTheTimeoutIsExitTwoNamingTheKey() throws Exception {
        Outcome o = exec("run", scenario(SMALL).toString(), "--set", "transport.timeout_max_us=10", "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("transport.timeout_max_us", "timeout_us", "0 (no cap)");
    }

    @Test
    void anAdaptiveFirstTimeoutRangeOffPowersOfTwoIsExitTwoNamingTheKey() throws Exception {
        Outcome o = exec("run", scenario(SMALL).toString(), "--set", "nic.adaptive_retransmission=true", "--set",
                "nic.adp_first_timeout_max_us=48", "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("nic.adp_first_timeout_max_us", "power of 2");
    }

    @Test
    void missingFileIsExitTwo() {
        Outcome o = exec("run", tmp.resolve("nope.yaml").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("nope.yaml");
    }

    @Test
    void compareWritesCsvAndReportWithOneRowPerScheme() throws Exception {
        Path out = tmp.resolve("cmp");
        Outcome o = exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp,spray-host", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(Files.readString(out.resolve("compare.csv")).lines()).hasSize(3);
        assertThat(Files.readString(out.resolve("report.html"))).contains("<table>", "spray-host");
        assertThat(o.out()).contains("ecmp", "spray-host", "normalised");
        Path plain = tmp.resolve("cmp-plain");
        assertThat(exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp", "--seeds", "1", "--no-report", "--out",
                plain.toString()).code()).isZero();
        assertThat(plain.resolve("compare.csv")).exists();
        assertThat(plain.resolve("report.html")).doesNotExist();
    }

    /** Each run folder of a compare (one per scheme and seed) has its resolved scenario, and running that file alone gives the same summary. */
    @Test
    void compareFoldersCanBeRerunFromTheirResolvedScenario() throws Exception {
        Path out = tmp.resolve("cmp-resolved");
        assertThat(exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp,spray-host", "--seed", "7", "--seeds", "2", "--out",
                out.toString()).code()).isZero();
        for (String scheme : new String[] {"ecmp", "spray-host"}) {
            for (int seed : new int[] {7, 8}) {
                Path folder = out.resolve(scheme).resolve("seed-" + seed);
                Path resolved = folder.resolve("scenario.resolved.yaml");
                assertThat(resolved).exists();
                assertThat(Files.readString(resolved)).contains("scheme: \"" + scheme + "\"", "seed: " + seed);
                Path again = tmp.resolve("again-" + scheme + "-" + seed);
                Outcome o = exec("run", resolved.toString(), "--out", again.toString());
                assertThat(o.code()).as(o.err()).isZero();
                String wall = "\"wall_ms\"\\s*:\\s*\\d+";
                assertThat(Files.readString(again.resolve("summary.json")).replaceAll(wall, ""))
                        .isEqualTo(Files.readString(folder.resolve("summary.json")).replaceAll(wall, ""));
            }
        }
    }

    @Test
    void compareCsvHasEverySummaryFieldAndDoesNotDependOnJobs() throws Exception {
        Path one = tmp.resolve("j1");
        Path two = tmp.resolve("j2");
        assertThat(exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp,spray-host,drill", "--jobs", "1", "--out",
                one.toString()).code()).isZero();
        assertThat(exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp,spray-host,drill", "--jobs", "2", "--out",
                two.toString()).code()).isZero();
        String csv = Files.readString(one.resolve("compare.csv"));
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("scheme,seed,").contains("normalised", "flows.fct_ns.p99",
                "packets.dropped", "max_qps_per_nic", "throughput.max_gbps").doesNotContain("wall");
        assertThat(Files.readString(two.resolve("compare.csv"))).isEqualTo(csv);
        assertThat(exec("compare", scenario(SMALL).toString(), "--jobs", "0").code()).isEqualTo(2);
    }

    @Test
    void everyExampleScenarioLoads() throws Exception {
        try (var files = Files.walk(Path.of("examples"))) {
            // examples/fabrics holds topology files (FabricFileTest reads them), examples/sweeps sweep files (NcclLadderTest)
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.startsWith(Path.of("examples", "fabrics"))
                    && !p.startsWith(Path.of("examples", "sweeps"))).toList()) {
                lbsim.experiment.ScenarioLoader.load(f, java.util.List.of(), null);
            }
        }
    }

    @Test
    void aConnectionMatrixLineFromAHostToItselfIsExitTwoNamingFileAndLine() throws Exception {
        Path cm = tmp.resolve("self.cm");
        Files.writeString(cm, "Nodes 16\nConnections 1\n4->4 id 1 start 0 size 100000\n");
        Path f = scenario("topology: {kind: fat-tree, k: 4}\nworkload: {kind: htsim-cm, file: self.cm}\n");
        for (String[] args : new String[][] {{"run", f.toString(), "--out", tmp.resolve("o").toString()},
                {"plan", "ethereal", f.toString()}, {"bench", "--traffic", cm.toString()}}) {
            Outcome o = exec(args);
            assertThat(o.code()).as(String.join(" ", args) + ": " + o.err()).isEqualTo(2);
            assertThat(o.err()).contains(cm.toString() + ": line 3: ", "same host (4)").doesNotContain("Exception");
        }
    }

    /** compare sets load_balancer.scheme per scheme: a key of the file's own scheme is refused under the others, and the message says which. */
    @Test
    void compareNamesTheSchemeUnderWhichASchemeKeyIsRefused() throws Exception {
        String drill = SMALL.replace("workload:", "load_balancer: {scheme: drill, d: 3}\nworkload:");
        Outcome o = exec("compare", scenario(drill).toString(), "--schemes", "drill,ecmp", "--out", tmp.resolve("d").toString());
        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains("load_balancer.d", "under scheme ecmp", "load_balancer.scheme=ecmp")
                .doesNotContain("Exception");
    }

    @Test
    void compareRefusesASchemeGivenTwiceBeforeSimulating() throws Exception {
        Path out = tmp.resolve("dup");
        Outcome o = exec("compare", scenario(SMALL).toString(), "--schemes", "ecmp,spray-host,ecmp", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains("--schemes", "'ecmp'", "twice").doesNotContain("running", "Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void aDuplicateKeyIsExitTwoNamingFileAndKey() throws Exception {
        Path f = scenario(SMALL + "topology: {kind: fat-tree, k: 4}\n");
        Outcome o = exec("run", f.toString(), "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains(f + ": line 4: topology: duplicate key");
    }

    @Test
    void aNameThatWouldLeaveTheOutputFolderIsExitTwo() throws Exception {
        // --out keeps a run of the unfixed code inside the temporary folder
        Outcome o = exec("run", scenario(SMALL.replace("name: small", "name: \"../escaped\"")).toString(), "--out", tmp.resolve("o").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("name: '../escaped' is not allowed");
        assertThat(exec("compare", scenario(SMALL.replace("name: small", "name: \"\"")).toString(), "--schemes", "ecmp", "--out",
                tmp.resolve("c").toString()).code()).isEqualTo(2);
    }
}

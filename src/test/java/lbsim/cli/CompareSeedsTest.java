package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.experiment.ScenarioLoader;
import lbsim.experiment.Sweep;
import lbsim.metrics.plot.ReportCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `compare --seeds N`: N runs per scheme, means and sd from the per-seed summaries, and which schemes are within the noise of the best. */
class CompareSeedsTest {
    @TempDir
    Path tmp;

    /**
     * An all-to-all on a 4-leaf, 2-spine leaf-spine: the seed moves ECMP's hashing (CCT 154-164 us
     * over seeds 1-3), while adaptive spraying stays within 1 us of 135 us, so ECMP is slower
     * beyond the noise.
     */
    private static final String ALL_TO_ALL = """
            name: a2a
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4}
            transport: {cc: dctcp}
            nic: {profile: multipath}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 1000000}
            """;

    /** One spine: there is no path to choose, so ECMP and switch spraying are the same scheme under two names; the seed moves the permutation. */
    private static final String ONE_SPINE = """
            name: one-spine
            topology: {kind: leaf-spine, leaves: 4, spines: 1, hosts_per_leaf: 4}
            workload: {kind: permutation, size_bytes: 200000}
            """;

    private Path scenario(String yaml) throws Exception {
        return RunCommandTest.writeScenario(tmp, yaml);
    }

    /** compare.csv as a list of rows, each column name to cell. */
    private static List<Map<String, String>> csv(Path file) throws Exception {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(file)) {
            return r.stream().map(rec -> (Map<String, String>) new LinkedHashMap<>(rec.getFieldsAsMap())).toList();
        }
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) s += v;
        return s / x.length;
    }

    private static double sd(double[] x) {
        double m = mean(x), ss = 0;
        for (double v : x) ss += (v - m) * (v - m);
        return Math.sqrt(ss / (x.length - 1));
    }

    @Test
    void nSeedsAreNRunsPerSchemeAveragedFromTheirSummaries() throws Exception {
        Path out = tmp.resolve("cmp");
        Outcome o = exec("compare", scenario(ALL_TO_ALL).toString(), "--schemes", "ecmp,spray-adaptive", "--seeds", "3", "--seed", "1",
                "--jobs", "2", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        List<Map<String, String>> rows = csv(out.resolve("compare.csv"));
        assertThat(rows).extracting(r -> r.get("scheme")).containsExactly("ecmp", "spray-adaptive");
        // means are decimals in every row, so each column reads as one type
        var types = lbsim.StrictCsv.inferTypes(lbsim.StrictCsv.read(out.resolve("compare.csv")), false);
        assertThat(types.get("packets.retransmitted").kind()).isEqualTo("decimal");
        for (Map<String, String> row : rows) {
            String scheme = row.get("scheme");
            assertThat(out.resolve(scheme).resolve("summary.json")).doesNotExist();
            double[] cct = new double[3], retx = new double[3];
            for (int s = 1; s <= 3; s++) {
                Path run = out.resolve(scheme).resolve("seed-" + s);
                assertThat(run.resolve("scenario.resolved.yaml")).exists();
                assertThat(Files.readString(run.resolve("flows.csv")).lines()).hasSize(1 + 16 * 15);
                var summary = Sweep.readSummary(run.resolve("summary.json"));
                assertThat(summary.get("seed").asLong()).isEqualTo(s);
                cct[s - 1] = summary.get("cct_ns").asDouble();
                retx[s - 1] = summary.get("packets").get("retransmitted").asDouble();
            }
            assertThat(out.resolve(scheme).resolve("seed-4")).doesNotExist();
            assertThat(row.get("seed")).isEqualTo("1");
            assertThat(row.get("seeds")).isEqualTo("3");
            assertThat(Double.parseDouble(row.get("cct_ns"))).isCloseTo(mean(cct), within(1e-3));
            assertThat(Double.parseDouble(row.get("cct_sd_ns"))).isCloseTo(sd(cct), within(1e-3));
            assertThat(Double.parseDouble(row.get("packets.retransmitted"))).isCloseTo(mean(retx), within(1e-3));
            assertThat(row.get("completed")).isEqualTo("true");
            assertThat(row.get("nic.profile")).isEqualTo("multipath");
        }
        assertThat(Double.parseDouble(rows.get(0).get("cct_sd_ns"))).isGreaterThan(1000);   // the seed moves ECMP by microseconds
        assertThat(rows.get(0).get("within_noise_of_best")).isEqualTo("false");
        assertThat(rows.get(1).get("within_noise_of_best")).isEqualTo("true");
        // the console: means, sd, the verdict and what it holds for, the noise
        assertThat(o.out()).contains("sd_us", "vs_best", "verdict: best spray-adaptive", "no other scheme within the noise",
                "holds for cc dctcp, loss recovery sack, PFC on, NIC multipath, seeds 1-3", "noise: the completion's sd over 3 seeds",
                "NIC multipath: ");
        String ecmpRow = o.out().lines().filter(l -> l.startsWith("ecmp ")).findFirst().orElseThrow();
        assertThat(ecmpRow).containsPattern("worse \\+[\\d.]+ %$");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<th>sd (us)</th>", "<th>vs best</th>", "verdict: best spray-adaptive", "seeds 1-3", "noise: ",
                "error bars ± the sample sd").doesNotContain("NaN");
        assertThat(ReportCheck.assertSelfContained(out.resolve("report.html"))).contains("plots/normalised.png");
    }

    @Test
    void aSchemeUnderAnotherNameIsWithinTheNoiseAndJobsDoNotMatter() throws Exception {
        Path one = tmp.resolve("j1"), two = tmp.resolve("j2");
        Outcome o = exec("compare", scenario(ONE_SPINE).toString(), "--schemes", "ecmp,spray-switch", "--seeds", "3", "--jobs", "1",
                "--out", one.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(exec("compare", scenario(ONE_SPINE).toString(), "--schemes", "ecmp,spray-switch", "--seeds", "3", "--jobs", "2",
                "--out", two.toString()).code()).isZero();
        assertThat(Files.readString(two.resolve("compare.csv"))).isEqualTo(Files.readString(one.resolve("compare.csv")));
        List<Map<String, String>> rows = csv(one.resolve("compare.csv"));
        // not a collective: the spread column is named after the last flow's finish
        assertThat(rows.get(0)).containsKey("completion_sd_ns").doesNotContainKey("cct_sd_ns");
        assertThat(Double.parseDouble(rows.get(0).get("completion_sd_ns"))).isPositive();   // the seed moves the permutation
        assertThat(rows.get(1).get("completion_sd_ns")).isEqualTo(rows.get(0).get("completion_sd_ns"));
        assertThat(rows).extracting(r -> r.get("within_noise_of_best")).containsExactly("true", "true");
        assertThat(o.out()).contains("within the noise of it: spray-switch");
    }

    @Test
    void oneSeedKeepsTheFoldersAndTheCsvWithThreeColumnsAtTheEnd() throws Exception {
        Path out = tmp.resolve("one");
        Outcome o = exec("compare", scenario(ONE_SPINE).toString(), "--schemes", "ecmp,drill", "--seeds", "1", "--seed", "5", "--out",
                out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        List<String> lines = Files.readString(out.resolve("compare.csv")).lines().toList();
        assertThat(lines.get(0)).startsWith("scheme,seed,scenario,").endsWith(",packet_hops,seeds,completion_sd_ns,within_noise_of_best");
        List<String> header = List.of(lines.get(0).split(","));
        List<Map<String, String>> rows = csv(out.resolve("compare.csv"));
        List<String> schemes = List.of("ecmp", "drill");
        for (int i = 0; i < schemes.size(); i++) {
            Path run = out.resolve(schemes.get(i));
            assertThat(run.resolve("seed-5")).doesNotExist();
            // the row is the run's own summary, as before --seeds, then 1 seed, no sd, no verdict
            Map<String, String> summary = new LinkedHashMap<>(Map.of("scheme", schemes.get(i), "seed", "5"));
            summary.putAll(Sweep.flatten(ScenarioLoader.yaml().readTree(Files.readString(run.resolve("summary.json")))));
            summary.putAll(Map.of("seeds", "1", "completion_sd_ns", "", "within_noise_of_best", ""));
            assertThat(List.copyOf(rows.get(i).values())).isEqualTo(header.stream().map(summary::get).toList());
        }
        // the table as before (no sd or verdict column), then the NIC and the one-seed caveat
        assertThat(o.out().lines().findFirst().orElseThrow()).isEqualTo(
                "scheme            completion_us normalised   fct_p50_us   fct_p99_us   dropped      retx      ooo  max_qps");
        assertThat(o.out()).contains("NIC roce: ", "one seed: cc dcqcn, loss recovery go-back-n, PFC on, NIC roce, seed 5",
                "no estimate of the noise").doesNotContain("sd_us", "vs_best");
    }

    @Test
    void aSmallScenarioGetsThreeSeedsByDefault() throws Exception {
        Path out = tmp.resolve("default");
        Outcome o = exec("compare", scenario(ONE_SPINE).toString(), "--schemes", "ecmp", "--out", out.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.err()).contains("x 3 seeds (1-3)");
        for (int s = 1; s <= 3; s++) assertThat(out.resolve("ecmp").resolve("seed-" + s).resolve("summary.json")).exists();
        assertThat(csv(out.resolve("compare.csv")).get(0).get("seeds")).isEqualTo("3");
    }

    @Test
    void aSeedCountBelowOneIsExitTwoNamingTheFlag() throws Exception {
        for (String n : new String[] {"0", "-2"}) {
            Path out = tmp.resolve("bad" + n);
            Outcome o = exec("compare", scenario(ONE_SPINE).toString(), "--schemes", "ecmp", "--seeds", n, "--out", out.toString());
            assertThat(o.code()).as(o.err()).isEqualTo(2);
            assertThat(o.err()).contains("--seeds", "at least 1", n).doesNotContain("running", "Exception");
            assertThat(out).doesNotExist();
        }
        Outcome o = exec("compare", scenario(ONE_SPINE).toString(), "--seeds", "three");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--seeds");
    }
}

package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.cli.RunCommandTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class BenchCommandTest {
    @TempDir
    Path tmp;

    private Path scenario() throws Exception {
        Path f = tmp.resolve("mine.yaml");
        Files.writeString(f, """
                name: mine
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
                workload: {kind: permutation, size_bytes: 200000}
                """);
        return f;
    }

    @Test
    void timesAUsersScenarioAndCountsItsHops() throws Exception {
        Path f = scenario();
        Outcome o = RunCommandTest.exec("bench", "--scenario", f.toString(), "--warmup-ms", "0", "--format", "json");
        assertThat(o.code()).as(o.err()).isZero();
        JsonNode row = JsonMapper.builder().build().readTree(o.out()).get("scenarios").get(0);
        assertThat(row.get("name").asString()).isEqualTo(f.toString());
        assertThat(row.get("flows").asInt()).isEqualTo(8);
        // 8 flows of 49 MTU packets, each crossing at least 2 links (same leaf), ACKs on top
        assertThat(row.get("packet_hops").asLong()).isGreaterThanOrEqualTo(8L * 49 * 2 * 2);
        assertThat(row.get("events").asLong()).isGreaterThanOrEqualTo(row.get("packet_hops").asLong());
    }

    @Test
    void aKeyTheScenariosSettingsDoNotReadIsWarnedOnce() throws Exception {
        Path f = tmp.resolve("unread.yaml");
        Files.writeString(f, Files.readString(scenario()) + "transport: {cc: dcqcn, dctcp_g: 0.5}\n");
        Outcome o = RunCommandTest.exec("bench", "--scenario", f.toString(), "--warmup-ms", "0", "--repeat", "2");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.err().split("warning: transport.dctcp_g", -1)).hasSize(2);
    }

    @Test
    void forksRunTheSameDeterministicRunInFreshJvmsAndReportTheSpread() throws Exception {
        Path f = scenario();
        Outcome o = RunCommandTest.exec("bench", "--scenario", f.toString(), "--forks", "2", "--warmup-ms", "0", "--format", "json");
        assertThat(o.code()).as(o.err()).isZero();
        JsonNode doc = JsonMapper.builder().build().readTree(o.out());
        assertThat(doc.get("forks").asInt()).isEqualTo(2);
        JsonNode row = doc.get("scenarios").get(0);
        assertThat(row.get("name").asString()).isEqualTo(f.toAbsolutePath().toString());
        assertThat(row.get("forks").asInt()).isEqualTo(2);
        assertThat(row.get("packet_hops_per_cpu_sec")).hasSize(2);
        long min = row.get("packet_hops_per_cpu_sec_min").asLong();
        assertThat(min).isPositive().isLessThanOrEqualTo(row.get("packet_hops_per_cpu_sec_median").asLong());
        assertThat(row.get("packet_hops_per_cpu_sec_median").asLong()).isLessThanOrEqualTo(row.get("packet_hops_per_cpu_sec_max").asLong());
        // the same run as in this JVM: deterministic, whichever JVM simulates it
        JsonNode here = JsonMapper.builder().build().readTree(RunCommandTest.exec("bench", "--scenario", f.toString(), "--warmup-ms", "0", "--format", "json").out())
                .get("scenarios").get(0);
        assertThat(row.get("events").asLong()).isEqualTo(here.get("events").asLong());
        assertThat(row.get("packet_hops").asLong()).isEqualTo(here.get("packet_hops").asLong());
    }

    @Test
    void forksBelowOneOrAMissingFileAreExitTwo() {
        Outcome zero = RunCommandTest.exec("bench", "--forks", "0");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).contains("--forks");
        Outcome missing = RunCommandTest.exec("bench", "--scenario", tmp.resolve("absent.yaml").toString(), "--forks", "2");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("absent.yaml");
    }

    @Test
    void anOnlyFilterThatMatchesNothingIsExitTwoListingTheScenarios() {
        Outcome o = RunCommandTest.exec("bench", "--only", "k=99");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--only", "k=99", "fat-tree k=8");
    }

    @Test
    void missingScenarioFileIsExitTwoNamingIt() {
        Outcome o = RunCommandTest.exec("bench", "--scenario", tmp.resolve("absent.yaml").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("absent.yaml");
    }

    @Test
    void scenarioWithTheLongTierIsExitTwo() throws Exception {
        Outcome o = RunCommandTest.exec("bench", "--scenario", scenario().toString(), "--long");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--scenario", "--long");
    }

    @Test
    void aNegativeWarmUpIsExitTwo() throws Exception {
        Outcome o = RunCommandTest.exec("bench", "--scenario", scenario().toString(), "--warmup-ms", "-1");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("--warmup-ms", "-1");
    }

    /** The warm-up runs the first scenario for the given CPU time before timing: a longer warm-up takes longer, and the timed run is the same run. */
    @Test
    void theWarmUpRunsForItsCpuTimeBeforeTiming() throws Exception {
        Path f = scenario();
        long t0 = System.nanoTime();
        Outcome quick = RunCommandTest.exec("bench", "--scenario", f.toString(), "--warmup-ms", "0", "--format", "json");
        long quickNs = System.nanoTime() - t0;
        t0 = System.nanoTime();
        Outcome warm = RunCommandTest.exec("bench", "--scenario", f.toString(), "--warmup-ms", "1500", "--format", "json");
        long warmNs = System.nanoTime() - t0;
        assertThat(quick.code()).as(quick.err()).isZero();
        assertThat(warm.code()).as(warm.err()).isZero();
        // at least 1.5 s of CPU were spent warming up (elapsed time is never shorter than one thread's CPU time)
        assertThat(warmNs).isGreaterThanOrEqualTo(1_500_000_000L);
        assertThat(warmNs).isGreaterThan(quickNs);
        JsonNode a = JsonMapper.builder().build().readTree(quick.out()).get("scenarios").get(0);
        JsonNode b = JsonMapper.builder().build().readTree(warm.out()).get("scenarios").get(0);
        assertThat(b.get("events").asLong()).isEqualTo(a.get("events").asLong());
        assertThat(b.get("packet_hops").asLong()).isEqualTo(a.get("packet_hops").asLong());
    }
}

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
        Outcome o = RunCommandTest.exec("bench", "--scenario", f.toString(), "--format", "json");
        assertThat(o.code()).as(o.err()).isZero();
        JsonNode row = JsonMapper.builder().build().readTree(o.out()).get("scenarios").get(0);
        assertThat(row.get("name").asString()).isEqualTo(f.toString());
        assertThat(row.get("flows").asInt()).isEqualTo(8);
        // 8 flows of 49 MTU packets, each crossing at least 2 links (same leaf), ACKs on top
        assertThat(row.get("packet_hops").asLong()).isGreaterThanOrEqualTo(8L * 49 * 2 * 2);
        assertThat(row.get("events").asLong()).isGreaterThanOrEqualTo(row.get("packet_hops").asLong());
    }

    @Test
    void forksRunTheSameDeterministicRunInFreshJvmsAndReportTheSpread() throws Exception {
        Path f = scenario();
        Outcome o = RunCommandTest.exec("bench", "--scenario", f.toString(), "--forks", "2", "--format", "json");
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
        JsonNode here = JsonMapper.builder().build().readTree(RunCommandTest.exec("bench", "--scenario", f.toString(), "--format", "json").out())
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
}

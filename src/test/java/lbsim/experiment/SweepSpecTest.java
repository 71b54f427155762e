package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepSpecTest {
    @TempDir
    Path tmp;

    private static final String BASE = """
            base:
              name: small
              topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
              workload: {kind: permutation, size_bytes: 20000}
            """;

    static SweepSpec parse(String text, String... sets) {
        return SweepSpec.parse("sweep.yaml", text, null, List.of(sets));
    }

    @Test
    void gridIsTheCartesianProductInFileOrderLastKeyFastestSeedsInnermost() {
        SweepSpec s = parse(BASE + """
                grid:
                  load_balancer.scheme: [ecmp, spray-host, reps]
                  topology.spines: [2, 4]
                seeds: [7, 9]
                """);
        assertThat(s.columns()).containsExactly("load_balancer.scheme", "topology.spines");
        assertThat(s.points()).isEqualTo(6);
        List<SweepSpec.Run> runs = s.runs();
        assertThat(runs).hasSize(12);
        assertThat(runs.get(0).labels()).containsExactly("ecmp", "2");
        assertThat(runs.get(0).seed()).isEqualTo(7);
        assertThat(runs.get(1).labels()).containsExactly("ecmp", "2");
        assertThat(runs.get(1).seed()).isEqualTo(9);
        assertThat(runs.get(2).labels()).containsExactly("ecmp", "4");
        assertThat(runs.get(11).labels()).containsExactly("reps", "4");
        for (int i = 0; i < runs.size(); i++) assertThat(runs.get(i).index()).isEqualTo(i);
        // every run key is distinct and the scenario of a run carries its grid values and seed
        assertThat(new HashSet<>(runs.stream().map(SweepSpec.Run::key).toList())).hasSize(12);
        Scenario sc = s.scenario(runs.get(11));
        assertThat(sc.scheme()).isEqualTo("reps");
        assertThat(sc.seed()).isEqualTo(9);
        assertThat(sc.resolved().get("topology").get("spines").asInt()).isEqualTo(4);
    }

    @Test
    void seedsCountMeansOneToNAndDefaultIsSeedOne() {
        assertThat(parse(BASE + "seeds: 3\n").seeds()).containsExactly(1, 2, 3);
        assertThat(parse(BASE).seeds()).containsExactly(1);
        assertThat(parse(BASE).runs()).hasSize(1);
        assertThatThrownBy(() -> parse(BASE + "seeds: 0\n")).isInstanceOf(BadInputException.class).hasMessageContaining("seeds");
        assertThat(parse(BASE + "seeds: " + SweepSpec.MAX_SEEDS + "\n").seeds()).hasSize(SweepSpec.MAX_SEEDS);
        // more would only exhaust memory building the list (2e9 seeds: 16 GB)
        assertThatThrownBy(() -> parse(BASE + "seeds: " + (SweepSpec.MAX_SEEDS + 1) + "\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("[1, " + SweepSpec.MAX_SEEDS + "]");
        assertThatThrownBy(() -> parse(BASE + "seeds: [1, x]\n")).isInstanceOf(BadInputException.class).hasMessageContaining("seeds[1]");
        // beyond an int / beyond 64 bits: out of range, not a crash
        assertThatThrownBy(() -> parse(BASE + "seeds: 3000000000\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("seeds: 3000000000 is out of range");
        assertThatThrownBy(() -> parse(BASE + "seeds: [1, 99999999999999999999]\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("seeds[1]").hasMessageContaining("out of range");
    }

    /** The audit's sw5/sw7: a value or seed given twice ran the same run twice into one folder. */
    @Test
    void aGridValueOrSeedGivenTwiceIsBadInput() {
        assertThatThrownBy(() -> parse(BASE + "seeds: [3, 4, 3]\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("sweep.yaml: seeds: 3 is given twice (seeds[0] and seeds[2])");
        assertThatThrownBy(() -> parse(BASE + "grid: {load_balancer.scheme: [ecmp, reps, ecmp]}\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("sweep.yaml: grid.load_balancer.scheme: value \"ecmp\" is given twice");
        assertThatThrownBy(() -> parse(BASE + "grid: {topology.spines: [2, 2]}\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid.topology.spines: value 2 is given twice");
    }

    @Test
    void labelledValuesSetWholeSubtreesAndShowTheirLabel() {
        SweepSpec s = parse(BASE + """
                grid:
                  load_balancer:
                    ecmp: {scheme: ecmp}
                    mp4: {scheme: mprdma, splits: 4}
                """);
        List<SweepSpec.Run> runs = s.runs();
        assertThat(runs.get(1).labels()).containsExactly("mp4");
        Scenario sc = s.scenario(runs.get(1));
        assertThat(sc.scheme()).isEqualTo("mprdma");
        assertThat(sc.resolved().get("load_balancer").get("splits").asInt()).isEqualTo(4);
    }

    @Test
    void setOverridesApplyAfterTheGridPointAndChangeTheRunKeys() {
        String text = BASE + "grid: {workload: {a: {kind: permutation, size_bytes: 1000}}}\n";
        SweepSpec plain = parse(text);
        SweepSpec shrunk = parse(text, "workload.size_bytes=500");
        assertThat(shrunk.scenario(shrunk.runs().get(0)).resolved().get("workload").get("size_bytes").asInt()).isEqualTo(500);
        assertThat(shrunk.runs().get(0).key()).isNotEqualTo(plain.runs().get(0).key());
    }

    @Test
    void baseMayBeAPathRelativeToTheSweepFile() throws Exception {
        Files.createDirectories(tmp.resolve("sc"));
        Files.writeString(tmp.resolve("sc/base.yaml"), """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
                workload: {kind: permutation, size_bytes: 20000}
                """);
        Path f = tmp.resolve("sweep.yaml");
        Files.writeString(f, "base: sc/base.yaml\ngrid: {topology.spines: [1, 3]}\n");
        SweepSpec s = SweepSpec.load(f, List.of());
        s.validate();
        assertThat(s.scenario(s.runs().get(1)).resolved().get("topology").get("spines").asInt()).isEqualTo(3);
    }

    @Test
    void validationNamesTheGridPointAndTheBadKey() {
        SweepSpec s = parse(BASE + "grid: {load_balancer.scheme: [ecmp, magic]}\n");
        assertThatThrownBy(s::validate).isInstanceOf(BadInputException.class)
                .hasMessageContaining("load_balancer.scheme=magic").hasMessageContaining("allowed values");
        SweepSpec t = parse(BASE + "grid: {topology.leafs: [2]}\n");
        assertThatThrownBy(t::validate).isInstanceOf(BadInputException.class).hasMessageContaining("topology.leafs")
                .hasMessageContaining("unknown key");
        assertThatThrownBy(() -> parse("base: {}\nrgid: {}\n")).isInstanceOf(BadInputException.class).hasMessageContaining("rgid");
        assertThatThrownBy(() -> parse(BASE + "seeds: 2\nseeds: 3\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("sweep.yaml: line 6: seeds: duplicate key");
        assertThatThrownBy(() -> parse("grid: {}\n")).isInstanceOf(BadInputException.class).hasMessageContaining("base");
        assertThatThrownBy(() -> parse(BASE + "grid: {topology.spines: 3}\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid.topology.spines");
    }

    @Test
    void shardSpecIsParsedAndChecked() {
        assertThat(Sweep.Shard.parse("2/5")).isEqualTo(new Sweep.Shard(2, 5));
        for (String bad : List.of("5/5", "-1/3", "1", "a/b", "1/0")) {
            assertThatThrownBy(() -> Sweep.Shard.parse(bad)).isInstanceOf(BadInputException.class).hasMessageContaining("--shard");
        }
    }
    @Test
    void twoGridKeysSettingTheSameScenarioKeyAreRefusedNamingBoth() {
        // the later subtree would silently replace the earlier key in every run
        assertThatThrownBy(() -> parse(BASE + """
                grid:
                  load_balancer.scheme: [ecmp, reps]
                  topology.spines: [2, 4]
                  load_balancer: {mp2: {scheme: mprdma, splits: 2}, eth: {scheme: ethereal}}
                """)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid.load_balancer.scheme and grid.load_balancer both set load_balancer.scheme");
        // a set label's key inside an earlier grid key's subtree
        assertThatThrownBy(() -> parse(BASE + """
                grid:
                  transport: {a: {cc: dctcp}, b: {cc: dcqcn}}
                  set: {x: {load_balancer.scheme: reps, transport.cc: swift}}
                """)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid.transport and grid.set.x.transport.cc both set transport.cc");
        // neighbours that only share a prefix of their names are not the same key
        assertThat(parse(BASE + """
                grid:
                  load_balancer.scheme: [ecmp, reps]
                  load_balancer.scheme_extra_not_a_child: [1]
                """).points()).isEqualTo(2);
        assertThat(SweepSpec.overlaps("a.b", "a.b")).isTrue();
        assertThat(SweepSpec.overlaps("a", "a.b.c")).isTrue();
        assertThat(SweepSpec.overlaps("a.bc", "a.b")).isFalse();
    }

    @Test
    void aSweepNameMustBeTextNotAMapping() {
        assertThatThrownBy(() -> parse("name: {a: 1}\n" + BASE)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("sweep.yaml: name: expected a text value, got a mapping");
        assertThatThrownBy(() -> parse("name: [a]\n" + BASE)).isInstanceOf(BadInputException.class).hasMessageContaining("got a list");
        assertThat(parse("name: s1\n" + BASE).name()).isEqualTo("s1");
    }

    @Test
    void aSweepOfMoreThanAMillionRunsIsRefusedAtOnce() {
        // 2^32 grid points used to overflow the int count: an ArithmeticException, exit 1
        StringBuilder g = new StringBuilder("grid:\n");
        for (int d = 0; d < 32; d++) g.append("  k").append(d).append(": [1, 2]\n");
        assertThatThrownBy(() -> parse(BASE + g)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("= 4294967296 runs").hasMessageContaining("at most 1000000 runs");
        assertThatThrownBy(() -> parse(BASE + "grid: {topology.spines: [1, 2]}\nseeds: 600000\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("grid: 2 x 600000 seeds = 1200000 runs");
        assertThat(parse(BASE + "grid: {topology.spines: [1, 2]}\nseeds: 500000\n").points()).isEqualTo(2);
    }
}

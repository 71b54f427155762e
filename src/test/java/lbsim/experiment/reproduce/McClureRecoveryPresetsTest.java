package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.BadInputException;
import lbsim.experiment.FailureSpec;
import lbsim.experiment.Scenario;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepSpec;
import lbsim.plan.CapacityPlan;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The McClure failure and loss-recovery presets: their setups match the paper's stated cases. */
class McClureRecoveryPresetsTest {
    private static SweepSpec spec(String id, String scale) {
        return Reproduce.spec(Presets.get(id), scale, List.of());
    }

    private static SweepSpec.Run run(SweepSpec s, Map<String, String> select) {
        List<String> cols = s.columns();
        for (SweepSpec.Run r : s.runs()) {
            boolean ok = true;
            for (int i = 0; i < cols.size(); i++) ok &= select.get(cols.get(i)).equals(r.labels().get(i));
            if (ok) return r;
        }
        throw new AssertionError("no run " + select);
    }

    @Test
    void everyPresetIsRegistered() {
        assertThat(Presets.all()).extracting(Preset::id)
                .contains("mcclure-fig4-5", "mcclure-fig8", "mcclure-fig9-11", "mcclure-fig10-12");
    }

    @Test
    void failureCasesDegradeTheStatedNumberOfPodCoreLinksInEveryPod() {
        SweepSpec s = spec("mcclure-fig4-5", "paper");
        for (McClureRecoveryPresets.FailureCase f : McClureRecoveryPresets.FAILURES) {
            Scenario sc = s.scenario(run(s, Map.of("failures", f.label(), "load_balancer", "ecmp")));
            Topology topo = sc.topology().build(sc.file());
            int[] perPod = new int[McClureRecoveryPresets.K];
            java.util.Set<Integer> links = new java.util.HashSet<>();
            for (FailureSpec fs : sc.failures()) {
                assertThat(fs.kind()).isEqualTo("degrade");
                assertThat(fs.capacityFraction()).isCloseTo(1 - f.lost(), org.assertj.core.api.Assertions.within(1e-9));
                for (int l : topo.linksMatching(fs.link())) {
                    assertThat(links.add(l)).as("link %s degraded twice", topo.linkName(l)).isTrue();
                    String name = topo.linkName(l);
                    assertThat(name).matches("agg\\d+-core\\d+");
                    int agg = Integer.parseInt(name.substring(3, name.indexOf('-')));
                    perPod[agg / (McClureRecoveryPresets.K / 2)]++;
                }
            }
            for (int pod = 0; pod < perPod.length; pod++) assertThat(perPod[pod]).as("%s pod %d", f.label(), pod).isEqualTo(f.links());
        }
        // the 'none' case has no failures; the paper says 3 x 90 % is insufficient, Eq. 2 read with lost bandwidth agrees
        assertThat(s.scenario(run(s, Map.of("failures", "none", "load_balancer", "ecmp"))).failures()).isEmpty();
        assertThat(McClureRecoveryPresets.FAILURES.get(3).plan(CapacityPlan.Reading.LOST_BANDWIDTH).sufficient()).isFalse();
        assertThat(McClureRecoveryPresets.FAILURES.get(0).plan(CapacityPlan.Reading.LOST_BANDWIDTH).sufficient()).isTrue();
        assertThat(Presets.get("mcclure-fig4-5").deviations()).anyMatch(d -> d.startsWith("Case 3x90") && d.contains("lost-bandwidth reading insufficient"));
        assertThat(CapacityPlan.compute(8, 2, new BigDecimal("0.9"), CapacityPlan.Reading.AS_PRINTED).sufficient()).isTrue();
    }

    @Test
    void subflowCountsAreThePapersEquationOneValues() {
        // McClure §7: 'For dupACK threshold of 3 and one flow per host ... only 11'; threshold 6 'can be halved'
        assertThat(McClureRecoveryPresets.sfCount(1, 3)).isEqualTo(11);
        assertThat(McClureRecoveryPresets.sfCount(1, 6)).isEqualTo(6);
        SweepSpec s = spec("mcclure-fig9-11", "paper");
        Scenario sf = s.scenario(run(s, Map.of("set", "f2-sf3")));
        assertThat(sf.resolved().get("load_balancer").get("count").asInt()).isEqualTo(6);
        assertThat(sf.resolved().get("load_balancer").get("spray").asBoolean()).isTrue();
        assertThat(sf.resolved().get("workload").get("concurrent").asInt()).isEqualTo(2);
        assertThat(sf.resolved().get("transport").get("dupack_threshold").asInt()).isEqualTo(3);
        Scenario roce = s.scenario(run(s, Map.of("set", "f64-roce")));
        assertThat(roce.resolved().get("transport").get("loss_recovery").asString()).isEqualTo("go-back-n");
        assertThat(roce.resolved().get("transport").get("pfc").asBoolean()).isTrue();
        assertThat(roce.resolved().get("workload").get("concurrent").asInt()).isEqualTo(64);
    }

    @Test
    void aSetGridKeyAppliesEachKeyOfItsBundleAndRejectsNonMappings() {
        String base = """
                base:
                  name: small
                  topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
                  workload: {kind: permutation, size_bytes: 20000}
                """;
        SweepSpec s = SweepSpec.parse("s.yaml", base + """
                grid:
                  set:
                    a: {transport.loss_recovery: tcp, load_balancer: {scheme: subflows, count: 3, spray: true}}
                    b: {transport.loss_recovery: trim}
                  topology.spines: [2, 4]
                """, null, List.of());
        assertThat(s.columns()).containsExactly("set", "topology.spines");
        assertThat(s.runs()).hasSize(4);
        Scenario a = s.scenario(s.runs().get(1));
        assertThat(a.resolved().get("transport").get("loss_recovery").asString()).isEqualTo("tcp");
        assertThat(a.resolved().get("load_balancer").get("count").asInt()).isEqualTo(3);
        assertThat(a.resolved().get("topology").get("spines").asInt()).isEqualTo(4);
        assertThat(s.scenario(s.runs().get(2)).resolved().get("transport").get("loss_recovery").asString()).isEqualTo("trim");
        assertThatThrownBy(() -> SweepSpec.parse("s.yaml", base + "grid:\n  set: [1, 2]\n", null, List.of()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("grid.set");
        assertThatThrownBy(() -> SweepSpec.parse("s.yaml", base + "grid:\n  set: {a: 3}\n", null, List.of()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("grid.set");
    }

    @TempDir
    Path tmp;

    @Test
    void fig911RunsEndToEndOnATinyFabricAndPairsSubflowsWithTcpBySeed() throws Exception {
        Preset p = Presets.get("mcclure-fig9-11");
        Reproduce.Outcome o = Reproduce.run(p, "quick", tmp, 2, List.of("topology.k=4", "workload.size_bytes=100000"), Sweep.Listener.NONE);
        List<String> lines = Files.readAllLines(tmp.resolve("results.csv"));
        assertThat(lines).hasSize(1 + 2 * 7 * 2);
        List<String> header = List.of(lines.get(0).split(","));
        int set = header.indexOf("set"), seed = header.indexOf("seed"), cct = header.indexOf("normalised"),
                completed = header.indexOf("completed");
        Map<String, Double> tcp = new java.util.HashMap<>(), sf = new java.util.HashMap<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            assertThat(f[completed]).as(l).isEqualTo("true");
            if (f[set].equals("f1-tcp")) tcp.put(f[seed], Double.parseDouble(f[cct]));
            if (f[set].equals("f1-sf3")) sf.put(f[seed], Double.parseDouble(f[cct]));
        }
        assertThat(tcp.keySet()).containsExactlyInAnyOrder("1", "2");
        double expected = 0;
        for (String k : tcp.keySet()) expected += 100 * (tcp.get(k) - sf.get(k)) / tcp.get(k) / tcp.size();
        assertThat(o.rows()).hasSize(p.cells().size());
        Reproduce.Row row = o.rows().stream().filter(r -> r.cell().name().startsWith("f1: SF (t=3, ")).findFirst().orElseThrow();
        assertThat(row.n()).isEqualTo(2);
        assertThat(row.mean()).isCloseTo(expected, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(row.paper()).isEqualTo(55.0);
        assertThat(Files.readString(tmp.resolve("report.html"))).contains("Fig. 11", "f1: SF (t=3, 11 subflows) vs TCP");
    }
}

package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** McClure et al. presets: the Table 2 acceptance criterion and the new presets' grids. */
class McClurePresetsTest {
    @TempDir
    Path tmp;

    private static final Sweep.Listener QUIET = Sweep.Listener.NONE;

    /**
     * Acceptance (issue text): "For the quick Table 2 cases, every spraying variant beats ECMP on both
     * workloads and ECMP's permutation CCT is several times the ideal, with seeds' spread reported."
     * Runs the quick scale's 32 runs (both workloads, both buffers, 3 spraying variants + ECMP, 2 seeds)
     * with one override, topology.k=4 (16 hosts instead of 128), to stay at a few seconds of CPU; every
     * other setting (erasure, pacing, jitter, buffers, message sizes) is the quick scale's.
     */
    @Test
    void quickTable2SprayingBeatsEcmpEverywhereAndEcmpPermutationIsSeveralTimesIdeal() throws Exception {
        Preset p = Presets.get("mcclure-table2");
        Reproduce.Outcome o = Reproduce.run(p, "quick", tmp, 1, List.of("topology.k=4"), QUIET);
        List<NamedCsvRecord> cmp = read(tmp.resolve("comparison.csv"));
        List<NamedCsvRecord> results = read(tmp.resolve("results.csv"));
        assertThat(results).hasSize(32);
        for (NamedCsvRecord r : results) assertThat(r.getField("completed")).isEqualTo("true");
        Map<String, Double> mean = new HashMap<>();
        for (NamedCsvRecord c : cmp) {
            if (c.getField("cell").contains(":")) continue; // the claims across buffers, not Table 2's values
            // the seeds' spread: 2 seeds, and ours_sd is the sample SD recomputed from results.csv
            assertThat(c.getField("seeds")).isEqualTo("2");
            String[] k = c.getField("cell").split(" ");
            List<Double> xs = new ArrayList<>();
            for (NamedCsvRecord r : results) {
                if (r.getField("workload").equals(k[0]) && r.getField("topology.port_buffer_bytes").equals(k[1])
                        && r.getField("load_balancer.scheme").equals(k[2])) xs.add(Double.parseDouble(r.getField("normalised")));
            }
            assertThat(xs).hasSize(2);
            double m = (xs.get(0) + xs.get(1)) / 2;
            double sd = Math.abs(xs.get(0) - xs.get(1)) / Math.sqrt(2);
            assertThat(c.getField("ours_sd")).isNotEmpty();
            assertThat(Double.parseDouble(c.getField("ours_mean"))).isCloseTo(m, within(1e-4));
            assertThat(Double.parseDouble(c.getField("ours_sd"))).isCloseTo(sd, within(1e-4));
            mean.put(c.getField("cell"), m);
        }
        for (String wl : new String[] {"ata", "perm"}) {
            for (String buf : new String[] {"small", "large"}) {
                double ecmp = mean.get(wl + " " + buf + " ecmp");
                for (String spray : new String[] {"host", "switch", "switch-ar"}) {
                    assertThat(mean.get(wl + " " + buf + " " + spray)).as("%s %s %s vs ECMP", wl, buf, spray).isLessThan(ecmp);
                }
            }
            assertThat(mean.get("perm " + "small ecmp")).as("ECMP permutation, small buffers, x ideal").isGreaterThan(2.5);
            assertThat(mean.get("perm " + "large ecmp")).as("ECMP permutation, large buffers, x ideal").isGreaterThan(2.5);
        }
        assertThat(mean).as("Table 2's values").hasSize(16);
        assertThat(o.rows()).hasSize(p.cells().size());
    }

    @Test
    void newPresetsAreRegisteredWithTheirGrids() {
        assertThat(Presets.all()).extracting(Preset::id).contains("mcclure-table2", "mcclure-fig1-2", "mcclure-fig3", "mcclure-fig6");
        SweepSpec fig3 = Reproduce.spec(Presets.get("mcclure-fig3"), "paper", List.of());
        assertThat(fig3.runs()).hasSize(8 * 10);
        assertThat(fig3.runs().stream().map(r -> r.labels().get(1)).distinct())
                .containsExactly("host", "switch", "switch-ar", "ecmp", "ecmp-ar", "subflows", "flowlet-switch", "flowlet-host");
        SweepSpec fig6 = Reproduce.spec(Presets.get("mcclure-fig6"), "paper", List.of());
        assertThat(fig6.runs().stream().map(r -> r.labels().get(0)).distinct())
                .containsExactly("p1", "p2", "p4", "p8", "p16", "p32", "p64", "p127");
        SweepSpec fig12 = Reproduce.spec(Presets.get("mcclure-fig1-2"), "quick", List.of());
        assertThat(fig12.runs()).hasSize(3 * 2 * 2);
        // McClure §4: start jitter up to one inter-packet time at the fair share (127 flows of 4160-byte packets at 100 Gbps)
        assertThat(McClurePresets.interPacketNs(127)).isEqualTo(42266);
        assertThat(McClurePresets.interPacketNs(1)).isEqualTo(333);
    }

    /** Figs. 1-2 end to end on a 16-host fabric: the worst flow's loss lands in results.csv and grows with the rate. */
    @Test
    void fig12ReportsTheWorstFlowsLossPerRate() throws Exception {
        Reproduce.run(Presets.get("mcclure-fig1-2"), "quick", tmp, 1,
                List.of("topology.k=4", "workload.size_bytes=1024000"), QUIET);
        List<NamedCsvRecord> results = read(tmp.resolve("results.csv"));
        assertThat(results).hasSize(12);
        Map<String, Double> loss = new HashMap<>();
        for (NamedCsvRecord r : results) {
            assertThat(r.getField("completed")).isEqualTo("true");
            double f = Double.parseDouble(r.getField("flows.max_loss_fraction"));
            assertThat(f).isBetween(0.0, 1.0);
            assertThat(Long.parseLong(r.getField("flows.max_lost_packets"))).isLessThanOrEqualTo(Long.parseLong(r.getField("packets.dropped")));
            loss.merge(r.getField("load_balancer.scheme") + " " + r.getField("transport.rate_coefficient"), f, Double::sum);
        }
        // pacing below the fair share leaves less to lose than pacing at it
        assertThat(loss.get("host 0.5")).isLessThan(loss.get("host 1.0"));
        assertThat(loss.get("ecmp 0.5")).isLessThan(loss.get("ecmp 1.0"));
    }

    /**
     * §3.1's Swift comparison end to end on a 16-host fabric: every transport bundle runs as named (Swift with ideal
     * recovery never retransmits, Swift with TCP recovery does under spraying), and every cell gets a number.
     */
    @Test
    void swiftPresetRunsTheStatedSetUpAndComputesItsRatios() throws Exception {
        Preset p = Presets.get("mcclure-swift");
        assertThat(Reproduce.spec(p, "paper", List.of()).runs()).hasSize(3 * 2 * 2 * 10);
        assertThat(p.scales().get("paper")).contains("k: 8", "port_buffer_bytes: 32768", "size_bytes: " + 128 * 2_000_000L);
        // 16 hosts, 64 KB per pair
        Reproduce.run(p, "quick", tmp, 1, List.of("topology.k=4", "workload.size_bytes=" + 16 * 65536), QUIET);
        List<NamedCsvRecord> results = read(tmp.resolve("results.csv"));
        assertThat(results).hasSize(24);
        for (NamedCsvRecord r : results) {
            assertThat(r.getField("completed")).isEqualTo("true");
            if (!r.getField("set").equals("swift-tcp")) assertThat(r.getField("packets.retransmitted")).isEqualTo("0");
        }
        assertThat(results).anySatisfy(r -> {
            assertThat(r.getField("set")).isEqualTo("swift-tcp");
            assertThat(r.getField("load_balancer.scheme")).isEqualTo("host");
            assertThat(Long.parseLong(r.getField("packets.retransmitted"))).isPositive();
        });
        List<NamedCsvRecord> cmp = read(tmp.resolve("comparison.csv"));
        assertThat(cmp).hasSize(3);
        for (NamedCsvRecord c : cmp) {
            assertThat(c.getField("verdict")).isNotEqualTo("not-run");
            assertThat(Double.parseDouble(c.getField("ours_mean"))).isFinite();
        }
    }

    private static List<NamedCsvRecord> read(Path f) throws Exception {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(f)) {
            return r.stream().toList();
        }
    }
}

package lbsim.cli;

import static lbsim.cli.RunCommandTest.exec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.cli.RunCommandTest.Outcome;
import lbsim.experiment.Scenarios;
import lbsim.metrics.CollectiveResult;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.metrics.UplinkLoad;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CTCCL (paper 003) §4 reproductions: the acceptance checks of DNLB on the §4.1 testbed shape (2 leaves x 8
 * uplinks, 8 servers x 2 NICs, two concurrent jobs on the same NICs) with small messages, the summary
 * fields they use, and one preset end to end.
 */
class CtcclReproduceTest {
    @TempDir
    Path tmp;

    /** §4.1 testbed with 8 logical spines; two ring all-reduce jobs over all 16 NICs in rail order. */
    static String testbed(String lb, long size, String extra) {
        return """
                name: ctccl-testbed
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 8, link_gbps: 400}
                transport: {cc: dcqcn, loss_recovery: go-back-n, pfc: true, timeout_us: 1000}
                load_balancer: %s
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: %d, jobs: 2, job_hosts: shared,
                           placement: rail, nics_per_server: 2, ranks: 16}
                """.formatted(lb, size) + extra;
    }

    static final String DNLB = "{scheme: dnlb, qps: 8}";
    static final String NCCL_ECMP = "{scheme: mprdma, splits: 8, qp_ports: per-connection}";

    @Test
    void dnlbUplinkVarianceIsNearZeroAndFarBelowEcmpOverRandomSeeds() {
        // Eq. 4: 8 NICs per leaf x 8 QPs >= 8 uplinks
        List<Double> ecmp = new ArrayList<>();
        for (int seed = 1; seed <= 3; seed++) {
            RunResult d = Scenarios.run(testbed(DNLB, 2 << 20, ""), "seed=" + seed);
            RunResult e = Scenarios.run(testbed(NCCL_ECMP, 2 << 20, ""), "seed=" + seed);
            Scenarios.assertConserved(d);
            Scenarios.assertConserved(e);
            assertThat(d.warnings()).noneMatch(w -> w.contains("Eq. 4"));
            assertThat(d.uplinks().links()).isEqualTo(16);
            assertThat(d.uplinks().variancePct2()).as("seed %d dnlb", seed).isLessThan(0.05);
            ecmp.add(e.uplinks().variancePct2());
            assertThat(e.uplinks().variancePct2()).as("seed %d ecmp", seed).isGreaterThan(100 * Math.max(0.01, d.uplinks().variancePct2()));
        }
        assertThat(ecmp.stream().mapToDouble(Double::doubleValue).min().orElseThrow()).isGreaterThan(1.0);
    }

    @Test
    void uplinkVarianceAndCollectiveMeansAreWhatTheRowsSay() {
        RunResult r = Scenarios.run(testbed(NCCL_ECMP, 2 << 20, ""), "seed=3");
        // per-leaf population variance of 100 x utilisation, recomputed from links.csv rows, averaged over the leaves
        double end = r.simTimeNs() * 1e-9;
        double var = 0;
        for (String leaf : List.of("leaf0", "leaf1")) {
            List<Double> u = new ArrayList<>();
            for (LinkRecord l : r.links()) {
                if (l.from().equals(leaf) && l.to().startsWith("spine")) u.add(100 * l.bytes() * 8.0 / (l.gbps() * 1e9 * end));
            }
            assertThat(u).hasSize(8);
            double m = u.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            var += u.stream().mapToDouble(x -> (x - m) * (x - m)).sum() / u.size() / 2;
        }
        assertThat(r.uplinks().variancePct2()).isCloseTo(var, within(1e-6 * Math.max(1, var)));
        assertThat(Double.isNaN(r.uplinks().varianceAfterFailurePct2())).isTrue();
        // collectives_mean: the mean over the two jobs of the per-job list
        @SuppressWarnings("unchecked")
        Map<String, Object> mean = (Map<String, Object>) ResultWriter.summary(r).get("collectives_mean");
        assertThat(r.collectives()).hasSize(2);
        double bus = r.collectives().stream().mapToDouble(CollectiveResult::busbwGbps).average().orElseThrow();
        assertThat((Double) mean.get("busbw_gbps")).isCloseTo(bus, within(1e-3));
        assertThat(mean.get("jobs")).isEqualTo(2);
        @SuppressWarnings("unchecked")
        Map<String, Object> up = (Map<String, Object>) ResultWriter.summary(r).get("uplinks");
        assertThat(up).containsKeys("variance_pct2", "variance_after_failure_pct2", "min_after_failure", "max_after_failure");
    }

    @Test
    void sharedJobsRunOnTheSameNicsAsTwoGroups() {
        RunResult r = Scenarios.run(testbed(DNLB, 1 << 20, ""));
        Scenarios.assertConserved(r);
        Map<Integer, java.util.Set<Integer>> hostsByGroup = new HashMap<>();
        for (FlowRecord f : r.flows()) {
            hostsByGroup.computeIfAbsent(f.group(), k -> new java.util.TreeSet<>()).add(f.src());
        }
        assertThat(hostsByGroup).hasSize(2);
        for (var hosts : hostsByGroup.values()) assertThat(hosts).hasSize(16);
        assertThat(r.collectives()).extracting(CollectiveResult::ranks).containsExactly(16, 16);
    }

    @Test
    void nicQpsKeepTheirPortForTheConnectionUnderPerConnectionPorts() {
        // with persistent QPs, every leaf uplink's byte count is a sum over whole connections' QPs, so the ECMP
        // imbalance does not average out over the pipeline pieces; with a fresh port per QP it does
        RunResult fixed = Scenarios.run(testbed(NCCL_ECMP, 2 << 20, ""), "seed=2");
        RunResult fresh = Scenarios.run(testbed("{scheme: mprdma, splits: 8}", 2 << 20, ""), "seed=2");
        assertThat(fixed.uplinks().variancePct2()).isGreaterThan(fresh.uplinks().variancePct2());
    }

    @Test
    void afterOneUplinkFailsDnlbKeepsTheRemainingUplinksBalancedAndLosesNoData() {
        // the QPs that stop completing time out (200 us) before the switches detect the failure (1 ms later)
        String fail = "failures: [{at_us: 300, link: leaf0-spine0, kind: down, detect_ms: 1}]\n";
        RunResult r = Scenarios.run(testbed(DNLB, 16 << 20, fail), "transport.timeout_us=200");
        Scenarios.assertConserved(r);      // every flow delivered, sent = delivered + dropped
        assertThat(r.packetsDropped()).isPositive();   // packets were lost on the dead link ...
        assertThat(r.timeouts()).isPositive();         // the stalled QPs timed out; their data moved to healthy QPs
        UplinkLoad u = r.uplinks();
        assertThat(u.down()).isEqualTo(1);
        assertThat(u.meanAfterFailure()).isGreaterThan(0.5);
        // ... and the failed leaf's 7 remaining uplinks carry equal load after the failure
        assertThat(u.maxAfterFailure() - u.minAfterFailure()).isLessThan(0.01 * u.meanAfterFailure());
        assertThat(u.varianceAfterFailurePct2()).isLessThan(0.05);
        assertThat(u.varianceBeforeFailurePct2()).isLessThan(0.05);
    }

    @Test
    void ctcclFig6RunsEndToEndShrunkAndComparesWithThePaper() throws Exception {
        Path out = tmp.resolve("fig6");
        Outcome o = exec("reproduce", "ctccl-fig6", "--out", out.toString(), "--jobs", "2",
                "--set", "workload.size_bytes=262144");
        assertThat(o.code()).as(o.err()).isZero();
        List<NamedCsvRecord> results = read(out.resolve("results.csv"));
        assertThat(results).hasSize(4 * 2 * 2);
        List<NamedCsvRecord> cmp = read(out.resolve("comparison.csv"));
        assertThat(cmp).hasSize(3);
        assertThat(cmp.get(0).getField("paper")).isEqualTo("128.8000");
        assertThat(cmp.get(1).getField("paper")).isEqualTo("180.8000");
        double sum = 0;
        int n = 0;
        for (NamedCsvRecord r : results) {
            if (r.getField("workload.size_bytes").equals("largest") && r.getField("load_balancer").equals("ctccl-dnlb")) {
                sum += Double.parseDouble(r.getField("collectives_mean.busbw_gbps"));
                n++;
            }
        }
        assertThat(n).isEqualTo(2);
        assertThat(Double.parseDouble(cmp.get(1).getField("ours_mean"))).isCloseTo(sum / n, within(1e-3));
        assertThat(results.get(0).getFields()).isNotEmpty();
        assertThat(read(out.resolve("results.csv")).get(0).getField("uplinks.variance_pct2")).isNotEmpty();
    }

    private static List<NamedCsvRecord> read(Path f) throws Exception {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(f)) {
            return r.stream().toList();
        }
    }
}

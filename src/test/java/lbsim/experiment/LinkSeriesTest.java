package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import lbsim.BadInputException;
import lbsim.engine.Simulation;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.LinkSeries;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** metrics.series: per-link utilisation, queue, PFC and ECN over time (link_series.csv). */
class LinkSeriesTest {
    private static final String README_FAILURE = "failures: [{at_us: 50, link: \"leaf0-spine1\", kind: down, detect_ms: 100}]\n";

    /**
     * The README's failure: the dead link carries the flow until 50 us, then only the trickle of
     * timed-out packets its switch still sends into it (lost) until detection, then nothing.
     */
    @Test
    void aDeadLinksUtilisationDropsToZero() {
        long seed = FailureTest.seedThroughSpine1();
        RunResult r = Scenarios.run(FailureTest.scenario(seed) + README_FAILURE + "nic: {retry_count: 0}\n"
                + "metrics: {series: {links: \"leaf0-spine1\", interval_us: 10}}\n");
        LinkSeries s = r.linkSeries();
        assertThat(s.links()).isEqualTo(2);
        int up = index(s, "leaf0->spine1");
        long failPs = 50 * Simulation.PS_PER_US, detectPs = failPs + 100 * Simulation.PS_PER_MS;
        double before = 0;
        for (int k = 0; k < s.intervals(); k++) {
            long end = s.endPs(k), start = end - s.lengthPs(k);
            double u = s.utilisation(k, up);
            if (end <= failPs) before = Math.max(before, u);
            // a dead link carries nothing, not even the rest of the packet in serialisation at the failure (0.029 in
            // the failure's interval when the series counted what the port serialised), although until detection its
            // switch still sends into it (lost there)
            else if (start >= failPs) assertThat(u).as("after the failure, interval ending %d ps", end).isZero();
        }
        assertThat(before).as("carries the flow before the failure").isGreaterThan(0.5);
        assertThat(r.links().stream().filter(l -> l.linkId().equals("leaf0->spine1")).mapToLong(l -> l.drops()).sum())
                .as("packets were sent into the dead link before detection").isPositive();
        assertThat(s.endPs(s.intervals() - 1)).isGreaterThan(detectPs);
    }

    /**
     * CNPs are packets from the receiver back to the sender: per interval, summed over the hosts' uplinks,
     * they are every CNP the receivers sent (summary.json cnps), and over the hosts' downlinks every one
     * that arrived (all of them: nothing is lost here); a congestion control without CNPs sends none.
     */
    @Test
    void cnpsPerIntervalSumToTheRunsCnps() {
        String sc = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
                transport: {cc: dcqcn, pfc: true}
                workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 2097152}
                metrics: {series: {links: "h*", interval_us: 2, max_rows: 400}}
                """;
        RunResult r = Scenarios.run(sc);
        Scenarios.assertConserved(r);
        LinkSeries s = r.linkSeries();
        long up = 0, down = 0;
        for (int i = 0; i < s.links(); i++) {
            for (int k = 0; k < s.intervals(); k++) {
                if (s.linkId(i).startsWith("h")) up += s.cnps(k, i);
                else down += s.cnps(k, i);
            }
        }
        assertThat(r.cnps()).as("dcqcn receivers sent CNPs").isPositive();
        assertThat(up).as("CNPs on the host uplinks").isEqualTo(r.cnps());
        assertThat(down).as("CNPs on the host downlinks").isEqualTo(r.cnps());
        assertThat((long) s.intervals() * s.links()).as("merged to fit max_rows").isLessThanOrEqualTo(400);

        RunResult dctcp = Scenarios.run(sc, "transport.cc=dctcp");
        assertThat(dctcp.cnps()).isZero();
        assertThat(dctcp.ecnMarked()).as("marks, but no CNPs").isPositive();
        for (int i = 0; i < dctcp.linkSeries().links(); i++) {
            for (int k = 0; k < dctcp.linkSeries().intervals(); k++) assertThat(dctcp.linkSeries().cnps(k, i)).isZero();
        }
    }

    /** Conservation: the series integrated over time is the bytes links.csv counts, link by link; merges keep it. */
    @Test
    void theSeriesSumsToLinksCsvBytes() {
        String sc = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
                transport: {cc: dctcp, pfc: true}
                workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 524288}
                """;
        RunResult plain = Scenarios.run(sc);
        for (String series : new String[] {"{links: \"*\", interval_us: 1}", "{links: \"leaf*-spine*\", interval_us: 0.05, max_rows: 600}"}) {
            RunResult r = Scenarios.run(sc + "metrics: {series: " + series + "}\n");
            assertThat(summaryWithoutWall(r)).as("the series only observes").isEqualTo(summaryWithoutWall(plain));
            LinkSeries s = r.linkSeries();
            if (series.contains("max_rows")) assertThat((long) s.intervals() * s.links()).isLessThanOrEqualTo(600);
            int matched = 0;
            for (LinkRecord l : r.links()) {
                int i = indexOrNeg(s, l.linkId());
                if (i < 0) continue;
                matched++;
                long sum = 0;
                double integrated = 0;
                for (int k = 0; k < s.intervals(); k++) {
                    sum += s.bytes(k, i);
                    integrated += s.utilisation(k, i) * l.gbps() * 1e9 * s.lengthPs(k) / Simulation.PS_PER_S / 8;
                    assertThat(s.utilisation(k, i)).as("%s interval %d", l.linkId(), k).isBetween(0.0, 1.0 + 1e-9);
                }
                assertThat(sum).as(l.linkId()).isEqualTo(l.bytes());
                assertThat(integrated).as(l.linkId()).isCloseTo(l.bytes(), org.assertj.core.data.Offset.offset(1e-6 * l.bytes() + 1e-6));
            }
            assertThat(matched).isEqualTo(s.links()).isPositive();
        }
    }

    /**
     * Memory is bounded by max_rows however long the run: a series sampled every 10 ns over a run
     * thousands of intervals long keeps at most max_rows rows (the interval doubles instead), and
     * its arrays hold no more than that.
     */
    @Test
    void aLongSeriesStaysWithinMaxRows() {
        RunResult r = Scenarios.run(FailureTest.scenario(1) + "metrics: {series: {links: \"leaf0-spine*\", interval_us: 0.01, max_rows: 300}}\n");
        LinkSeries s = r.linkSeries();
        long endPs = s.endPs(s.intervals() - 1);
        assertThat(endPs / (10 * Simulation.PS_PER_NS)).as("the run spans far more 10 ns steps than rows").isGreaterThan(5_000);
        assertThat((long) s.intervals() * s.links()).isLessThanOrEqualTo(300);
        assertThat(s.capacityRows()).isLessThanOrEqualTo(300 + s.links());
        long doubled = s.intervalPs() / (10 * Simulation.PS_PER_NS);
        assertThat(Long.bitCount(doubled)).as("interval %d ps: 10 ns x a power of two", s.intervalPs()).isEqualTo(1);
        assertThat(s.intervals()).as("still covers the run").isGreaterThan(300 / s.links() / 2 - 2);
    }

    @Test
    void badSeriesValuesAreRefusedNamingTheKey() {
        String base = FailureTest.scenario(1);
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {links: \"core*\", interval_us: 10}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("metrics.series.links").hasMessageContaining("core*")
                .hasMessageContaining("matches no link");
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {links: \"*\", interval_us: 0}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("metrics.series.interval_us");
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {links: \"*\", interval_us: -5}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("metrics.series.interval_us");
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {interval_us: 5}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("metrics.series.links");
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {links: \"*\", every: 5}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("every");
        assertThatThrownBy(() -> Scenarios.run(base + "metrics: {series: {links: \"*\", max_rows: 10}}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("metrics.series.max_rows");
    }

    @Test
    void offByDefault() {
        assertThat(Scenarios.run(FailureTest.scenario(1)).linkSeries()).isNull();
    }

    private static Map<String, Object> summaryWithoutWall(RunResult r) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(ResultWriter.summary(r));
        m.remove("wall_ms");
        m.remove("scenario_sha256");   // the series is part of the scenario, so its hash differs by design
        return m;
    }

    private static int index(LinkSeries s, String linkId) {
        int i = indexOrNeg(s, linkId);
        assertThat(i).as(linkId).isNotNegative();
        return i;
    }

    private static int indexOrNeg(LinkSeries s, String linkId) {
        for (int i = 0; i < s.links(); i++) if (s.linkId(i).equals(linkId)) return i;
        return -1;
    }
}

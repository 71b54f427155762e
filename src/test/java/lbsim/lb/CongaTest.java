package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** CONGA: the DRE against its closed form, and congestion-aware placement on an asymmetric fabric. */
class CongaTest {
    /**
     * 2 leaves x 2 spines, the leaf1-spine1 link at 10 Gbps (both directions), so every path via
     * spine1 is slow. A permutation of 1 MB flows (h_i <-> h_i+4) started 100 us apart, so later
     * flowlets find earlier flows' congestion in the DREs and the fed-back metrics.
     */
    static String asymmetric(long seed) {
        StringBuilder flows = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            if (i > 0) flows.append(", ");
            flows.append("{src: %d, dst: %d, size_bytes: 1000000, start_ns: %d}, ".formatted(i, i + 4, i * 200_000));
            flows.append("{src: %d, dst: %d, size_bytes: 1000000, start_ns: %d}".formatted(i + 4, i, i * 200_000 + 100_000));
        }
        return """
                seed: %d
                max_time_ms: 100
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000,
                           link_overrides: [{links: "leaf1-spine1", gbps: 10}]}
                workload: {kind: flows, flows: [%s]}
                """.formatted(seed, flows);
    }

    private static long slowPathBytes(RunResult r) {
        return Scenarios.bytes(r, "spine1", "leaf1") + Scenarios.bytes(r, "leaf1", "spine1");
    }

    @Test
    void dreSettlesAtRateTimesTauAndQuantisesFullRateToTheTopLevels() {
        long stepPs = 50_000_000; // 50 us
        double alpha = 0.2;
        Conga.Dre dre = new Conga.Dre(1, stepPs, alpha);
        long rate = 100_000_000_000L;
        int pkt = 4160;
        long gapPs = pkt * 8_000_000_000_000L / rate; // back to back at line rate
        long t = 0;
        for (; t < 2_000_000_000L; t += gapPs) dre.add(0, pkt, t);
        double tauPs = stepPs / alpha;
        double full = rate * tauPs / 8e12; // bytes in tau at line rate: X just before a decay step
        double x = dre.value(0, t);
        assertThat(x).isBetween((1 - alpha) * full - pkt, full + pkt);
        assertThat(Conga.quantise(x, rate, tauPs, 7)).isBetween(6, 7);
        assertThat(Conga.quantise(x, rate * 10, tauPs, 7)).as("same bytes on a 10x faster link").isLessThanOrEqualTo(1);
        // idle: one step multiplies by 1 - alpha exactly, a long silence empties the register
        double before = dre.value(0, (t / stepPs + 1) * stepPs);
        assertThat(dre.value(0, (t / stepPs + 2) * stepPs)).isCloseTo(before * (1 - alpha), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(dre.value(0, t + 2000 * stepPs)).isZero();
    }

    @Test
    void congaAvoidsTheSlowSpineAndBeatsEcmpOnAnAsymmetricFabric() {
        long ecmpSlow = 0, congaSlow = 0, localOnlySlow = 0;
        double ecmpCct = 0, congaCct = 0;
        // the first flow in each direction finds no congestion anywhere and picks at random; later ones see it
        for (long seed = 1; seed <= 6; seed++) {
            RunResult ecmp = Scenarios.run(asymmetric(seed), "load_balancer.scheme=ecmp");
            RunResult conga = Scenarios.run(asymmetric(seed), "load_balancer.scheme=conga");
            Scenarios.assertConserved(ecmp);
            Scenarios.assertConserved(conga);
            // age_us 0: every remote metric is stale at once, so only the local DREs steer
            RunResult localOnly = Scenarios.run(asymmetric(seed), "load_balancer.scheme=conga", "load_balancer.age_us=0");
            Scenarios.assertConserved(localOnly);
            localOnlySlow += slowPathBytes(localOnly);
            ecmpSlow += slowPathBytes(ecmp);
            congaSlow += slowPathBytes(conga);
            ecmpCct += ecmp.lastFinishNs();
            congaCct += conga.lastFinishNs();
            System.out.printf("seed %d: slow-path bytes ecmp %d conga %d local-only %d, completion ecmp %.1f us conga %.1f us "
                    + "local-only %.1f us%n", seed, slowPathBytes(ecmp), slowPathBytes(conga), slowPathBytes(localOnly),
                    ecmp.lastFinishNs() / 1e3, conga.lastFinishNs() / 1e3, localOnly.lastFinishNs() / 1e3);
        }
        assertThat((double) congaSlow).as("bytes over the slow spine").isLessThan(0.5 * ecmpSlow);
        // leaf0's uplink to spine1 is fast: only the fed-back metric shows that spine1 -> leaf1 is slow
        assertThat((double) congaSlow).as("feedback matters").isLessThan(0.7 * localOnlySlow);
        assertThat(congaCct).as("completion time").isLessThan(0.8 * ecmpCct);
    }

    /**
     * One-way traffic leaf0 -> leaf1 on the asymmetric fabric: no data flows back, so the slow spine1 -> leaf1
     * hop can reach leaf0 only as feedback on ACKs. With {@code feedback: data} (ConWeave's ns-3 model) leaf0
     * never learns it and places flows like a local-only CONGA; with every packet carrying feedback it does better.
     */
    @Test
    void withFeedbackOnDataPacketsOnlyOneWayTrafficGetsNoRemoteMetrics() {
        long all = 0, dataOnly = 0, localOnly = 0;
        double allCct = 0, dataCct = 0;
        for (long seed = 1; seed <= 4; seed++) {
            String oneWay = asymmetric(seed).replaceAll(", \\{src: [4-7], dst: [0-3][^}]*}", "");
            assertThat(oneWay).doesNotContain("src: 4");
            RunResult a = Scenarios.run(oneWay, "load_balancer.scheme=conga");
            RunResult d = Scenarios.run(oneWay, "load_balancer.scheme=conga", "load_balancer.feedback=data");
            RunResult l = Scenarios.run(oneWay, "load_balancer.scheme=conga", "load_balancer.age_us=0");
            Scenarios.assertConserved(a);
            Scenarios.assertConserved(d);
            all += slowPathBytes(a);
            dataOnly += slowPathBytes(d);
            allCct += a.lastFinishNs();
            dataCct += d.lastFinishNs();
            localOnly += slowPathBytes(l);
        }
        assertThat((double) dataOnly).as("without ACK feedback, as blind as local-only CONGA")
                .isCloseTo(localOnly, org.assertj.core.data.Percentage.withPercentage(5));
        assertThat(all).as("with it, less over the slow spine").isLessThan(dataOnly);
        assertThat(allCct).as("and sooner done").isLessThan(0.8 * dataCct);
    }

    @Test
    void congaCompletesOnAFatTreeWithEcmpAboveTheTors() {
        RunResult r = Scenarios.run("""
                topology: {kind: fat-tree, k: 4, link_gbps: 100}
                workload: {kind: permutation, size_bytes: 200000}
                """, "load_balancer.scheme=conga");
        Scenarios.assertConserved(r);
    }
    /**
     * One-way single-packet flows leaf0 -> leaf1 over 8 spines, 10 us apart: every DRE stays at 0 and no metric is fed
     * back (feedback: data), so every uplink ties and the choice is the tie-break alone. Over all 8 uplinks that is
     * uniform; with sample_paths 4 (ConWeave's ns-3 CONGA) a window of 4 consecutive uplinks from a uniform start among
     * the 5 windows, so uplink i is chosen with probability (windows holding i) / 5 / 4 = 1, 2, 3, 4, 4, 3, 2, 1 / 20.
     */
    @Test
    void samplingFourConsecutivePathsFavoursTheMiddleUplinksAsTheWindowCountPredicts() {
        int flows = 4000;
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < flows; i++) {
            list.append(i > 0 ? ", " : "").append("{src: %d, dst: %d, size_bytes: 500, start_ns: %d}".formatted(i % 4, 4 + i % 4, i * 10_000L));
        }
        String sc = """
                seed: 3
                topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 4, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: flows, flows: [%s]}
                """.formatted(list);
        double[] windows = {1, 2, 3, 4, 4, 3, 2, 1};
        for (int sample : new int[] {0, 4}) {
            RunResult r = sample == 0
                    ? Scenarios.run(sc, "load_balancer.scheme=conga", "load_balancer.feedback=data")
                    : Scenarios.run(sc, "load_balancer.scheme=conga", "load_balancer.feedback=data", "load_balancer.sample_paths=4");
            Scenarios.assertConserved(r);
            long total = 0;
            long[] bytes = new long[8];
            for (int s = 0; s < 8; s++) total += bytes[s] = Scenarios.bytes(r, "leaf0", "spine" + s);
            for (int s = 0; s < 8; s++) {
                double expected = sample == 0 ? 1.0 / 8 : windows[s] / 20;
                // 4000 draws: the share's standard error is at most 0.8 % of the total; allow about 4 of them
                assertThat((double) bytes[s] / total).as("sample_paths %d, uplink to spine%d", sample, s)
                        .isCloseTo(expected, org.assertj.core.data.Offset.offset(0.03));
            }
        }
    }
}

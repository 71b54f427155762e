package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import lbsim.experiment.Sweep;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkClassRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hopper presets (paper 004 §4): the asymmetric-testbed acceptance property (Hopper uses the 1G
 * uplinks less than FlowBender, §4.2.2), the round workload's structure, and the open-loop preset end
 * to end on a tiny fabric.
 */
class HopperPresetsTest {
    @TempDir
    Path tmp;

    /** The §4.2 fabric and the preset's testbed transport, 2 rounds of 4 MB per sender in 1 MB chunks (32 flows). */
    private static String testbed(String scheme, long seed) {
        return "name: hopper-testbed\nseed: " + seed + "\ntopology: " + HopperPresets.ASYMMETRIC_FABRIC + "\n"
                + "transport: " + HopperPresets.TESTBED_TRANSPORT + "\n"
                + "load_balancer: " + scheme + "\n"
                + "workload: " + HopperPresets.roundsWorkload(4, 2, 4_000_000, 1_000_000) + "\n";
    }

    private static LinkClassRecord linkClass(RunResult r, String linkClass) {
        for (LinkClassRecord c : r.linkClasses()) if (c.linkClass().equals(linkClass)) return c;
        throw new AssertionError("no class " + linkClass + " in " + r.linkClasses());
    }

    /** The 1G links' share of the leaf->spine bytes: utilisation x rate x links, over both classes. */
    private static double oneGigByteShare(RunResult r) {
        LinkClassRecord one = linkClass(r, "leaf->spine 1G"), ten = linkClass(r, "leaf->spine 10G");
        double b1 = one.meanUtilisation() * 1 * one.links(), b10 = ten.meanUtilisation() * 10 * ten.links();
        return b1 / (b1 + b10);
    }

    /**
     * §4.2.2: Hopper uses the 1G links less than FlowBender. Read as the share of the leaf->spine bytes
     * on them: the mean 1G utilisation over the run time stopped holding once DCQCN cut as the ns-3 code
     * does (2026-11-25: Hopper 0.354 against FlowBender 0.337 here, mean of seeds 1-3), because Hopper's
     * runs end about 4 x sooner (docs/experiments.md, Hopper Fig. 6).
     */
    @Test
    void onTheAsymmetricFabricHopperPutsLessOfItsBytesOnTheOneGigLinksThanFlowBender() {
        for (long seed : new long[] {1, 2, 3}) {
            RunResult h = Scenarios.run(testbed(HopperPresets.FIG6_HOPPER, seed));
            RunResult fb = Scenarios.run(testbed(HopperPresets.FIG6_FLOWBENDER, seed));
            Scenarios.assertConserved(h);
            Scenarios.assertConserved(fb);
            assertThat(oneGigByteShare(h)).as("seed %d: 1G share of leaf->spine bytes, Hopper vs FlowBender", seed)
                    .isLessThan(oneGigByteShare(fb));
        }
    }

    @Test
    void roundsAreChunkChainsBehindABarrier() {
        RunResult r = Scenarios.run(testbed("{scheme: ecmp}", 1));
        Scenarios.assertConserved(r);
        List<FlowRecord> f = r.flows();
        assertThat(f).hasSize(2 * 4 * 4);
        long bytes = 0;
        for (FlowRecord x : f) {
            bytes += x.sizeBytes();
            assertThat(x.src()).isLessThan(4);
            assertThat(x.dst()).isEqualTo(x.src() + 4);
        }
        assertThat(bytes).isEqualTo(2L * 4 * 4_000_000);
        // flows 0..15 are round 1 (4 chunks per sender), 16..31 round 2
        double round1End = 0;
        for (int i = 0; i < 16; i++) round1End = Math.max(round1End, f.get(i).finishNs());
        for (int i = 16; i < 32; i++) assertThat(f.get(i).startNs()).isGreaterThanOrEqualTo(round1End);
        for (int i = 1; i < 4; i++) assertThat(f.get(i).startNs()).as("chunk %d after chunk %d", i, i - 1)
                .isGreaterThanOrEqualTo(f.get(i - 1).finishNs());
        // uneven sizes: the last chunk carries the remainder
        String yaml = HopperPresets.roundsWorkload(1, 1, 2_500_000, 1_000_000);
        assertThat(yaml).contains("size_bytes: 500000").doesNotContain("after: [1, ");
        assertThat(HopperPresets.GPT3_ROUND_BYTES).isEqualTo(48L << 20);
    }

    /**
     * conweave-ns3 run.py turns its network load into a per-NIC load by dividing by the fabric's oversubscription
     * (hostload = netload / OS) before traffic_gen.py offers it; the §4.1 presets must offer each NIC its grid label
     * divided by the oversubscription of the fabric they run on, and run the ns-3 base's packets, buffer and IRN.
     */
    @Test
    void openLoopPresetsOfferTheNetworkLoadPerNicAsConWeavesRunPyDoes() {
        for (String id : List.of("hopper-fig3", "hopper-fig4", "hopper-fig8")) {
            for (String scale : Preset.SCALES) {
                lbsim.experiment.SweepSpec spec = Reproduce.spec(Presets.get(id), scale, List.of());
                assertThat(spec.runs()).isNotEmpty();
                for (lbsim.experiment.SweepSpec.Run r : spec.runs()) {
                    lbsim.experiment.Scenario sc = spec.scenario(r);
                    lbsim.experiment.TopologySpec t = sc.topology();
                    double host = t.hostLinkGbps() > 0 ? t.hostLinkGbps() : t.linkGbps();
                    double up = t.uplinkGbps() > 0 ? t.uplinkGbps() : t.linkGbps();
                    double oversubscription = t.hostsPerLeaf() * host / (t.spines() * up);
                    double network = Double.parseDouble(r.labels().get(0).replace("%", "")) / 100;
                    double nicLoad = sc.resolved().path("workload").path("load").asDouble();
                    assertThat(nicLoad * oversubscription).as(id + " " + scale + " " + r.key())
                            .isCloseTo(network, org.assertj.core.api.Assertions.within(1e-9));
                    assertThat(t.mtuBytes()).isEqualTo(1000);
                    assertThat(t.switchBufferBytes()).isEqualTo(9L << 20);
                    assertThat(sc.resolved().path("transport").path("irn_nack").asText()).isEqualTo("beyond-window");
                    assertThat(sc.resolved().path("transport").path("dcqcn_params").asText()).isEqualTo("conweave");
                }
            }
        }
    }

    @Test
    void fig8RunsEndToEndOnATinyFabricAndReadsUpToAsTheLargestBinOnTheP99Fields() throws Exception {
        Path out = tmp.resolve("h8");
        Preset p = Presets.get("hopper-fig8");
        List<String> sets = List.of("topology.leaves=2", "topology.spines=2", "topology.hosts_per_leaf=2", "workload.duration_us=40");
        Reproduce.Outcome o = Reproduce.run(p, "quick", out, 2, sets, Sweep.Listener.NONE);
        assertThat(Files.readString(out.resolve("results.csv")).lines()).hasSize(1 + 2 * 5 * 3);
        Reproduce.Row p99 = o.rows().stream().filter(r -> r.cell().name().equals("p99 50%: Hopper vs CONGA")).findFirst().orElseThrow();
        // "up to": recompute the paired improvement per size bin from the runs' summaries on each bin's p99 field, and
        // take the bin with the largest mean over seeds (bins without flows at some seed are not points of the figure)
        SweepSpecView v = new SweepSpecView(out);
        double best = Double.NEGATIVE_INFINITY;
        String bestField = null;
        for (String field : HopperPresets.bins("p99")) {
            double sum = 0;
            boolean all = true;
            for (long seed : new long[] {1, 2, 3}) {
                double h = v.value("50%", "hopper", seed, field), c = v.value("50%", "conga", seed, field);
                all &= !Double.isNaN(h) && !Double.isNaN(c);
                sum += 100 * (c - h) / c;
            }
            if (all && sum / 3 > best) {
                best = sum / 3;
                bestField = field;
            }
        }
        assertThat(bestField).as("some bin has flows in every run").isNotNull();
        assertThat(p99.n()).isEqualTo(3);
        assertThat(p99.metric()).isEqualTo(bestField);
        assertThat(p99.mean()).isCloseTo(best, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(p99.note()).contains("[largest at " + bestField + "]");
        assertThat(Files.readString(out.resolve("comparison.csv"))).contains("p99 50%: Hopper vs CONGA", "16.0000");
    }

    /** Reads a finished run's flattened summary by its grid labels. */
    private record SweepSpecView(Path out) {
        double value(String load, String lb, long seed, String field) throws Exception {
            try (var dirs = Files.list(out.resolve("runs"))) {
                Path run = dirs.filter(d -> d.getFileName().toString().startsWith("load=" + load.replace('%', '_') + ",load_balancer=" + lb + ",seed=" + seed + "-"))
                        .findFirst().orElseThrow();
                Map<String, String> f = Sweep.flatten(Sweep.readSummary(run.resolve("summary.json")));
                String x = f.get(field);
                return x == null || x.isEmpty() ? Double.NaN : Double.parseDouble(x);
            }
        }
    }
}

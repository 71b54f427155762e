package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import lbsim.net.Packet;
import lbsim.plan.ParaletPlan;
import lbsim.transport.PathPolicy;
import org.junit.jupiter.api.Test;

/** ParaLet (paper 002): m parallel flowlets on m rate-limited QPs per host, ECMP-hashed. */
class ParaLetTest {
    private static final String FABRIC = """
            name: paralet
            topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            workload: {kind: permutation, size_bytes: 400000}
            load_balancer: {scheme: paralet}
            """;

    private static void assertCompleteAndConserved(RunResult r) {
        Scenarios.assertConserved(r);
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
    }

    @Test
    void withOneQpItTakesTheSamePathsAsEcmpWithTheSamePorts() {
        // 40960 B flowlets (10 MTUs): the 400000 B flow is 98 packets either way, so every link
        // carries the same bytes exactly when every flowlet follows the ECMP path of the port.
        Scenario pl = Scenarios.parse(FABRIC, "load_balancer.m=1", "load_balancer.flowlet_bytes=40960");
        Scenario paralet = pl;
        Scenario ecmp = withScheme(pl, c -> {
            ParaLet ports = new ParaLet(c.sim(), c.topology(), 1, 40960); // same named streams, same ports
            PathPolicy host = qp -> qp.setSport(ports.slotPort(qp.src(), 0));
            return new Scheme("ecmp", host, sw -> new Ecmp.Hash(c.switchSeed(sw, "ecmp")));
        });
        RunResult a = Runner.run(paralet, Runner.Progress.NONE);
        RunResult b = Runner.run(ecmp, Runner.Progress.NONE);
        assertCompleteAndConserved(a);
        assertCompleteAndConserved(b);
        assertThat(a.flows()).allSatisfy(f -> assertThat(f.qps()).as("flowlets of a flow").isEqualTo(10));
        Map<String, Long> ecmpBytes = new HashMap<>();
        for (LinkRecord l : b.links()) ecmpBytes.put(l.from() + ">" + l.to(), l.bytes());
        long spineBytes = 0;
        for (LinkRecord l : a.links()) {
            assertThat(l.bytes()).as(l.from() + "->" + l.to()).isEqualTo(ecmpBytes.get(l.from() + ">" + l.to()));
            if (l.to().startsWith("spine")) spineBytes += l.bytes();
        }
        assertThat(spineBytes).isPositive();
        assertThat(a.maxQpsPerNic()).isEqualTo(1);
    }

    private static Scenario withScheme(Scenario s, java.util.function.Function<SchemeContext, Scheme> f) {
        return s.withSchemeFactory(f);
    }

    @Test
    void packetsOfAFlowletNeverArriveOutOfOrderAndTheNicHoldsMQps() {
        for (String pfc : List.of("true", "false")) {
            RunResult r = Scenarios.run(FABRIC, "transport.pfc=" + pfc, "workload.concurrent=3");
            assertCompleteAndConserved(r);
            if (pfc.equals("true")) assertThat(r.packetsDropped()).isZero();
            if (r.packetsDropped() == 0) {
                // out_of_order counts per receiver QP, i.e. per flowlet: reordering between flowlets is free
                assertThat(r.outOfOrderPackets()).as("pfc=" + pfc).isZero();
            }
            assertThat(r.maxQpsPerNic()).as("m QPs per NIC, not the flowlets").isEqualTo(32);
            assertThat(r.flows()).allSatisfy(f -> assertThat(f.qps()).isGreaterThan(1));
        }
    }

    @Test
    void flakyLinksWithoutPfcStillCompleteDeterministically() {
        String yaml = """
                name: flaky
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4}
                transport: {pfc: false, timeout_us: 200}
                load_balancer: {scheme: paralet, m: 8}
                workload: {kind: permutation, size_bytes: 200000, concurrent: 2}
                failures: [{at_us: 0, link: "leaf*-spine0", kind: flaky, mean_gap_us: 50, mean_burst_us: 10}]
                """;
        RunResult a = Scenarios.run(yaml);
        RunResult b = Scenarios.run(yaml);
        assertCompleteAndConserved(a);
        assertThat(a.packetsDropped()).isPositive();
        assertThat(a.flows()).isEqualTo(b.flows());
        assertThat(a.links()).isEqualTo(b.links());
        assertThat(a.maxQpsPerNic()).isEqualTo(8);
    }

    @Test
    void defaultFlowletIsFourBdpOverMRoundedToMtus() {
        RunResult r = Scenarios.run(FABRIC, "load_balancer.m=8");
        assertCompleteAndConserved(r);
        // base RTT of this fabric at 100 Gb/s: 4 hops of 1 us each way plus 4 x (4160 + 64) B serialisation
        long rttPs = 2 * 4 * 1_000_000L + 4 * (4160L + 64) * 8_000_000_000_000L / 100_000_000_000L;
        long bdp = rttPs * 100_000_000_000L / 8 / 1_000_000_000_000L;
        long s = (ParaLet.flowletBytes(bdp, 8) + 4095) / 4096 * 4096;
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.qps()).isEqualTo((int) ((400000 + s - 1) / s)));
    }

    /** The default flowlet is 4 BDP / m of the sending host's own NIC: a slow NIC on host 0 leaves the others' flowlets alone. */
    @Test
    void defaultFlowletUsesTheSendersOwnNic() {
        RunResult r = Scenarios.run(FABRIC, "load_balancer.m=8", "topology.link_overrides=[{links: \"h0-leaf0\", gbps: 1}]");
        assertCompleteAndConserved(r);
        long rttPs = 2 * 4 * 1_000_000L + 4 * (4160L + 64) * 8_000_000_000_000L / 100_000_000_000L;
        long bdp = rttPs * 100_000_000_000L / 8 / 1_000_000_000_000L;
        long s = (ParaLet.flowletBytes(bdp, 8) + 4095) / 4096 * 4096;
        assertThat(r.flows()).filteredOn(f -> f.src() != 0)
                .allSatisfy(f -> assertThat(f.qps()).isEqualTo((int) ((400000 + s - 1) / s)));
    }

    @Test
    void moreParallelFlowletsFinishAPermutationSooner() {
        double one = 0;
        double many = 0;
        for (String seed : List.of("1", "2", "3")) {
            double a = Scenarios.run(FABRIC, "seed=" + seed, "load_balancer.m=1").lastFinishNs();
            double b = Scenarios.run(FABRIC, "seed=" + seed, "load_balancer.m=32").lastFinishNs();
            one += a;
            many += b;
            assertThat(b).as("seed " + seed).isLessThan(a);
        }
        assertThat(many).isLessThan(0.8 * one);
    }

    /**
     * ParaLet §4.1 Eq. 1, by balls into bins with the real ECMP hash: N hosts each put m flowlets (QPs
     * with distinct random source ports) on one switch's N equal-cost uplinks; the slowdown of an uplink
     * is its QP count / m and the worst uplink's is compared with Eq. 1 = 1 + Phi^-1(1 - 1/N) / sqrt(m).
     *
     * <p>Agreement measured (400 trials each, N = 16, 64, 256): Eq. 1 is the (1 - 1/N) quantile of one
     * port's load, not the expected maximum over N ports, so it sits below the Monte Carlo mean maximum:
     * by 9-11 % at m = 8, 4 % at m = 32 and 2 % at m = 128, but by 17-31 % at m = 1-2 where the binomial
     * is far from normal. The excess over 1 shrinks as 1/sqrt(m) as Eq. 1 says: quadrupling m halves it
     * (ratio 2.0-2.2).
     */
    @Test
    void eq1PredictsTheWorstUplinkWithinItsNormalApproximation() {
        int trials = 400;
        for (int n : new int[] {16, 64, 256}) {
            double[] excess = new double[4];
            int[] ms = {2, 8, 32, 128};
            for (int mi = 0; mi < ms.length; mi++) {
                int m = ms[mi];
                double mean = meanMaxSlowdown(n, m, trials, 1000L * n + m);
                double eq1 = ParaletPlan.predictedSlowdown(n, m);
                excess[mi] = mean - 1;
                assertThat(mean).as("N=%d m=%d: measured %.3f vs Eq. 1 %.3f", n, m, mean, eq1).isGreaterThanOrEqualTo(eq1);
                if (m >= 8) {
                    assertThat((mean - eq1) / eq1).as("N=%d m=%d: measured %.3f vs Eq. 1 %.3f", n, m, mean, eq1)
                            .isLessThan(0.15);
                }
            }
            for (int mi = 1; mi + 1 < ms.length; mi++) {
                assertThat(excess[mi] / excess[mi + 1]).as("N=%d: 1/sqrt(m) scaling from m=%d to m=%d", n, ms[mi], ms[mi + 1])
                        .isCloseTo(2.0, within(0.3));
            }
        }
    }

    /** Mean over trials of max over N uplinks of (QPs hashed there) / m, hashing like a leaf does. */
    static double meanMaxSlowdown(int n, int m, int trials, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double sum = 0;
        int[] load = new int[n];
        for (int t = 0; t < trials; t++) {
            Arrays.fill(load, 0);
            long switchSeed = r.nextLong();
            for (int src = 0; src < n; src++) {
                int dst = n + src; // hosts under other leaves: one flow per host, as in §4.1
                java.util.BitSet used = new java.util.BitSet();
                for (int k = 0; k < m; k++) {
                    int p;
                    do {
                        p = r.nextInt(Ecmp.SPORT_RANGE);
                    } while (used.get(p));
                    used.set(p);
                    long h = EcmpHash.hash(switchSeed, src, dst, Ecmp.SPORT_MIN + p, Packet.ROCE_DPORT, Packet.PROTO_UDP);
                    load[EcmpHash.bucket(h, n)]++;
                }
            }
            int max = 0;
            for (int v : load) max = Math.max(max, v);
            sum += max / (double) m;
        }
        return sum / trials;
    }

    @Test
    void rateCapIsOneMthOfLineRate() {
        // one flow alone: m slots at line/m each still fill the line
        String lone = """
                name: lone
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 100}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 4000000}]}
                load_balancer: {scheme: paralet, m: 8}
                """;
        RunResult r = Scenarios.run(lone);
        assertCompleteAndConserved(r);
        double lineNs = 4000000 * (4160.0 / 4096) * 8 / 100.0;
        assertThat(r.flows().get(0).fctNs()).isLessThan(1.15 * lineNs).isGreaterThan(lineNs);
        RunResult one = Scenarios.run(lone, "load_balancer.m=1");
        assertThat(r.flows().get(0).fctNs()).isCloseTo(one.flows().get(0).fctNs(), within(0.1 * lineNs));
        // a single slot capped at 1/8 of the line would take 8 times as long: the cap is per slot
        RunResult capped = Scenarios.run(lone.replace("m: 8", "m: 8, flowlet_bytes: 4000000"));
        assertThat(capped.flows().get(0).fctNs()).isGreaterThan(7 * lineNs);
        // and under every loss recovery (the selective and coded senders pace through the same cap)
        for (String lr : lbsim.transport.LossRecoveries.IMPLEMENTED) {
            RunResult c = Scenarios.run(lone.replace("m: 8", "m: 8, flowlet_bytes: 4000000"), "transport.loss_recovery=" + lr);
            assertThat(c.flows().get(0).fctNs()).as(lr).isGreaterThan(7 * lineNs);
        }
    }
}

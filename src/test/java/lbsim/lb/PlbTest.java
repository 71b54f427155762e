package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.SplittableRandom;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** PLB and host adaptive flowlets: repath only on congested rounds, never more often than a round allows. */
class PlbTest {
    /** One flow over a 2-leaf 2-spine fabric whose leaf0-spine0 uplink keeps 10 % of its rate. */
    static final String DEGRADED = """
            name: degraded
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 100}
            switch: {ecn_kmin_bytes: 30000}
            transport: {cc: dctcp}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 2000000}]}
            failures: [{at_us: 0, link: "leaf0-spine0", kind: degrade, capacity_fraction: 0.1}]
            """;

    private static Plb plb(double k, int n, int m, int roundPackets) {
        return new Plb(new SplittableRandom(1), k, n, m, roundPackets, 0);
    }

    @Test
    void plbForcesARepathAfterNConsecutiveRoundsAtOrAboveTheThresholdOnly() {
        Plb p = plb(0.5, 12, 0, 0);
        Plb.State s = new Plb.State();
        s.roundEndSeq = 0;
        // rounds of 10 packets: 4 marked (0.4 < K) never count
        for (int r = 0; r < 100; r++) assertThat(p.ack(s, 10, 4, r, false, 0)).isFalse();
        // 11 rounds at exactly K, then a clean round resets the count
        for (int r = 0; r < 11; r++) assertThat(p.ack(s, 10, 5, r, false, 0)).isFalse();
        assertThat(p.ack(s, 10, 0, 0, false, 0)).isFalse();
        for (int r = 0; r < 11; r++) assertThat(p.ack(s, 10, 5, r, false, 0)).isFalse();
        assertThat(p.ack(s, 10, 5, 0, false, 0)).as("12th congested round in a row").isTrue();
        assertThat(s.congRounds).isZero();
        // an ACK that does not end the round only accumulates
        s.roundEndSeq = 100;
        assertThat(p.ack(s, 1, 1, 50, false, 0)).isFalse();
        assertThat(s.delivered).isEqualTo(1);
    }

    @Test
    void plbIdleRehashNeedsNothingInFlightAndMRounds() {
        Plb p = plb(0.5, 12, 3, 0);
        Plb.State s = new Plb.State();
        s.roundEndSeq = 0;
        assertThat(p.ack(s, 10, 10, 0, true, 0)).isFalse();
        assertThat(p.ack(s, 10, 10, 0, false, 0)).isFalse();
        assertThat(p.ack(s, 10, 10, 0, false, 0)).as("3 rounds but data in flight").isFalse();
        assertThat(p.ack(s, 10, 10, 0, true, 0)).as("4 rounds, idle").isTrue();
    }

    @Test
    void plbSuspendsCongestionRepathAfterATimeout() {
        Plb p = plb(0.5, 1, 0, 0);
        Plb.State s = new Plb.State();
        s.roundEndSeq = 0;
        s.pauseUntilPs = 1000;
        assertThat(p.ack(s, 10, 10, 0, false, 999)).isFalse();
        assertThat(p.ack(s, 10, 10, 0, false, 1000)).isTrue();
    }

    @Test
    void flowletHostRepathsAtMostEveryTenPacketsAndOnlyWhenFortyPercentOfThemWereMarked() {
        // McClure §4: window of 10 delivered packets, >= 40 % marked
        qt().withFixedSeed(20261123L).withExamples(300).forAll(longs().all()).checkAssert(seed -> {
            Plb p = plb(0.4, 1, 0, 10);
            Plb.State s = new Plb.State();
            SplittableRandom r = new SplittableRandom(seed);
            double markProb = r.nextDouble();
            int sinceRepath = 0;
            int markedInWindow = 0;
            for (int i = 0; i < 500; i++) {
                boolean marked = r.nextDouble() < markProb;
                sinceRepath++;
                if (marked) markedInWindow++;
                boolean repath = p.ack(s, 1, marked ? 1 : 0, 0, false, 0);
                if (sinceRepath % 10 == 0) {
                    assertThat(repath).isEqualTo(markedInWindow >= 4);
                    markedInWindow = 0;
                    if (repath) sinceRepath = 0;
                } else {
                    assertThat(repath).isFalse();
                }
            }
        });
    }

    @Test
    void flowletHostMovesOffACongestedPathAndStaysOnAnIdleOne() {
        RunResult pinned = Scenarios.run(DEGRADED, "seed=2", "load_balancer.scheme=flowlet-host", "load_balancer.rounds=1000000");
        assertThat(Scenarios.bytes(pinned, "leaf0", "spine0")).as("precondition: seed 2 starts on the degraded spine")
                .isGreaterThan(1_900_000);
        for (String pfc : new String[] {"true", "false"}) {
            RunResult fl = Scenarios.run(DEGRADED, "seed=2", "load_balancer.scheme=flowlet-host", "transport.pfc=" + pfc);
            Scenarios.assertConserved(fl);
            assertThat(fl.lbCounters().get("path_switches")).isPositive();
            assertThat(fl.flows().get(0).pathChanges()).isPositive();
            assertThat(fl.flows().get(0).fctNs()).as("pfc=" + pfc).isLessThan(0.5 * pinned.flows().get(0).fctNs());
        }
        // on an idle fabric nothing is marked, so nothing moves
        String idle = DEGRADED.replace("capacity_fraction: 0.1", "capacity_fraction: 1.0");
        for (String scheme : new String[] {"flowlet-host", "plb"}) {
            RunResult r = Scenarios.run(idle, "seed=2", "load_balancer.scheme=" + scheme);
            assertThat(r.flows().get(0).pathChanges()).as(scheme).isZero();
        }
    }

    @Test
    void plbNeedsConsecutiveCongestedRoundsWhichALoneDctcpFlowDoesNotProduce() {
        RunResult pinned = Scenarios.run(DEGRADED, "seed=3", "load_balancer.scheme=plb", "load_balancer.rounds=1000000");
        assertThat(Scenarios.bytes(pinned, "leaf0", "spine0")).as("precondition: seed 3 starts on the degraded spine")
                .isGreaterThan(1_900_000);
        // DCTCP's sawtooth puts clean rounds between congested ones, so N = 12 in a row never happens
        RunResult linux = Scenarios.run(DEGRADED, "seed=3", "load_balancer.scheme=plb");
        assertThat(linux.lbCounters()).containsEntry("path_switches", 0L);
        // one congested round is enough with rounds: 1
        RunResult eager = Scenarios.run(DEGRADED, "seed=3", "load_balancer.scheme=plb", "load_balancer.rounds=1");
        Scenarios.assertConserved(eager);
        assertThat(eager.lbCounters().get("path_switches")).isPositive();
        assertThat(eager.flows().get(0).fctNs()).isLessThan(0.5 * pinned.flows().get(0).fctNs());
    }
}

package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Adaptive routing on quantised port loads ({@code switch.ar_levels}, issue 26): switch ASICs compare
 * port quality in a few bands and draw among equals; exact egress bytes phase-lock periodic senders.
 */
class AdaptiveRoutingBandsTest {
    /**
     * k = 8 fat-tree (128 hosts, 100 Gbps), 64 KB static port buffers, one permutation of 2 MB flows,
     * lossy with NDP-style trimming, on the multipath NIC (a receiver that takes sprayed packets in any
     * order, NSCC with uet-htsim's thresholds): the downward ports (core to aggregation, aggregation to
     * ToR) are where packets collide.
     */
    static final String FABRIC = """
            topology: {kind: fat-tree, k: 8, link_gbps: 100, link_latency_ns: 1000, port_buffer_bytes: 65536}
            transport: {pfc: false, loss_recovery: trim}   # the multipath NIC's NSCC (uec)
            nic: {profile: multipath}
            workload: {kind: permutation, size_bytes: 2000000}
            """;

    private static long lost(RunResult r) {
        Scenarios.assertConserved(r);
        return r.packetsDropped() + r.packetsTrimmed();
    }

    @Test
    void perPacketAdaptiveRoutingLosesNoMoreThanSwitchSprayingWhereExactBytesLoseFarMore() {
        long spray = lost(Scenarios.run(FABRIC, "load_balancer.scheme=spray-switch"));
        long exact = lost(Scenarios.run(FABRIC, "load_balancer.scheme=spray-adaptive", "switch.ar_levels=0"));
        long bands = lost(Scenarios.run(FABRIC, "load_balancer.scheme=spray-adaptive"));
        // at the time of writing (NSCC, uec ECN thresholds): spray-switch 1835 trimmed, exact bytes 2070, 8 bands 1326
        assertThat(exact).as("exact egress bytes (ar_levels 0) trim more than round robin").isGreaterThan(spray * 11 / 10);
        assertThat(bands).as("8 bands, ties at random: no more than round robin").isLessThanOrEqualTo(spray);
    }

    @Test
    void tiesAmongTheLeastLoadedAreDrawnUniformly() {
        long[] loads = {3, 1, 1, 5, 1, 1};
        int[] count = new int[loads.length];
        SplittableRandom random = new SplittableRandom(26);
        int draws = 40_000;
        for (int i = 0; i < draws; i++) count[LeastLoaded.index(loads, loads.length, random)]++;
        assertThat(count[0]).isZero();
        assertThat(count[3]).isZero();
        // each of the 4 tied ports: 10 000 expected, standard deviation sqrt(40 000 x 1/4 x 3/4) = 87
        for (int i : new int[] {1, 2, 4, 5}) assertThat(count[i]).as("port %d", i).isBetween(9_600, 10_400);
    }

    @Test
    void aUniqueLeastLoadedPortIsAlwaysChosen() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100; i++) assertThat(LeastLoaded.index(new long[] {2, 2, 0, 7}, 4, random)).isEqualTo(2);
    }

    @Test
    void drillWithQuantisedLoadsDrawsAmongTiedComparedPortsUniformly() {
        int[] candidates = {0, 1, 2, 3};
        long[] bands = {0, 0, 0, 1};
        Drill drill = new Drill(4, new SplittableRandom(5)); // every port sampled, plus the remembered one
        int[] count = new int[4];
        int draws = 30_000;
        for (int i = 0; i < draws; i++) count[drill.pick(candidates, c -> bands[c], true)]++;
        assertThat(count[3]).isZero();
        // the remembered port is compared once, not twice: each of 3 tied ports 10 000 +- 4 sd (82)
        for (int i = 0; i < 3; i++) assertThat(count[i]).as("port %d", i).isBetween(9_650, 10_350);
        // exact comparison (ar_levels 0): the remembered port wins every tie
        Drill exact = new Drill(4, new SplittableRandom(5));
        int first = exact.pick(candidates, c -> bands[c], false);
        for (int i = 0; i < 100; i++) assertThat(exact.pick(candidates, c -> bands[c], false)).isEqualTo(first);
    }
}

package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** NSCC (cc uec) rules in isolation, against uet-htsim's NSCC (docs/uec.md), and in small runs. */
class NsccTest {
    private static final long US = 1_000_000L;
    private static final int MSS = 4086;
    private static final int HDR = 64;
    private static final int MTU = MSS + HDR;
    private static final long RATE = 100_000_000_000L;
    private static final long RTT = 14 * US;

    private long now = US;

    private Nscc nscc(long initCwnd, boolean trimming) {
        return new Nscc(initCwnd, MSS, HDR, RATE, RTT, 0, trimming, () -> now);
    }

    @Test
    void startsAtOneAndAHalfBdpWithTheTargetFromTheBaseRtt() {
        Nscc n = nscc(0, true);
        // BDP = 14 us x 100 Gbps = 175 000 B
        assertThat(n.windowBytes()).isEqualTo(262_500);
        assertThat(n.maxWindowBytes()).isEqualTo(262_500);
        assertThat(n.targetPs()).isEqualTo(10_500_000);
        assertThat(nscc(0, false).targetPs()).as("without trimming the target is one RTT").isEqualTo(RTT);
        assertThat(new Nscc(0, MSS, HDR, RATE, RTT, 3 * US, true, () -> now).targetPs()).isEqualTo(3 * US);
    }

    @Test
    void unmarkedAcksGrowTheWindowMoreTheFurtherTheDelayIsBelowTheTarget() {
        long[] grown = new long[3];
        long[] delays = {2 * US, 6 * US, 12 * US};   // 12 us is above the 10.5 us target: fair increase
        for (int k = 0; k < delays.length; k++) {
            now = US;
            Nscc n = nscc(100_000, true);
            // nine ACKs of one packet each: more than 8 packets acknowledged applies the collected increase
            for (int i = 0; i < 9; i++) n.onAckFeedback(MTU, false, RTT + delays[k], 0);
            grown[k] = n.windowBytes() - 100_000;
        }
        assertThat(grown[0]).isGreaterThan(grown[1]).isGreaterThan(0);
        assertThat(grown[2]).as("fair increase above target").isPositive();
        // proportional: alpha = 4 x MSS x a x b / target, a = BDP / 150 KB, b = target / 12 us
        double a = 175_000 / 150_000.0;
        double alpha = 4.0 * MSS * a * (10.5 / 12) / 10_500_000;
        assertThat(grown[0]).isCloseTo((long) (9 * (long) (alpha * MTU * 8.5 * US) / 100_000.0), within(2L));
        // fair: 5 x MSS x a per byte acknowledged
        assertThat(grown[2]).isCloseTo((long) (9 * (long) (5.0 * MSS * a * MTU) / 100_000.0), within(2L));
    }

    @Test
    void markedAcksAboveTargetCutOncePerBaseRttByTheSmoothedExcessAtMostHalf() {
        now = 100 * US;
        Nscc n = nscc(200_000, true);
        long huge = 20 * n.targetPs();
        // the smoothed delay (gain 1/80) needs a few samples to pass the target; then one cut, and
        // no other while the clock stands still
        for (int i = 0; i < 400; i++) n.onAckFeedback(0, true, RTT + huge, 0);
        long afterFirst = n.windowBytes();
        assertThat(afterFirst).isLessThan(200_000).isGreaterThan(150_000);
        assertThat(n.avgDelayPs()).isGreaterThan(19 * n.targetPs());
        now += RTT + 1;
        n.onAckFeedback(0, true, RTT + huge, 0);
        // one network RTT since the last adjustment has passed: the additive eta (0.15 x MSS x a) comes on top
        long eta = (long) (0.15 * MSS * 175_000 / 150_000.0);
        assertThat(n.windowBytes()).as("the decrease is bounded by half").isEqualTo(afterFirst / 2 + eta);
        // a marked ACK below the target changes nothing (NSCC only moves the path then)
        now += US;
        long w = n.windowBytes();
        n.onAckFeedback(0, true, RTT + US, 0);
        assertThat(n.windowBytes()).isEqualTo(w);
    }

    @Test
    void aTrimTakesThePacketOffAndQuickAdaptThenDropsTheWindowToWhatWasDelivered() {
        Nscc n = nscc(0, true);
        n.onAckFeedback(MTU, false, RTT + 2 * US, 0);   // the first ACK starts the quick-adapt period
        long w = n.windowBytes();
        now = 2 * US;
        n.onTrimmed(MTU, RTT + 5 * US, 200_000);
        assertThat(n.windowBytes()).isEqualTo(w - MTU);
        // the trim asked for quick adapt: at the first ACK after the period (base RTT + target), with
        // little delivered in it (under maxwnd / 8), the window becomes what was delivered
        now = 30 * US;
        n.onAckFeedback(2 * MTU, false, RTT + 2 * US, 100_000);
        assertThat(n.windowBytes()).isEqualTo(2 * MTU);
        // marked ACKs for the bytes that were in flight then are ignored: no cut on top
        now = 60 * US;
        n.onAckFeedback(MTU, true, RTT + 3 * n.targetPs(), 100_000);
        assertThat(n.windowBytes()).isEqualTo(2 * MTU);
    }

    /**
     * The gate (uet-htsim -qa_gate 3): after a trim, quick adapt cuts only if less than maxwnd / 8 was delivered in
     * its period; with {@code uec_qa_gate: 0} (no gate, as uet-htsim c009cb77 without -enable_qa_gate) it always cuts.
     */
    @Test
    void quickAdaptAfterATrimWaitsForLittleDeliveredOnlyWithTheGate() {
        long delivered = 100_000; // in the period: more than maxwnd / 8 = 32 812 B
        for (int gate : new int[] {3, 0}) {
            now = US;
            Nscc n = new Nscc(0, MSS, HDR, RATE, RTT, 0, true, gate, () -> now);
            n.onAckFeedback(MTU, false, RTT + 2 * US, 0);   // starts the quick-adapt period
            now = 2 * US;
            n.onTrimmed(MTU, RTT + 5 * US, 200_000);
            long before = n.windowBytes();
            now = 30 * US;
            n.onAckFeedback(delivered, false, RTT + 2 * US, 100_000);
            if (gate == 0) {
                assertThat(n.windowBytes()).as("no gate: cut to what was delivered").isEqualTo(delivered);
            } else {
                assertThat(n.windowBytes()).as("gate 3: no cut").isGreaterThanOrEqualTo(before);
            }
        }
    }

    @Test
    void aTimeoutTakesOnePacketOffAndTheWindowStaysWithinOnePacketAndItsMaximum() {
        Nscc n = nscc(3 * MTU, true);
        n.onTimeout();
        assertThat(n.windowBytes()).isEqualTo(2 * MTU);
        for (int i = 0; i < 5; i++) n.onTimeout();
        assertThat(n.windowBytes()).isEqualTo(MTU);
        // near-zero delay: after a window of such samples the fast increase grows it straight to the cap
        for (int i = 0; i < 2000; i++) {
            now += 100_000;
            n.onAckFeedback(MTU, false, RTT, 0);
        }
        assertThat(n.windowBytes()).isEqualTo(n.maxWindowBytes());
        assertThat(n.windowAllows(0, MTU)).isTrue();
        assertThat(n.windowAllows(n.maxWindowBytes(), MTU)).isFalse();
    }

    @Test
    void aSmallerMeasuredRttLowersTheBaseRttAndWithItTheLargestWindow() {
        Nscc n = nscc(0, true);
        n.onAckFeedback(MTU, false, 7 * US, 0);
        assertThat(n.maxWindowBytes()).isEqualTo(131_250);
        assertThat(n.windowBytes()).isLessThanOrEqualTo(131_250);
    }

    private static final String INCAST = """
            name: uec
            topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 5, link_gbps: 100}
            transport: {cc: uec, loss_recovery: sack, pfc: false}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 4000000}, {src: 2, dst: 0, size_bytes: 4000000},
                       {src: 3, dst: 0, size_bytes: 4000000}, {src: 4, dst: 0, size_bytes: 4000000}]}
            """;

    private static RunResult run(String yaml, String... set) {
        return Runner.run(ScenarioLoader.parse("t", yaml, null, List.of(set), null), Runner.Progress.NONE);
    }

    @Test
    void aLoneFlowRunsAtLineRate() {
        RunResult r = run(INCAST, "workload.flows=[{src: 1, dst: 0, size_bytes: 4000000}]");
        assertThat(r.completed()).isTrue();
        // 977 packets of 4096 + 64 B at 100 Gbps, plus one unloaded RTT
        double wire = Math.ceil(4_000_000 / 4096.0) * 4160 * 8 / 100.0;
        assertThat(r.flows().get(0).fctNs()).isBetween(wire, wire * 1.05);
    }

    /**
     * NSCC's network RTT is the fabric's unloaded RTT with every hop at its slowest link: with 400G NICs
     * on a 10G fabric, an RTT computed at the NICs' rate (htsim's formula, for fabrics of one rate) is
     * shorter than any idle path's, every sample looked queued and the lone flow took twice its time.
     */
    @Test
    void aFabricSlowerThanItsNicsDoesNotLookCongestedWhenIdle() {
        String yaml = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1, link_gbps: 10, host_link_gbps: 400,
                           link_latency_ns: 100}
                transport: {cc: uec}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 300000}]}
                """;
        RunResult r = run(yaml);
        assertThat(r.completed()).isTrue();
        assertThat(r.flows().get(0).slowdown()).isLessThan(1.1);
    }

    @Test
    void inAnIncastTheDelayTargetKeepsTheQueueShortAndNothingIsLost() {
        RunResult r = run(INCAST);
        RunResult fixed = run(INCAST, "transport.cc=fixed-rate");
        assertThat(r.completed()).isTrue();
        assertThat(r.packetsSent()).isEqualTo(r.packetsDelivered() + r.packetsDropped());
        long q = maxQueue(r, "leaf0", "h0");
        assertThat(q).isLessThan(maxQueue(fixed, "leaf0", "h0") / 4);
        double max = r.flows().stream().mapToDouble(FlowRecord::fctNs).max().orElseThrow();
        // four 4 MB flows through one 100 Gbps port: 1.28 ms of serialisation at least
        assertThat(max).isBetween(1.28e6, 1.15 * 1.33e6);
    }

    private static long maxQueue(RunResult r, String from, String to) {
        return r.links().stream().filter(l -> l.from().equals(from) && l.to().equals(to))
                .mapToLong(LinkRecord::maxQueueBytes).max().orElseThrow();
    }
}

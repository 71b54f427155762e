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

    // ---- uet-htsim c009cb77's NSCC (transport.uec_nscc: c009cb77; f-forcher/uet-htsim htsim/sim/uec.cpp at c009cb77) ----

    private static final double A = 175_000 / 150_000.0;   // scaling_factor_a on the 14 us, 100 Gbps fabric

    private Nscc c009(long initCwnd) {
        return new Nscc(initCwnd, MSS, HDR, RATE, RTT, 0, true, 0, NsccVersion.C009CB77, () -> now);
    }

    private Nscc c009(long initCwnd, long targetPs) {
        return new Nscc(initCwnd, MSS, HDR, RATE, RTT, targetPs, true, 0, NsccVersion.C009CB77, () -> now);
    }

    @Test
    void c009cb77DefaultsToA6UsTargetWithOrWithoutTrimmingAndNoQuickAdaptGate() {
        assertThat(c009(0).targetPs()).isEqualTo(6 * US);
        assertThat(new Nscc(0, MSS, HDR, RATE, RTT, 0, false, 0, NsccVersion.C009CB77, () -> now).targetPs()).isEqualTo(6 * US);
        assertThat(c009(0, 3 * US).targetPs()).as("an explicit target still wins").isEqualTo(3 * US);
        assertThat(NsccVersion.C009CB77.defaultQaGate()).isZero();
        assertThat(NsccVersion.CURRENT.defaultQaGate()).isEqualTo(3);
    }

    /**
     * Below the target, c009cb77 collects the proportional increase (rounded) and the fair one (5 x a x MTU
     * per byte), and adjusts once more than 16 000 x (6 us / 12 us) = 8 000 bytes were received: here after
     * two packets, where the current rule adjusts after more than 8 packets and adds no fair increase.
     */
    @Test
    void c009cb77ProportionalIncreaseAddsTheFairOneAndAdjustsEvery8000Bytes() {
        Nscc n = c009(100_000);
        long delay = 2 * US;
        n.onAckFeedback(MTU, false, RTT + delay, 0);
        assertThat(n.windowBytes()).as("4 150 B received: not yet").isEqualTo(100_000);
        n.onAckFeedback(MTU, false, RTT + delay, 0);
        double alpha = 4.0 * MSS * A * 0.5 / (6 * US);
        long perAck = Math.round(alpha * (6 * US - delay) * MTU) + (long) (5.0 * A * MTU * MTU);
        assertThat(n.windowBytes()).isEqualTo(100_000 + 2 * perAck / 100_000);
        // the current rule: proportional only, applied after more than 8 packets
        Nscc cur = nscc(100_000, true);
        cur.onAckFeedback(MTU, false, RTT + delay, 0);
        cur.onAckFeedback(MTU, false, RTT + delay, 0);
        assertThat(cur.windowBytes()).isEqualTo(100_000);
    }

    @Test
    void c009cb77AdjustmentBytesScaleWithTheTarget() {
        // target 12 us: 16 000 B; four packets (16 600 B) adjust, three (12 450 B) do not
        Nscc n = c009(100_000, 12 * US);
        for (int i = 0; i < 3; i++) n.onAckFeedback(MTU, false, RTT + 13 * US, 0);   // above target: fair increase
        assertThat(n.windowBytes()).isEqualTo(100_000);
        n.onAckFeedback(MTU, false, RTT + 13 * US, 0);
        assertThat(n.windowBytes()).isEqualTo(100_000 + 4 * (long) (5.0 * A * MTU * MTU) / 100_000);
    }

    /**
     * An adjustment adds at most the bytes received since the last one, and the period is htsim's reference RTT
     * (12 us), not the network RTT: at 13 us the first ACK adjusts, and eta (0.15 x MSS x a) comes on top.
     */
    @Test
    void c009cb77AdjustmentIsCappedByTheBytesReceivedAndComesEvery12Us() {
        now = 13 * US;
        Nscc n = c009(MTU);
        n.onAckFeedback(MTU, false, RTT + 2 * US, 0);   // collects about 127 MB x B: far more than one packet per window byte
        long eta = (long) (0.15 * MSS * A);
        assertThat(n.windowBytes()).isEqualTo(MTU + MTU + eta);
        // the current rule: no cap, and 13 us is within its 14 us period (no adjustment after one packet)
        Nscc cur = nscc(MTU, true);
        cur.onAckFeedback(MTU, false, RTT + 2 * US, 0);
        assertThat(cur.windowBytes()).isEqualTo(MTU);
    }

    /** eta runs on its own 12 us clock: it comes even when no adjustment is due, which the current rule never does. */
    @Test
    void c009cb77AddsEtaOnItsOwnClock() {
        now = 5 * US;
        Nscc n = c009(100_000);
        n.onAckFeedback(9_000, false, RTT + 7 * US, 0);   // over 8 000 B: an adjustment at 5 us
        long w = n.windowBytes();
        now = 13 * US;   // 8 us after the adjustment, 13 us after the start of eta's clock
        n.onAckFeedback(0, true, RTT + 2 * US, 0);        // marked below target: no window change of its own
        assertThat(n.windowBytes()).isEqualTo(w + (long) (0.15 * MSS * A));

        now = 5 * US;
        Nscc cur = nscc(100_000, true);
        cur.onAckFeedback(40_000, false, RTT + 11 * US, 0);   // over 8 packets: an adjustment at 5 us
        long wc = cur.windowBytes();
        now = 13 * US;
        cur.onAckFeedback(0, true, RTT + 2 * US, 0);
        assertThat(cur.windowBytes()).isEqualTo(wc);
    }

    /** A trim takes its bytes off at once; neither the smoothed delay nor the base RTT moves. */
    @Test
    void c009cb77TrimsStayOutOfTheSmoothedDelayAndTheBaseRtt() {
        Nscc n = c009(100_000);
        n.onTrimmed(MTU, 5 * US, 100_000);
        assertThat(n.windowBytes()).isEqualTo(100_000 - MTU);
        assertThat(n.avgDelayPs()).isZero();
        assertThat(n.maxWindowBytes()).isEqualTo(262_500);
        Nscc cur = nscc(100_000, true);
        cur.onTrimmed(MTU, 5 * US, 100_000);
        assertThat(cur.avgDelayPs()).as("current: a network RTT enters the smoothed delay").isEqualTo((long) (0.0125 * RTT));
        assertThat(cur.maxWindowBytes()).as("current: the trim's RTT lowers the base RTT").isCloseTo(93_750, within(3L));
    }

    /**
     * Quick adapt never raises the window (more was delivered in its period than the window), and when it does run it
     * keeps the collected increase for the next adjustment, which the received-bytes cap then bounds.
     */
    @Test
    void c009cb77QuickAdaptNeverRaisesTheWindowAndKeepsTheCollectedIncrease() {
        now = US;
        Nscc n = c009(10_000);
        n.onAckFeedback(0, false, RTT + 2 * US, 0);      // starts the quick-adapt period (ends at 1 + 14 + 6 us)
        now = 2 * US;
        n.onTrimmed(MTU, RTT + 5 * US, 10_000);
        assertThat(n.windowBytes()).isEqualTo(10_000 - MTU);
        now = 30 * US;
        n.onAckFeedback(20_000, true, RTT + 2 * US, 20_000);   // 20 000 B delivered, more than the window
        assertThat(n.windowBytes()).as("no quick adapt; eta only").isEqualTo(10_000 - MTU + (long) (0.15 * MSS * A));
        Nscc cur = new Nscc(10_000, MSS, HDR, RATE, RTT, 6 * US, true, 0, () -> now);
        now = US;
        cur.onAckFeedback(0, false, RTT + 2 * US, 0);
        now = 2 * US;
        cur.onTrimmed(MTU, RTT + 5 * US, 10_000);
        now = 30 * US;
        cur.onAckFeedback(20_000, true, RTT + 2 * US, 20_000);
        assertThat(cur.windowBytes()).as("current: the window becomes what was delivered").isEqualTo(20_000);

        // quick adapt to one packet; the increase collected before it is applied at the next adjustment, up to the
        // bytes received since the last one (4 150)
        now = US;
        Nscc k = c009(100_000);
        k.onAckFeedback(0, false, RTT + 2 * US, 0);
        now = 2 * US;
        k.onAckFeedback(MTU, false, RTT + 2 * US, 0);     // collects ~127 MB x B, 4 150 B received: no adjustment yet
        now = 3 * US;
        k.onTrimmed(MTU, RTT + 5 * US, 100_000);
        now = 30 * US;
        k.onAckFeedback(0, true, RTT + US, 100_000);      // quick adapt: the window is the 4 150 B delivered
        assertThat(k.windowBytes()).isEqualTo(MTU);
        now = 31 * US;
        k.onAckFeedback(0, false, RTT + 7 * US, 100_000); // unmarked: a period since the last adjustment has passed
        assertThat(k.windowBytes()).isEqualTo(MTU + MTU + (long) (0.15 * MSS * A));
    }

    /** Only a full packet's RTT lowers the base RTT (the short last packet's is faster on the same path). */
    @Test
    void c009cb77LowersTheBaseRttOnlyOnFullPackets() {
        Nscc n = c009(0);
        n.onAckFeedback(MTU, false, 7 * US, false, 0);
        assertThat(n.maxWindowBytes()).isEqualTo(262_500);
        n.onAckFeedback(MTU, false, 7 * US, true, 0);
        assertThat(n.maxWindowBytes()).isEqualTo(131_250);
        Nscc cur = nscc(0, true);
        cur.onAckFeedback(MTU, false, 7 * US, false, 0);
        assertThat(cur.maxWindowBytes()).isEqualTo(131_250);
    }

    @Test
    void theNsccVersionIsAUecKeyWithItsOwnQuickAdaptGateDefault() {
        var c = ScenarioLoader.parse("t", INCAST, null, List.of("transport.uec_nscc=c009cb77"), null).resolved().path("transport");
        assertThat(c.path("uec_nscc").asText()).isEqualTo("c009cb77");
        assertThat(c.path("uec_qa_gate").asInt()).isZero();
        var d = ScenarioLoader.parse("t", INCAST, null, List.of(), null).resolved().path("transport");
        assertThat(d.path("uec_nscc").asText()).isEqualTo("current");
        assertThat(d.path("uec_qa_gate").asInt()).isEqualTo(3);
        var g = ScenarioLoader.parse("t", INCAST, null, List.of("transport.uec_nscc=c009cb77", "transport.uec_qa_gate=3"), null)
                .resolved().path("transport");
        assertThat(g.path("uec_qa_gate").asInt()).as("an explicit gate still wins").isEqualTo(3);
        var other = ScenarioLoader.parse("t", INCAST, null, List.of("transport.cc=dctcp"), null).resolved().path("transport");
        assertThat(other.has("uec_nscc")).as("only under cc: uec").isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioLoader.parse("t.yaml", INCAST, null,
                        List.of("transport.uec_nscc=2024"), null))
                .isInstanceOf(lbsim.BadInputException.class).hasMessageContaining("t.yaml")
                .hasMessageContaining("transport.uec_nscc").hasMessageContaining("current").hasMessageContaining("c009cb77");
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

package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * ConWeave (Song et al., SIGCOMM 2023) end to end: conservation with its control packets and
 * held packets, rerouting away from a slow path, and the destination ToR's reorder queue.
 */
class ConWeaveTest {
    private static final String PERM = """
            name: cw
            topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            transport: {timeout_us: 4000}
            nic: {retry_count: 0}
            load_balancer: {scheme: conweave}
            workload: {kind: permutation, size_bytes: 400000, concurrent: 2}
            """;   // ConWeave's ns-3 RDMA (algorithms.md §3.1): a 4 ms QP timer and no retry limit

    /** One 2 MB flow leaf0 -> leaf1 over two spines; leaf0-spine1 keeps a quarter of its rate. */
    private static String degraded(long seed) {
        return """
                seed: %d
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096}
                transport: {cc: dctcp, timeout_us: 1000}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 2000000, start_ns: 0}]}
                failures: [{at_us: 0, link: "leaf0-spine1", kind: degrade, capacity_fraction: 0.25}]
                max_time_ms: 100
                """.formatted(seed);
    }

    private static RunResult run(String yaml, String... overrides) {
        return Runner.run(ScenarioLoader.parse("t", yaml, null, List.of(overrides), null), Runner.Progress.NONE);
    }

    private static long bytes(RunResult r, String from, String to) {
        return r.links().stream().filter(l -> l.from().equals(from) && l.to().equals(to)).mapToLong(LinkRecord::bytes).sum();
    }

    private static long lb(RunResult r, String key) {
        return r.lbCounters().getOrDefault(key, 0L);
    }

    /** Runner checks data and control conservation (and an empty pool) itself; this adds the flows. */
    private static void assertCompleteAndConserved(RunResult r) {
        assertThat(r.completed()).as("completed: %s", r.warnings()).isTrue();
        assertThat(r.packetsSent()).isEqualTo(r.packetsDelivered() + r.packetsDropped());
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
    }

    @Test
    void completesAndConservesWithAndWithoutPfcOnSmallBuffersAndOnAFatTree() {
        for (String pfc : List.of("true", "false")) {
            RunResult r = run(PERM, "transport.pfc=" + pfc, "topology.port_buffer_bytes=32768");
            assertCompleteAndConserved(r);
            assertThat(lb(r, "replies")).as("REPLY control packets, pfc=" + pfc).isPositive();
            assertThat(lb(r, "reroutes")).as("pfc=" + pfc).isPositive();
            assertThat(lb(r, "held_packets")).as("pfc=" + pfc).isPositive();
            if (pfc.equals("false")) assertThat(r.packetsDropped()).as("drop-tail with 32 KB ports").isPositive();
        }
        RunResult ft = run(PERM.replace("kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 4", "kind: fat-tree, k: 4"));
        assertCompleteAndConserved(ft);
        assertThat(lb(ft, "reroutes")).isPositive();
        assertThat(ft.outOfOrderPackets()).isZero();
    }

    @Test
    void reroutesAwayFromADegradedUplinkAndBeatsEcmp() {
        for (long seed = 1; seed <= 32; seed++) {
            RunResult ecmp = run(degraded(seed), "load_balancer.scheme=ecmp");
            if (bytes(ecmp, "leaf0", "spine1") < 2_000_000) continue;      // ECMP must have hashed onto the slow uplink
            RunResult cw = run(degraded(seed), "load_balancer.scheme=conweave");
            if (lb(cw, "reroutes") == 0) continue;                          // ConWeave must have started there too
            assertCompleteAndConserved(ecmp);
            assertCompleteAndConserved(cw);
            double slowPathNs = 2_000_000 * 8 / 25.0;                       // the whole flow at 25 Gb/s
            double lineRateNs = 2_000_000 * 8 / 100.0;
            assertThat(ecmp.lastFinishNs()).as("ECMP stays on the slow uplink").isGreaterThan(slowPathNs);
            assertThat(cw.lastFinishNs()).isGreaterThan(lineRateNs).isLessThan(ecmp.lastFinishNs() / 2);
            assertThat(lb(cw, "reply_timeouts")).as("missing REPLY detected the slow path").isPositive();
            assertThat(bytes(cw, "leaf0", "spine0")).as("moved to the healthy spine").isGreaterThan(1_500_000);
            assertThat(lb(cw, "held_packets")).as("the fast path overtook the TAIL").isPositive();
            assertThat(cw.outOfOrderPackets()).isZero();
            assertThat(cw.packetsRetransmitted()).isZero();
            return;
        }
        throw new AssertionError("no seed in 1..32 put both ECMP and ConWeave's first choice on spine1");
    }

    @Test
    void leavesADeadUplinkLongBeforeSwitchesDetectIt() {
        for (long seed = 1; seed <= 32; seed++) {
            String down = degraded(seed).replace("kind: degrade, capacity_fraction: 0.25", "kind: down, detect_ms: 100")
                    .replace("max_time_ms: 100", "max_time_ms: 300");
            RunResult cw = run(down, "load_balancer.scheme=conweave");
            if (lb(cw, "reroutes") == 0) continue;                          // first choice was the live spine
            // ACKs (and REPLYs) follow ECMP as in ConWeave; hashed onto the dead spine they wait for detection
            if (bytes(cw, "leaf1", "spine1") > 0) continue;
            assertCompleteAndConserved(cw);
            assertThat(cw.packetsDropped()).as("lost on the dead link").isPositive();
            assertThat(cw.lastFinishNs()).as("ECMP would wait for the 100 ms detection").isLessThan(5e6);
            assertThat(bytes(cw, "leaf0", "spine0")).isGreaterThan(2_000_000);
            return;
        }
        throw new AssertionError("ConWeave never started on the dead uplink in seeds 1..32");
    }

    @Test
    void reorderQueueHidesReroutingFromTheReceiver() {
        RunResult on = run(PERM, "seed=1");
        assertCompleteAndConserved(on);
        assertThat(lb(on, "reroutes")).isPositive();
        assertThat(lb(on, "held_packets")).isPositive();
        assertThat(lb(on, "reorder_flushes")).isPositive();
        assertThat(on.outOfOrderPackets()).as("receiver NICs see every flow in order").isZero();
        assertThat(on.packetsRetransmitted()).isZero();

        RunResult off = run(PERM, "seed=1", "load_balancer.reorder_queue=0");
        assertCompleteAndConserved(off);
        assertThat(lb(off, "reroutes")).isPositive();
        assertThat(lb(off, "held_packets")).isZero();
        assertThat(off.outOfOrderPackets()).as("same reroutes without the reorder queue").isPositive();
        assertThat(off.packetsRetransmitted()).as("go-back-N pays for it").isPositive();
        assertThat(off.lastFinishNs()).isGreaterThan(on.lastFinishNs());
    }

    /** The ns-3 model's unlimited switch resources are an idealisation: reported with the results, gone once limits are set. */
    @Test
    void unlimitedResourcesAreReportedAsIdealisations() {
        RunResult unlimited = run(PERM, "seed=1");
        assertThat(unlimited.schemeIdealisations()).hasSize(2)
                .anySatisfy(i -> assertThat(i).contains("reorder_queues_per_port"))
                .anySatisfy(i -> assertThat(i).contains("flow_table_entries"));
        assertThat(unlimited.idealisations()).containsAll(unlimited.schemeIdealisations());
        assertThat(unlimited.conditionsLine()).contains("conweave idealises: ConWeave reorder queues unlimited");
        RunResult queuesOnly = run(PERM, "seed=1", "load_balancer.reorder_queues_per_port=12");
        assertThat(queuesOnly.schemeIdealisations()).singleElement().asString().contains("flow_table_entries");
        RunResult limited = run(PERM, "seed=1", "load_balancer.reorder_queues_per_port=12", "load_balancer.flow_table_entries=4096");
        assertThat(limited.schemeIdealisations()).isEmpty();
        assertThat(limited.conditionsLine()).isEqualTo(limited.nicLine()).doesNotContain("idealises");
        RunResult noQueue = run(PERM, "seed=1", "load_balancer.reorder_queue=0", "load_balancer.flow_table_entries=4096");
        assertThat(noQueue.schemeIdealisations()).as("no reorder queue, so no queue count to idealise").isEmpty();
    }

    @Test
    void limitsThatDoNotBindChangeNothing() {
        RunResult unlimited = run(PERM, "seed=1");
        RunResult roomy = run(PERM, "seed=1", "load_balancer.reorder_queues_per_port=64", "load_balancer.flow_table_entries=4096");
        assertThat(roomy.flows()).isEqualTo(unlimited.flows());
        assertThat(roomy.links()).isEqualTo(unlimited.links());
        assertThat(lb(roomy, "reorder_queues_exhausted")).isZero();
        assertThat(lb(roomy, "untracked_packets")).isZero();
        assertThat(unlimited.lbCounters()).as("no limit, no limit counters").doesNotContainKeys("reorder_queues_exhausted",
                "untracked_packets", "max_reorder_queues_in_use");
    }

    @Test
    void exhaustedReorderQueuesLetPacketsThroughOutOfOrder() {
        for (long seed = 1; seed <= 3; seed++) {
            RunResult r = run(PERM, "seed=" + seed, "load_balancer.reorder_queues_per_port=1");
            assertCompleteAndConserved(r);
            // never more reorderings at once on a port than it has queues
            assertThat(lb(r, "max_reorder_queues_in_use")).isBetween(0L, 1L);
            if (lb(r, "reorder_queues_exhausted") > 0) {
                assertThat(r.outOfOrderPackets()).as("seed %d: a reordering without a queue reaches the NIC", seed).isPositive();
            } else {
                assertThat(r.outOfOrderPackets()).as("seed %d", seed).isZero();
            }
        }
        long exhausted = 0;
        for (long seed = 1; seed <= 3; seed++) exhausted += lb(run(PERM, "seed=" + seed, "load_balancer.reorder_queues_per_port=1"), "reorder_queues_exhausted");
        assertThat(exhausted).as("two flows into every host: one queue per port runs out").isPositive();
    }

    /** Two flows from leaf0's two hosts, the second starting {@code gapUs} after the first (which lasts ~25 us). */
    private static String twoFlows(long gapUs) {
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100, link_latency_ns: 1000}
                transport: {timeout_us: 1000}
                load_balancer: {scheme: conweave, flow_table_entries: 1}
                workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 200000, start_ns: 0},
                                                {src: 1, dst: 3, size_bytes: 200000, start_ns: %d}]}
                """.formatted(gapUs * 1000);
    }

    @Test
    void aFullFlowTableLeavesNewFlowsOnEcmpUntilAnEntryAgesOut() {
        // the second flow starts while the first's entry is younger than the 2 ms aging: it gets none
        RunResult soon = run(twoFlows(500));
        assertCompleteAndConserved(soon);
        assertThat(lb(soon, "untracked_packets")).as("every packet of the second flow").isEqualTo(soon.flows().get(1).packets());
        // after 2 ms of silence the first flow's entry is freed and the second flow takes it
        RunResult late = run(twoFlows(2500));
        assertCompleteAndConserved(late);
        assertThat(lb(late, "untracked_packets")).isZero();
        assertThat(lb(late, "epochs")).isGreaterThan(lb(soon, "epochs"));
    }

    @Test
    void aFlushBeforeTheTailIsAReorderTimeout() {
        // no margin over the predicted TAIL arrival: some queues are flushed by the timer first
        RunResult r = run(PERM, "seed=1", "load_balancer.reorder_extra_us=0");
        assertCompleteAndConserved(r);
        assertThat(lb(r, "reorder_timeouts")).isPositive().isLessThanOrEqualTo(lb(r, "reorder_flushes"));
        assertThat(r.outOfOrderPackets()).isPositive();
    }

    /**
     * Incast onto host 0 through one spine and 30 KB port buffers: the ToR-to-host port overflows while packets are held.
     * Fixed-rate senders keep it overflowing: since trims are a congestion signal (DCTCP backs off on them too), a DCTCP
     * incast here trims too little for ConWeave to hold packets in any of these runs.
     */
    private static final String INCAST_TRIM = """
            name: cw-incast-trim
            topology: {kind: leaf-spine, leaves: 3, spines: 1, hosts_per_leaf: 2, parallel_links: 2, link_gbps: 100,
                       link_latency_ns: 1000, port_buffer_bytes: 30000}
            transport: {cc: fixed-rate, loss_recovery: trim-rts, pfc: false}
            load_balancer: {scheme: conweave}
            workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 200000}, {src: 2, dst: 0, size_bytes: 200000},
                       {src: 3, dst: 0, size_bytes: 200000}, {src: 4, dst: 0, size_bytes: 150001},
                       {src: 5, dst: 0, size_bytes: 1, start_ns: 5000}, {src: 0, dst: 5, size_bytes: 100000, after: [4]}]}
            """;

    @Test
    void aFullBufferTrimsPacketsTheReorderQueueWouldHoldInsteadOfDroppingThem() {
        long held = 0;
        for (String mode : List.of("trim-rts", "trim")) {
            for (int seed = 1; seed <= 3; seed++) {
                RunResult r = run(INCAST_TRIM, "seed=" + seed, "transport.loss_recovery=" + mode);
                String as = mode + " seed " + seed;
                assertCompleteAndConserved(r);
                assertThat(r.packetsTrimmed()).as(as).isPositive();
                // every header fits at high priority here: trimming drops nothing, so no flow waits for its timeout
                assertThat(r.packetsDropped()).as("dropped, " + as).isZero();
                assertThat(r.timeouts()).as("timeouts, " + as).isZero();
                held += lb(r, "held_packets");
            }
        }
        assertThat(held).as("the reorder queue was used").isPositive();
    }

    @Test
    void sameSeedSameSummary() {
        String a = ResultWriter.summaryJson(run(PERM, "seed=3")).replaceAll("\"wall_ms\" : \\d+", "");
        String b = ResultWriter.summaryJson(run(PERM, "seed=3")).replaceAll("\"wall_ms\" : \\d+", "");
        assertThat(a).contains("reroutes").isEqualTo(b);
    }

    @Test
    void summaryCarriesTheCountersAndKeysAreChecked() {
        RunResult r = run(degraded(1), "load_balancer.scheme=conweave");
        @SuppressWarnings("unchecked")
        Map<String, Long> lbMap = (Map<String, Long>) ResultWriter.summary(r).get("lb");
        assertThat(lbMap).containsKeys("reroutes", "held_packets", "reorder_timeouts", "reply_timeouts", "replies",
                "notifies", "epochs", "reorder_flushes", "max_reorder_queue");
        assertThat(lbMap.get("epochs")).as("a new probe every RTT or so on a 2 MB flow").isGreaterThan(10);
        assertThat((Map<?, ?>) ResultWriter.summary(run(degraded(1))).get("lb")).as("ecmp has no counters").isEmpty();
        assertThatThrownBy(() -> ScenarioLoader.parse("t", PERM, null, List.of("load_balancer.reorder_queue=2"), null))
                .isInstanceOf(BadInputException.class).hasMessageContaining("load_balancer.reorder_queue");
        assertThatThrownBy(() -> ScenarioLoader.parse("t", PERM, null, List.of("load_balancer.theta=2"), null))
                .isInstanceOf(BadInputException.class).hasMessageContaining("unknown key");
    }
}

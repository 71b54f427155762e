package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.Simulation;
import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import lbsim.workload.collective.CollectiveHandle;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.Collectives;
import lbsim.workload.collective.Placement;
import lbsim.transport.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A collective's completion runs from its issue (or the instant its dependencies made it ready)
 * to its last delivery plus the time after it that no fabric flow covers (its tail), not from its
 * first flow's start: a hierarchical collective's intra-server phases count.
 */
class CollectiveSpanTest {

    /** The audit's case: 16 GPUs in 2 servers under one leaf; the intra-server phases lie outside every flow. */
    @ParameterizedTest
    @ValueSource(strings = {"all-reduce", "reduce-scatter", "all-gather"})
    void aHierarchicalCollectiveCountsItsIntraServerPhases(String op) {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 16, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: collective, algorithm: hierarchical, size_bytes: 1000000}
                """, "workload.op=" + op);
        Scenarios.assertConserved(r);
        double firstStart = r.flows().stream().mapToDouble(FlowRecord::startNs).min().orElseThrow();
        // issued at 0: the reduce-scatter inside the server comes before the first fabric flow
        if (!op.equals("all-gather")) assertThat(firstStart).isPositive();
        assertThat(r.cctNs()).as("from the issue at 0").isGreaterThanOrEqualTo(Math.round(r.lastFinishNs()));
        assertThat(r.commTimeNs()).isEqualTo(r.cctNs());
        assertThat(r.collectives().get(0).cctNs()).isEqualTo(r.cctNs());
        assertThat(r.normalised()).isGreaterThanOrEqualTo(1.0);
    }

    /** reduce_gbps 1 (GB/s): the slow intra-server reduction dwarfs the fabric phase, and must count. */
    @Test
    void aSlowIntraServerReductionCounts() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000}
                workload: {kind: collective, op: all-reduce, algorithm: hierarchical, size_bytes: 1000000, reduce_gbps: 1}
                """);
        Scenarios.assertConserved(r);
        // 7/8 of 1 MB reduced at 1 GB/s inside the server before anything crosses the fabric
        assertThat(r.flows().stream().mapToDouble(FlowRecord::startNs).min().orElseThrow()).isGreaterThan(100_000);
        assertThat(r.cctNs()).isGreaterThanOrEqualTo(Math.round(r.lastFinishNs()));
        assertThat(r.normalised()).isGreaterThanOrEqualTo(1.0);
    }

    /** A chained collective starts when the one it waits for has finished plus the gap, not when its own first flow starts. */
    @Test
    void aChainedCollectiveCountsFromTheInstantItBecameReady() {
        long gap = 5 * Simulation.PS_PER_US;
        FlowGraph g = new FlowGraph();
        CollectiveHandle first = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "ring", 100_000, Placement.contiguous(4)).build());
        // hierarchical over 2 servers of 2: its first fabric flow waits for the intra-server reduce-scatter too
        CollectiveHandle second = Collectives.emit(g, CollectiveSpec.builder("all-reduce", "hierarchical", 100_000,
                Placement.contiguous(4)).ranksPerServer(2).intraServerGBps(1).after(first.done().flowIds()).afterGapPs(gap).build());
        WorkloadDriver d = AfterSentTest.run(g);
        Flow[] f = d.flows();
        long ready = 0, firstStart = Long.MAX_VALUE, lastEnd = 0;
        for (int id : first.lastFlows()) ready = Math.max(ready, f[id].deliveredPs());
        ready += first.tailPs() + gap;
        for (int id = second.firstFlow(); id < second.endFlow(); id++) {
            firstStart = Math.min(firstStart, f[id].startPs());
            lastEnd = Math.max(lastEnd, f[id].deliveredPs());
        }
        assertThat(firstStart).isGreaterThan(ready);
        assertThat(second.tailPs()).isPositive();
        assertThat(d.groupCompletionPs()[second.group()]).isEqualTo(lastEnd + second.tailPs() - ready);
    }
}

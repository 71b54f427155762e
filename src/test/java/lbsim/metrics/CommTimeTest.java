package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/** Communication time is the measure of the union of flow lifetimes. */
class CommTimeTest {
    private static FlowRecord flow(double start, double finish) {
        return new FlowRecord(0, 0, 1, 1, 0, 1, start, finish, finish - start, 0, 0, 0, "");
    }

    @Test
    void unionMatchesANanosecondGridCount() {
        qt().withFixedSeed(3L).withExamples(300)
                .forAll(lists().of(integers().between(0, 500).zip(integers().between(1, 100), (s, d) -> new int[] {s, s + d}))
                        .ofSizeBetween(0, 20))
                .checkAssert(iv -> {
                    boolean[] busy = new boolean[700];
                    List<FlowRecord> fl = new ArrayList<>();
                    for (int[] x : iv) {
                        fl.add(flow(x[0], x[1]));
                        for (int t = x[0]; t < x[1]; t++) busy[t] = true;
                    }
                    int count = 0;
                    for (boolean b : busy) if (b) count++;
                    assertThat(CommTime.ns(fl)).isEqualTo(count);
                });
    }

    @Test
    void aCollectiveCommunicatesForAtMostItsSpanAndTheSummaryReportsIt() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 400000, ranks: 8}
                """);
        double comm = CommTime.ns(r.flows());
        assertThat(comm).isPositive().isLessThanOrEqualTo(r.lastFinishNs());
        assertThat(ResultWriter.summaryJson(r)).contains("\"comm_time_ns\"");
    }
}

package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.experiment.Scenarios;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** summary.json comm_time_ns: the union of the collectives' busy intervals, checked against flows.csv. */
class CommunicationTimeTest {

    @Test
    void oneCollectiveIsItsOwnCompletionTime() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 400000}
                """);
        Scenarios.assertConserved(r);
        assertThat(r.commTimeNs()).isEqualTo(r.cctNs());
        assertThat(ResultWriter.summary(r)).containsEntry("comm_time_ns", r.cctNs());
    }

    @Test
    void nonCollectiveRunsHaveNone() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
                workload: {kind: permutation, size_bytes: 100000}
                """);
        assertThat(r.commTimeNs()).isNull();
        assertThat(ResultWriter.summary(r)).doesNotContainKey("comm_time_ns");
    }

    /** A GPT-2 iteration: many collectives separated by compute gaps; the union recomputed from per-flow records. */
    @Test
    void trainingIterationIsTheUnionOfItsCollectivesIntervals() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 400}
                workload: {kind: training, model: ethereal-gpt2, algorithm: ring}
                """);
        Scenarios.assertConserved(r);
        Map<Integer, double[]> groups = new TreeMap<>();
        for (FlowRecord f : r.flows()) {
            if (f.group() < 0) continue;
            double[] iv = groups.computeIfAbsent(f.group(), g -> new double[] {Double.MAX_VALUE, 0});
            iv[0] = Math.min(iv[0], f.startNs());
            iv[1] = Math.max(iv[1], f.finishNs());
        }
        List<double[]> ivs = new ArrayList<>(groups.values());
        ivs.sort((a, b) -> Double.compare(a[0], b[0]));
        double union = 0, s = -1, e = -1;
        for (double[] iv : ivs) {
            if (iv[0] > e) {
                union += Math.max(0, e - s);
                s = iv[0];
                e = iv[1];
            } else {
                e = Math.max(e, iv[1]);
            }
        }
        union += Math.max(0, e - s);
        assertThat(groups.size()).isGreaterThan(10);
        assertThat((double) r.commTimeNs()).isCloseTo(union, within(1.0));
        // compute gaps separate the collectives: communication is shorter than the iteration, longer than any one collective
        assertThat(r.commTimeNs()).isGreaterThan(r.cctNs()).isLessThan((long) r.lastFinishNs());
    }
}

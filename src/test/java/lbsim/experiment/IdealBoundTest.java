package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** ideal_cct_ns is a lower bound: no run, however latency-bound, finishes below it. */
class IdealBoundTest {
    @Test
    void aLatencyBoundRingInsideRacksStaysAboveItsIdeal() {
        // 16 hosts on 2 leaves: 14 of the 16 ring hops stay inside a rack
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100}
                workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
                """);
        Scenarios.assertConserved(r);
        assertThat(r.cctNs()).isGreaterThanOrEqualTo(r.idealCctNs());
        assertThat(r.normalised()).isLessThan(1.5); // and still a useful bound, not a trivial one
    }

    @Test
    void rackLocalFlowsAreBoundedByTheirOwnShortPath() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100}
                workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 4096}]}
                """);
        assertThat(r.lastFinishNs()).isGreaterThanOrEqualTo(r.idealCctNs());
    }
}

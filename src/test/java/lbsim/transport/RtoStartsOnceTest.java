package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The retransmission timer runs from the last forward progress, not from the last send (RFC
 * 6298 §5.1/5.3). Erasure coding with a rate-based cc keeps sending fresh coded packets while
 * nothing comes back: a timer restarted on every send never expired, so PLB never moved a QP
 * off the dead uplink and the run ended incomplete with 15 021 drops (seeds 1 and 3).
 */
class RtoStartsOnceTest {
    static final String DEAD_UPLINK = """
            name: erasure-dead
            max_time_ms: 5
            topology: {leaves: 2, spines: 2, hosts_per_leaf: 2}
            transport: {cc: dcqcn, loss_recovery: erasure, erasure_overhead: 0.1}
            load_balancer: {scheme: plb}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 200000}, {src: 1, dst: 3, size_bytes: 200000}]}
            failures: [{at_us: 0, link: "leaf0-spine0", kind: down, detect_ms: 100}]
            """;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3})
    void aRateBasedSenderIntoADeadPathTimesOutAndMoves(int seed) {
        RunResult r = Scenarios.run(DEAD_UPLINK, "seed=" + seed);
        Scenarios.assertConserved(r);
        assertThat(r.completed()).as("completed").isTrue();
        // a QP that met the dead uplink lost everything it sent there until its timer moved it
        if (r.packetsDropped() > 0) assertThat(r.timeouts()).as("timeouts").isPositive();
    }
}

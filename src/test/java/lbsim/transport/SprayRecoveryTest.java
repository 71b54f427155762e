package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** Spraying senders on a multipath NIC count SACKed packets out of the window and resend only the holes. */
class SprayRecoveryTest {
    private static final String LOSSY = """
            name: lossy
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4, link_gbps: 100, switch_buffer_bytes: 300000}
            transport: {pfc: false}
            nic: {profile: multipath}
            load_balancer: {scheme: spray-host}
            workload: {kind: permutation, size_bytes: 2000000, concurrent: 2}
            """;

    @Test
    void aLossySprayedRunResendsAboutOnlyWhatWasDropped() {
        for (long seed = 1; seed <= 3; seed++) {
            RunResult r = Runner.run(ScenarioLoader.parse("t", LOSSY, null, List.of(), seed), Runner.Progress.NONE);
            assertThat(r.completed()).isTrue();
            assertThat(r.packetsDropped()).as("the scenario must lose packets").isPositive();
            // Go-Back-N would resend every packet after each hole; selective resend stays near the drop count
            assertThat(r.packetsRetransmitted()).as("seed " + seed).isGreaterThanOrEqualTo(r.packetsDropped() / 2)
                    .isLessThanOrEqualTo(r.packetsDropped() + r.packetsDropped() / 10);
        }
    }

    @Test
    void sprayingOnANonBlockingFabricIsNotWindowLimitedByReordering() {
        String perm = """
                name: perm
                topology: {kind: leaf-spine, leaves: 8, spines: 16, hosts_per_leaf: 16, link_gbps: 100}
                nic: {profile: multipath}
                switch: {ecn_profile: dctcp-hpcc}   # the SACK accounting, not the ECN threshold, is under test
                load_balancer: {scheme: spray-host}
                workload: {kind: permutation, size_bytes: 2000000}
                """;
        RunResult r = Runner.run(ScenarioLoader.parse("t", perm, null, List.of(), null), Runner.Progress.NONE);
        assertThat(r.normalised()).isLessThan(1.25);
    }
}

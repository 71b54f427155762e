package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** The contract every available scheme must meet, and scheme-specific behaviour. */
class SchemeContractTest {
    private static final String FABRIC = """
            name: contract
            topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts_per_leaf: 4, link_gbps: 100}
            workload: {kind: permutation, size_bytes: 400000}
            """;

    private static RunResult run(String... overrides) {
        return Runner.run(ScenarioLoader.parse("t", FABRIC, null, List.of(overrides), null), Runner.Progress.NONE);
    }

    @Test
    void everyContractNameIsBuilt() {
        assertThat(Schemes.available()).containsExactlyElementsOf(Schemes.ALL);
    }

    @Test
    void everySchemeCompletesAndConservesWithAndWithoutPfc() {
        for (String s : Schemes.available()) {
            for (String pfc : List.of("true", "false")) {
                RunResult r = run("load_balancer.scheme=" + s, "transport.pfc=" + pfc);
                assertThat(r.completed()).as(s + " pfc=" + pfc).isTrue();
                assertThat(r.packetsSent()).as(s).isEqualTo(r.packetsDelivered() + r.packetsDropped());
                assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
            }
        }
    }

    @Test
    void sprayingBeatsEcmpOnAPermutationOfAnOversubscribedFabric() {
        // on a NIC that takes sprayed packets out of order (an in-order RoCE receiver goes back on each)
        double ecmp = run("load_balancer.scheme=ecmp", "nic.profile=multipath").lastFinishNs();
        for (String s : List.of("spray-host", "spray-switch", "spray-adaptive", "drill")) {
            assertThat(run("load_balancer.scheme=" + s, "nic.profile=multipath").lastFinishNs()).as(s).isLessThan(ecmp);
        }
    }

    @Test
    void subflowsAndMpRdmaOpenTheirCountOfQpsPerFlow() {
        RunResult sub = run("load_balancer.scheme=subflows", "load_balancer.count=4");
        assertThat(sub.flows()).extracting(FlowRecord::qps).containsOnly(4);
        assertThat(sub.maxQpsPerNic()).isEqualTo(4);
        RunResult mp = run("load_balancer.scheme=mprdma", "load_balancer.splits=8");
        assertThat(mp.flows()).extracting(FlowRecord::qps).containsOnly(8);
        assertThat(run("load_balancer.scheme=ecmp").maxQpsPerNic()).isEqualTo(1);
    }

    @Test
    void aKeyOfAnotherSchemeIsRejected() {
        assertThatThrownBy(() -> ScenarioLoader.parse("t", FABRIC, null, List.of("load_balancer.count=4"), null))
                .isInstanceOf(BadInputException.class).hasMessageContaining("load_balancer.count").hasMessageContaining("unknown key");
        assertThatThrownBy(() -> ScenarioLoader.parse("t", FABRIC, null,
                List.of("load_balancer.scheme=subflows", "load_balancer.count=0"), null))
                .isInstanceOf(BadInputException.class).hasMessageContaining("load_balancer.count");
    }
}

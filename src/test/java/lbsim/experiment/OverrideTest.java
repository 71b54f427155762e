package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code --set} overrides: nested keys, typed values, and list elements by index. */
class OverrideTest {
    private static final String BASE = """
            name: o
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: permutation, size_bytes: 1000}
            failures: [{at_us: 5, link: "leaf0-spine0", kind: degrade, capacity_fraction: 0.5},
                       {at_us: 9, link: "leaf1-spine1", kind: down}]
            """;

    @Test
    void listElementsAreAddressedByIndexInEitherSpelling() {
        Scenario s = Scenarios.parse(BASE, "failures.0.capacity_fraction=0.25", "failures[1].link=leaf1-spine0",
                "topology.spines=3");
        assertThat(s.failures().get(0).capacityFraction()).isEqualTo(0.25);
        assertThat(s.failures().get(1).link()).isEqualTo("leaf1-spine0");
        assertThat(s.topology().build("t").nodeId("spine2")).isPositive();
        Scenario whole = Scenarios.parse(BASE, "failures=[]");
        assertThat(whole.failures()).isEmpty();
    }

    @Test
    void setValuesArriveAsTextButKeepTheirYamlTypes() {
        // --set values are read as YAML, so unquoted numbers and booleans stay numbers and booleans
        Scenario s = Scenarios.parse(BASE, "topology.leaves=4", "transport.pfc=false", "workload.size_bytes=1e6",
                "topology.link_gbps=400", "transport.dctcp_g=0.5", "switch.alpha=2");
        assertThat(s.topology().leaves()).isEqualTo(4);
        assertThat(s.transport().pfc()).isFalse();
        assertThat(s.topology().linkGbps()).isEqualTo(400);
        assertThat(s.transport().dctcpG()).isEqualTo(0.5);
        assertThat(s.switchSpec().alpha()).isEqualTo(2);
        assertThat(s.resolved().get("workload").get("size_bytes").asLong()).isEqualTo(1_000_000);
        assertThat(s.resolved().get("workload").get("size_bytes").isIntegralNumber()).isTrue();
    }

    @Test
    void aMissingElementOrAScalarOnThePathIsBadInputNamingTheKey() {
        assertThatThrownBy(() -> Scenarios.parse(BASE, "failures.2.link=x"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("failures.2").hasMessageContaining("the list has 2");
        assertThatThrownBy(() -> Scenarios.parse(BASE, "failures.link=x"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("failures.link");
        assertThatThrownBy(() -> Scenarios.parse(BASE, "name.first=x"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("name is not a mapping");
    }

    @Test
    void indexingAListTheScenarioDoesNotHaveSaysSo() {
        String noFailures = BASE.substring(0, BASE.indexOf("failures:"));
        assertThatThrownBy(() -> Scenarios.parse(noFailures, "failures.0.link=leaf0-spine0"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--set failures.0.link=leaf0-spine0")
                .hasMessageContaining("test.yaml has no failures list to index into").hasMessageContaining("failures=[");
        assertThatThrownBy(() -> Scenarios.parse(noFailures, "workload.flows[0].dst=1"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("has no workload.flows list to index into");
        // a missing mapping is still created
        assertThat(Scenarios.parse(noFailures, "switch.alpha=0.5").switchSpec().alpha()).isEqualTo(0.5);
    }
}

package lbsim.experiment;

import java.util.List;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;

/** Test helper: parse an inline scenario and run it end to end. */
public final class Scenarios {
    private Scenarios() {}

    public static Scenario parse(String yaml, String... overrides) {
        return ScenarioLoader.parse("test.yaml", yaml, null, List.of(overrides), null);
    }

    public static RunResult run(String yaml, String... overrides) {
        return Runner.run(parse(yaml, overrides), Runner.Progress.NONE);
    }

    /** Bytes sent on one direction of a link ("leaf0" -> "spine1"), summed over bundle members. */
    public static long bytes(RunResult r, String from, String to) {
        long b = 0;
        for (LinkRecord l : r.links()) if (l.from().equals(from) && l.to().equals(to)) b += l.bytes();
        return b;
    }

    public static FlowRecord flow(RunResult r, int id) {
        return r.flows().get(id);
    }

    /** packets sent == delivered + dropped, every flow finished. */
    public static void assertConserved(RunResult r) {
        org.assertj.core.api.Assertions.assertThat(r.completed()).as("run completed: %s", r.warnings()).isTrue();
        org.assertj.core.api.Assertions.assertThat(r.packetsSent())
                .as("data packets sent == delivered + dropped")
                .isEqualTo(r.packetsDelivered() + r.packetsDropped());
        for (FlowRecord f : r.flows()) org.assertj.core.api.Assertions.assertThat(f.fctNs()).as("flow %d fct", f.id()).isPositive();
    }
}

package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lbsim.engine.EventLog;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * events.csv on the README's failure ({@code at_us: 50, link: "leaf0-spine1", kind: down,
 * detect_ms: 100}) on a small fabric: the log holds the failure at its time and the detection
 * exactly detect_ms later, and a flow hashed onto the dead link times out in between.
 */
class EventLogRunTest {
    private static final String README_FAILURE = "failures: [{at_us: 50, link: \"leaf0-spine1\", kind: down, detect_ms: 100}]\n";

    @Test
    void theReadmeFailureIsLoggedAtItsTimeAndDetectedAtItsTime() {
        long seed = FailureTest.seedThroughSpine1();
        RunResult r = Scenarios.run(FailureTest.scenario(seed) + README_FAILURE + "nic: {retry_count: 0}\n");
        List<EventLog.Entry> log = r.eventLog().entries();
        EventLog.Entry down = only(log, "link-down");
        EventLog.Entry detected = only(log, "link-detected");
        assertThat(down.subject()).isEqualTo("leaf0-spine1");
        assertThat(down.timePs()).isEqualTo(50_000_000L);
        assertThat(detected.subject()).isEqualTo("leaf0-spine1");
        assertThat(detected.timePs()).isEqualTo(50_000_000L + 100_000_000_000L);
        assertThat(only(log, "reroute").timePs()).as("the switches' reroute").isEqualTo(detected.timePs());
        // the flow on the dead link times out between failure and detection; each timeout of the run is one row
        List<EventLog.Entry> timeouts = log.stream().filter(e -> e.kind().equals("timeout")).toList();
        assertThat(timeouts).hasSize((int) r.timeouts());
        // (the last packets sent into the dead link before detection time out up to one timeout_us after it)
        assertThat(timeouts).allSatisfy(e -> assertThat(e.timePs()).isBetween(down.timePs(), detected.timePs() + 1_000_000_000L));
        assertThat(timeouts.size()).isGreaterThan(90);
        // rows are in time order
        for (int i = 1; i < log.size(); i++) assertThat(log.get(i).timePs()).isGreaterThanOrEqualTo(log.get(i - 1).timePs());
        assertThat(r.eventLog().overflow()).isEmpty();
    }

    /** With NCCL's retry count the QP gives up long before detection: the log ends with qp-failed and has no detection. */
    @Test
    void aQpThatRunsOutOfRetriesIsLogged() {
        long seed = FailureTest.seedThroughSpine1();
        RunResult r = Scenarios.run(FailureTest.scenario(seed) + README_FAILURE);
        List<EventLog.Entry> log = r.eventLog().entries();
        assertThat(log.get(log.size() - 1).kind()).isEqualTo("qp-failed");
        assertThat(log.get(log.size() - 1).subject()).isEqualTo("qp 0");
        assertThat(log).noneMatch(e -> e.kind().equals("link-detected"));
        assertThat(log.stream().filter(e -> e.kind().equals("timeout")).count()).as("the failing timeout is the qp-failed row")
                .isEqualTo(r.timeouts() - 1);
    }

    @Test
    void aFullKindCountsWhatItLeavesOut() {
        EventLog log = new EventLog(2);
        for (int i = 0; i < 5; i++) log.record(i * 1000L, "timeout", "qp 0", "");
        log.record(9000, "link-down", "l", "");
        assertThat(log.entries()).hasSize(3);
        assertThat(log.overflow()).containsExactly(new EventLog.Overflow("timeout", 3, 4000));
    }

    private static EventLog.Entry only(List<EventLog.Entry> log, String kind) {
        List<EventLog.Entry> of = log.stream().filter(e -> e.kind().equals(kind)).toList();
        assertThat(of).as(kind).hasSize(1);
        return of.get(0);
    }

    /** A link taken down by hand and brought back: link-down, then link-up, and links.csv's state follows. */
    @Test
    void aLinkThatComesBackIsLoggedUp() {
        lbsim.topology.Topology topo = lbsim.topology.LeafSpine.builder(2, 2, 2, 1, 100_000_000_000L, 100_000_000_000L, 1_000_000).build();
        lbsim.engine.Simulation sim = new lbsim.engine.Simulation(1);
        lbsim.net.Network net = new lbsim.net.Network(sim, topo, lbsim.net.SwitchConfig.defaults(), sw -> null);
        int link = topo.linksMatching("leaf0-spine1")[0];
        sim.scheduleAt(1_000, (k, a, o) -> net.setLinkUp(link, false), 0, 0, null);
        sim.scheduleAt(5_000, (k, a, o) -> net.setLinkUp(link, true), 0, 0, null);
        sim.run(2_000);
        assertThat(net.linkState(link)).isEqualTo(lbsim.net.Network.LinkState.DOWN);
        sim.run(10_000);
        assertThat(net.linkState(link)).isEqualTo(lbsim.net.Network.LinkState.UP);
        assertThat(sim.log().entries()).extracting(EventLog.Entry::kind, EventLog.Entry::timePs)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("link-down", 1_000L), org.assertj.core.groups.Tuple.tuple("link-up", 5_000L));
    }
}

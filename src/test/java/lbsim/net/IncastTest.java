package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/**
 * 8-to-1 incast of 1 MB each inside one rack. The burst of eight initial windows (one BDP
 * each, about 117 KB) is far above the switch buffer, so the buffer decides: PFC must
 * pause and lose nothing; without PFC the switch drops and Go-Back-N recovers.
 */
class IncastTest {
    static String incast(long bufferBytes, boolean pfc) {
        StringBuilder flows = new StringBuilder();
        for (int s = 1; s <= 8; s++) {
            flows.append(s > 1 ? ", " : "").append("{src: ").append(s).append(", dst: 0, size_bytes: 1048576, start_ns: 0}");
        }
        return """
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 9, link_gbps: 100,
                           link_latency_ns: 1000, mtu_bytes: 4096, switch_buffer_bytes: %d}
                transport: {cc: dctcp, pfc: %s, timeout_us: 100}
                workload: {kind: flows, flows: [%s]}
                max_time_ms: 200
                """.formatted(bufferBytes, pfc, flows);
    }

    @Test
    void pfcPausesAndDropsNothing() {
        // Leaf0 has 10 ports; the default PFC headroom per ingress port is 2 x link BDP +
        // 2 packets = 33 320 B, 333 200 B in all, so a 600 KB buffer leaves a shared pool.
        RunResult r = Scenarios.run(incast(600_000, true));
        Scenarios.assertConserved(r);
        assertThat(r.packetsDropped()).isZero();
        assertThat(r.packetsRetransmitted()).isZero();
        assertThat(r.timeouts()).isZero();
        assertThat(r.pfcPauses()).isPositive();
        long pausedHostNics = r.links().stream().filter(l -> l.from().startsWith("h") && l.pfcPausesReceived() > 0).count();
        assertThat(pausedHostNics).as("senders' NICs were paused").isPositive();
        for (LinkRecord l : r.links()) assertThat(l.drops()).as(l.link()).isZero();
        // the receiver's port stayed the bottleneck: 8 MB in about 8 MB / 100 Gbps
        double ideal = 8 * 1048576 / 4096.0 * 4160 * 8 / 100;
        assertThat(r.lastFinishNs()).isBetween(ideal, 1.2 * ideal);
    }

    @Test
    void pfcWithABufferSmallerThanItsHeadroomStillCompletes() {
        // 200 KB is less than the headroom PFC would reserve (333 200 B), so XOFF is 0 and every
        // ingress pauses at once, but the packets already in flight (up to 8 x 33 KB) do not
        // fit: losslessness cannot be guaranteed by this configuration and the switch drops
        // what does not fit. Recovery must still deliver everything.
        RunResult r = Scenarios.run(incast(200_000, true));
        Scenarios.assertConserved(r);
        assertThat(r.pfcPauses()).isPositive();
        assertThat(r.warnings()).anyMatch(w -> w.contains("PFC headroom") && w.contains("may be dropped"));
        assertThat(r.packetsDropped()).isEqualTo(r.links().stream().mapToLong(LinkRecord::drops).sum());
    }

    @Test
    void withoutPfcASmallBufferDropsAndRecovers() {
        RunResult r = Scenarios.run(incast(200_000, false));
        Scenarios.assertConserved(r);
        assertThat(r.packetsDropped()).isPositive();
        assertThat(r.packetsRetransmitted()).isPositive();
        assertThat(r.pfcPauses()).isZero();
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
        long toReceiver = r.links().stream().filter(l -> l.from().equals("leaf0") && l.to().equals("h0"))
                .mapToLong(LinkRecord::drops).sum();
        assertThat(toReceiver).as("drops at the congested egress").isPositive();
    }

    @Test
    void aStaticPortBufferWithPfcFillsToItsSizeThenPausesAndLosesNothing() {
        // McClure §4: pause at the buffer size, with headroom for in-flight packets on top
        String yaml = incast(600_000, true).replace("switch_buffer_bytes: 600000", "port_buffer_bytes: 32768");
        RunResult r = Scenarios.run(yaml);
        Scenarios.assertConserved(r);
        assertThat(r.packetsDropped()).isZero();
        assertThat(r.pfcPauses()).isPositive();
        long q = r.links().stream().filter(l -> l.from().equals("leaf0") && l.to().equals("h0"))
                .mapToLong(LinkRecord::maxQueueBytes).max().orElseThrow();
        assertThat(q).isGreaterThanOrEqualTo(32768 - 4160);
    }

    @Test
    void aStaticPortBufferWithPfcKeepsItsHeadroomOnTopSoTheSharedBufferWarningDoesNotApply() {
        // 8400 B per port is a quarter of each ingress's 33 320 B headroom, but the headroom comes on
        // top of the static buffer (nothing is shared): the switch pauses at 8400 B and drops nothing,
        // so a warning that packets in flight after a pause may be dropped would be false
        RunResult r = Scenarios.run(incast(600_000, true).replace("switch_buffer_bytes: 600000", "port_buffer_bytes: 8400"));
        Scenarios.assertConserved(r);
        assertThat(r.pfcPauses()).isPositive();
        assertThat(r.packetsDropped()).isZero();
        assertThat(r.warnings()).noneMatch(w -> w.contains("PFC headroom"));
    }
}

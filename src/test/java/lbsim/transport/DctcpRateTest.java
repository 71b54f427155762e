package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;

/** The rate DCTCP of the HPCC/ConWeave ns-3 model (HandleAckDctcp): one cut per reduction, +1 Gbit/s per clean batch. */
class DctcpRateTest {
    static final long LINE = 100_000_000_000L;

    @Test
    void aMarkCutsTheRateOncePerReductionAndCleanBatchesAddOneGigabit() {
        DctcpRate d = new DctcpRate(100_000, 1.0 / 16, 1.0, LINE);
        assertThat(d.rateBps()).isEqualTo(LINE);
        // first ACK opens the first batch (packets 0..9 in flight), no mark: the rate stays at line rate
        d.onAck(4160, 0, 1, 1, 10);
        assertThat(d.rateBps()).isEqualTo(LINE);
        // a marked ACK: rate x (1 - alpha / 2) with alpha still 1
        d.onAck(4160, 4160, 1, 2, 10);
        assertThat(d.rateBps()).isEqualTo(LINE / 2);
        // more marks before everything sent at the cut (seq 10) is acknowledged: no second cut
        d.onAck(4160, 4160, 1, 5, 12);
        assertThat(d.rateBps()).isEqualTo(LINE / 2);
        // the batch closes (ack 11 > 10): alpha = 15/16 + 1/16 x 2/11 marked; the reduction ends at ack 11 > 10
        d.onAck(4160, 0, 1, 11, 20);
        assertThat(d.alpha()).isCloseTo(15.0 / 16 + 2.0 / 11 / 16, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(d.rateBps()).isEqualTo(LINE / 2 + DctcpRate.RATE_AI_BPS);
        // a window of one BDP caps what is in flight, as the ns-3 configuration's window does
        assertThat(d.windowAllows(100_000 - 4160, 4160)).isTrue();
        assertThat(d.windowAllows(100_000 - 4159, 4160)).isFalse();
    }

    @Test
    void theVariantIsAScenarioKey() {
        String incast = """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
                transport: {cc: dctcp, dctcp_variant: rate}
                workload: {kind: flows, flows: [{src: 1, dst: 0, size_bytes: 2000000}, {src: 2, dst: 0, size_bytes: 2000000},
                                                {src: 5, dst: 0, size_bytes: 2000000}]}
                """;
        var rate = Scenarios.run(incast);
        var window = Scenarios.run(incast.replace("dctcp_variant: rate", "dctcp_variant: window"));
        Scenarios.assertConserved(rate);
        Scenarios.assertConserved(window);
        assertThat(rate.ecnMarked()).isPositive();
        assertThat(rate.lastFinishNs()).isNotEqualTo(window.lastFinishNs());
    }
}

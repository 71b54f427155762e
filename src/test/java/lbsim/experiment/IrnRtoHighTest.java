package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** IRN's RTO_high defaults to the paper's 320 us (algorithms.md §3.2), unless timeout_us or irn_rto_high_us is set. */
class IrnRtoHighTest {
    private static long timeoutUs(String... overrides) {
        return ScenarioLoader.parse("t.yaml", BadInputTest.OK, null, List.of(overrides), null).transport().timeoutUs();
    }

    @Test
    void irnUses320UsUnlessTheUserChoseATimeout() {
        assertThat(timeoutUs("transport.loss_recovery=irn")).isEqualTo(320);
        assertThat(timeoutUs("transport.loss_recovery=irn", "transport.timeout_us=700")).isEqualTo(700);
        assertThat(timeoutUs("transport.loss_recovery=irn", "transport.irn_rto_high_us=250")).isEqualTo(250);
        assertThat(timeoutUs("transport.loss_recovery=irn", "transport.timeout_us=700", "transport.irn_rto_high_us=250"))
                .isEqualTo(250);
        // other loss recoveries keep timeout_us: on the default roce NIC the local ACK timeout NCCL sets, 4.096 us x 2^20
        assertThat(timeoutUs()).isEqualTo(4_294_968);
        assertThat(timeoutUs("transport.irn_rto_high_us=250")).isEqualTo(4_294_968);
        assertThat(timeoutUs("nic.local_ack_timeout=14")).isEqualTo(67_109);
        assertThat(timeoutUs("transport.loss_recovery=tcp")).as("a NIC without a local ACK timeout").isEqualTo(1000);
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        BadInputTest.bad(BadInputTest.OK, "transport.loss_recovery=irn", "transport.irn_rto_high_us=0")
                .hasMessageContaining("transport.irn_rto_high_us").hasMessageContaining("out of range");
        BadInputTest.bad(BadInputTest.OK, "transport.loss_recovery=irn", "transport.timeout_max_us=300")
                .hasMessageContaining("transport.timeout_max_us").hasMessageContaining("irn_rto_high_us (320)");
    }
}

package lbsim.plan;

import lbsim.lb.DnlbPorts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lbsim.BadInputException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class DnlbPlanTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void eightUplinksGiveThePapersRanges() {
        // CTCCL paper 003 §4.1: udf1 = 49152-51199, udf2 = 51200-53247, ..., udf8 = 63488-65535 (Eqs. 1-2)
        assertThat(DnlbPorts.step(8)).isEqualTo(2048.0);
        List<PortRange> ranges = DnlbPlan.ranges(8);
        assertThat(ranges).extracting(PortRange::first)
                .containsExactly(49152, 51200, 53248, 55296, 57344, 59392, 61440, 63488);
        assertThat(ranges).extracting(PortRange::last)
                .containsExactly(51199, 53247, 55295, 57343, 59391, 61439, 63487, 65535);
        assertThat(ranges).extracting(PortRange::aclName).startsWith("udf1", "udf2").endsWith("udf8");
        assertThat(DnlbPlan.range(7, 8)).isEqualTo(new PortRange(7, 63488, 65535));
    }

    @Test
    void eq3SourcePortsOnThePapersEightUplinks() {
        // CTCCL §3.2 Eq. 3: sport = 0xC000 + ((index*nqp + q) * step) mod 16384, step = 2048 for 8 uplinks
        for (int q = 0; q < 8; q++) {
            assertThat(DnlbPorts.sourcePort(0, q, 8, 8)).isEqualTo(49152 + q * 2048);
            assertThat(DnlbPorts.sourcePort(5, q, 8, 8)).isEqualTo(49152 + q * 2048);
        }
        // nqp = 4: NIC 1 continues where NIC 0 stops (k = 4..7), NIC 2 wraps around (k = 8 -> 0)
        assertThat(DnlbPorts.sourcePort(1, 0, 4, 8)).isEqualTo(57344);
        assertThat(DnlbPorts.sourcePort(1, 3, 4, 8)).isEqualTo(63488);
        assertThat(DnlbPorts.sourcePort(2, 1, 4, 8)).isEqualTo(51200);
        // nqp = 2, 4 uplinks (step 4096): index 17 -> k = 34 + q -> uplink 2, 3
        assertThat(DnlbPorts.sourcePort(17, 0, 2, 4)).isEqualTo(0xC000 + 2 * 4096);
        assertThat(DnlbPorts.sourcePort(17, 1, 2, 4)).isEqualTo(0xC000 + 3 * 4096);
    }

    @Test
    void uplinkOfFollowsTheRangeBoundaries() {
        assertThat(DnlbPorts.uplinkOf(49152, 8)).isEqualTo(0);
        assertThat(DnlbPorts.uplinkOf(51199, 8)).isEqualTo(0);
        assertThat(DnlbPorts.uplinkOf(51200, 8)).isEqualTo(1);
        assertThat(DnlbPorts.uplinkOf(63487, 8)).isEqualTo(6);
        assertThat(DnlbPorts.uplinkOf(65535, 8)).isEqualTo(7);
        assertThat(DnlbPorts.uplinkOf(65535, 1)).isEqualTo(0);
        assertThatThrownBy(() -> DnlbPorts.uplinkOf(49151, 8)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("49152..65535");
    }

    @Test
    void sixUplinksSpreadTheRemainderWithoutGapsOrOverlaps() {
        // not a power of two: boundaries 0xC000 + floor(n * 16384 / 6) = +0, 2730, 5461, 8192, 10922, 13653, 16384
        List<PortRange> ranges = DnlbPlan.ranges(6);
        assertThat(ranges).containsExactly(new PortRange(0, 49152, 51881), new PortRange(1, 51882, 54612),
                new PortRange(2, 54613, 57343), new PortRange(3, 57344, 60073), new PortRange(4, 60074, 62804),
                new PortRange(5, 62805, 65535));
        assertThat(ranges).extracting(PortRange::size).containsExactly(2730, 2731, 2731, 2730, 2731, 2731);
        // each QP lands on the first port of the range of (index*nqp + q) mod 6
        assertThat(DnlbPorts.sourcePort(0, 1, 4, 6)).isEqualTo(51882);
        assertThat(DnlbPorts.sourcePort(1, 1, 4, 6)).isEqualTo(62805); // k = 5
        assertThat(DnlbPorts.sourcePort(1, 2, 4, 6)).isEqualTo(49152); // k = 6 -> 0
        assertThat(DnlbPlan.compute(DnlbInput.of(6, 3, 2)).notes())
                .anySatisfy(n -> assertThat(n).contains("4 ranges have 2731 ports and 2 have 2730"));
    }

    /** Eq. 4 holds for 4 NICs x 3 QPs over 8 uplinks, but 12 QPs split 2:1 over them; 4 x 4 is even. */
    @Test
    void unevenQpsPerUplinkAreWarnedAlthoughEq4Holds() {
        DnlbPlan plan = DnlbPlan.compute(DnlbInput.of(8, 4, 3));
        assertThat(plan.leaves().get(0).qpsPerUplink()).containsOnly(1, 2);
        assertThat(plan.warnings()).singleElement().asString().contains("uneven (1 to 2)", "2/1 times", "qps = 4 would be");
        assertThat(plan.render(PlanFormat.TEXT)).contains(": satisfied, but see the warnings below");
        assertThat(DnlbPlan.compute(DnlbInput.of(8, 4, 4)).warnings()).isEmpty();
        assertThat(DnlbPlan.compute(DnlbInput.of(12, 8, 2)).warnings()).singleElement().asString()
                .contains("qps = 3 would be"); // 8 * 3 = 24, the first multiple of 12
    }

    @Test
    void eq4ViolationIsWarnedInEveryFormat() {
        // CTCCL §3.3 Eq. 4: nNIC_leaf * nqp_per_conn >= nlink_up; 1 * 4 < 8
        DnlbPlan plan = DnlbPlan.compute(DnlbInput.of(8, 1, 4));
        assertThat(plan.warnings()).hasSize(1);
        assertThat(plan.warnings().get(0)).contains("Eq. 4").contains("1 * 4 = 4 < nlink_up = 8").contains("--qps 8");
        assertThat(plan.leaves().get(0).qpsPerUplink()).containsExactly(1, 1, 1, 1, 0, 0, 0, 0);
        assertThat(plan.render(PlanFormat.TEXT)).contains("! WARNING: Eq. 4 not satisfied").contains("NOT satisfied");
        JsonNode json = JSON.readTree(plan.render(PlanFormat.JSON));
        assertThat(json.get("eq4").get("satisfied").asBoolean()).isFalse();
        assertThat(json.get("warnings").size()).isEqualTo(1);

        DnlbPlan ok = DnlbPlan.compute(DnlbInput.of(8, 2, 4));
        assertThat(ok.warnings()).isEmpty();
        assertThat(ok.leaves().get(0).qpsPerUplink()).containsOnly(1);
        assertThat(ok.render(PlanFormat.TEXT)).doesNotContain("WARNING");
    }

    @Test
    void nicIndexIsTheHostPartOfTheAddress() {
        DnlbInput in = new DnlbInput(8, 2, 4, 1, null, List.of("10.0.0.17", "10.0.1.18/16"), List.of());
        DnlbPlan plan = DnlbPlan.compute(in);
        assertThat(plan.leaves().get(0).nics()).extracting(DnlbPlan.Nic::index).containsExactly(17L, 256L + 18);
        // index 17, nqp 4: k = 68..71 -> uplinks 4..7
        assertThat(plan.rows().subList(0, 4)).extracting(QpAssignment::uplink).containsExactly(4, 5, 6, 7);
        assertThat(plan.rows().get(0).ip()).isEqualTo("10.0.0.17");
        // 17 and 274 are not consecutive (CTCCL §3.3 asks for a continuously increasing sequence)
        assertThat(plan.warnings()).anySatisfy(w -> assertThat(w).contains("continuously increasing"));
    }

    @Test
    void consecutiveAddressesGiveNoWarning() {
        DnlbInput in = new DnlbInput(4, 2, 2, 2, 26, List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"),
                List.of("100.98.0.10", "100.98.0.14", "100.98.0.18", "100.98.0.22"));
        DnlbPlan plan = DnlbPlan.compute(in);
        assertThat(plan.warnings()).isEmpty();
        assertThat(plan.leaves()).allSatisfy(l -> assertThat(l.qpsPerUplink()).containsOnly(1));
        String config = plan.leafConfig(1);
        assertThat(config).contains("10 permit udp any range 49152 53247 any eq 4791 dscp 26")
                .contains("route-map udf permit 40\n  match ip address udf4\n  set ip next-hop 100.98.0.22\n");
    }

    @Test
    void perLeafNextHopsAndPlaceholders() {
        DnlbInput in = new DnlbInput(2, 1, 2, 2, null, List.of(), List.of("1.1.1.1", "1.1.1.2", "2.2.2.1", "2.2.2.2"));
        DnlbPlan plan = DnlbPlan.compute(in);
        assertThat(plan.leaves().get(1).nextHops()).containsExactly("2.2.2.1", "2.2.2.2");
        assertThat(plan.leafConfig(1)).contains("set ip next-hop 2.2.2.2").doesNotContain("1.1.1.");
        assertThat(DnlbPlan.compute(DnlbInput.of(2, 1, 2)).leafConfig(0))
                .contains("set ip next-hop <leaf0-uplink1-next-hop>");
        assertThat(plan.leafConfig(0)).contains("range 49152 57343 any eq 4791\n");
    }

    @Test
    void rowsAreLeafByLeafWithGlobalNicNumbers() {
        DnlbPlan plan = DnlbPlan.compute(new DnlbInput(4, 2, 3, 2, null, List.of(), List.of()));
        assertThat(plan.rows()).hasSize(2 * 2 * 3);
        QpAssignment last = plan.rows().get(11);
        assertThat(last.leaf()).isEqualTo(1);
        assertThat(last.nic()).isEqualTo(3);
        assertThat(last.qp()).isEqualTo(2);
        // k = 3*3 + 2 = 11 -> uplink 3 -> port 0xC000 + 3*4096
        assertThat(last.sport()).isEqualTo(61440);
        assertThat(last.uplink()).isEqualTo(3);
        String csv = plan.render(PlanFormat.CSV);
        assertThat(csv.split("\n")).hasSize(13);
        assertThat(csv).startsWith("nic,qp,sport,uplink,leaf,nic_index,ip\n").contains("\n3,2,61440,3,1,3,\n");
    }

    @Test
    void renderingIsDeterministic() {
        DnlbInput in = new DnlbInput(6, 3, 5, 3, 10, List.of(), List.of());
        for (PlanFormat f : PlanFormat.values()) {
            assertThat(DnlbPlan.compute(in).render(f)).isEqualTo(DnlbPlan.compute(in).render(f));
        }
    }

    @Test
    void badInputNamesTheOptionAndAllowedValues() {
        assertThatThrownBy(() -> DnlbInput.of(0, 1, 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--uplinks").hasMessageContaining("1..16384");
        assertThatThrownBy(() -> DnlbInput.of(16385, 1, 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--uplinks");
        assertThatThrownBy(() -> DnlbInput.of(8, 0, 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--nics-per-leaf");
        assertThatThrownBy(() -> DnlbInput.of(8, 1, 0)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--qps");
        assertThatThrownBy(() -> new DnlbInput(8, 1, 1, 1, 64, List.of(), List.of()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--dscp").hasMessageContaining("0..63");
        assertThatThrownBy(() -> new DnlbInput(8, 2, 1, 1, null, List.of("10.0.0.1"), List.of()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--nic-ips").hasMessageContaining("2");
        assertThatThrownBy(() -> DnlbPlan.compute(new DnlbInput(8, 1, 8, 1, null, List.of("10.0.0.300"), List.of())))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--nic-ips").hasMessageContaining("0..255");
        assertThatThrownBy(() -> DnlbPlan.compute(new DnlbInput(8, 2, 8, 1, null, List.of("10.0.0.1", "10.0.0.1/24"),
                List.of()))).isInstanceOf(BadInputException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> new DnlbInput(8, 1, 8, 1, null, List.of(), List.of("1.1.1.1")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--next-hops");
        assertThatThrownBy(() -> DnlbPorts.sourcePort(0, 4, 4, 8)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("0..3");
        assertThatThrownBy(() -> PlanFormat.parse("xml")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--format").hasMessageContaining("text, json, csv");
    }
}

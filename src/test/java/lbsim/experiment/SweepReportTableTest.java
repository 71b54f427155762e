package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweep report's table averages a field over the seeds that have it: a null (empty) field is not a 0. */
class SweepReportTableTest {
    static SweepData.Row row(String label, long seed, String p99) {
        return new SweepData.Row(List.of(label), seed, Path.of("unused"), Map.of("flows.fct_ns.p99", p99, "packets.dropped", "0"));
    }

    @Test
    void aFieldNullInSomeSeedsIsAveragedOverTheOthersAndSaysSo() {
        SweepData d = new SweepData("t", List.of("max_time_ms"), List.of(row("a", 1, "3000"), row("a", 2, ""), row("b", 1, ""),
                row("b", 2, ""), row("c", 1, "2000"), row("c", 2, "4000")), 6);
        assertThat(SweepReport.header(d)).containsExactly("max_time_ms", "seeds", "flows.fct.p99 (us)", "packets.dropped");
        assertThat(SweepReport.table(d)).containsExactly(
                List.of("a", "2", "3 (1 of 2 seeds)", "0"),
                List.of("b", "2", "", "0"),
                List.of("c", "2", "3", "0"));
    }
}

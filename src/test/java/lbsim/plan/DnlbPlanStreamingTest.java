package lbsim.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** plan dnlb writes its rows one by one (bounded memory up to MAX_ROWS) and prints the bytes it printed as one tree. */
class DnlbPlanStreamingTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final List<DnlbInput> INPUTS = List.of(
            new DnlbInput(4, 2, 2, 1, 26, null, List.of("100.98.0.10", "100.98.0.14", "100.98.0.18", "100.98.0.22")),
            new DnlbInput(8, 1, 2, 1, null, null, null),
            new DnlbInput(6, 3, 5, 2, null, List.of("10.0.1.18/16", "10.0.1.19/16", "10.0.1.21/16", "10.0.2.1", "10.0.2.2", "10.0.2.3"), null),
            new DnlbInput(16, 4, 32, 3, null, null, null));

    @Test
    void streamedJsonAndCsvAreTheBytesOfOneTree() {
        for (DnlbInput in : INPUTS) {
            DnlbPlan plan = DnlbPlan.compute(in);
            String json = plan.render(PlanFormat.JSON);
            assertThat(json).isEqualTo(PlanRendering.json((ObjectNode) JSON.readTree(json)));
            List<List<String>> rows = new ArrayList<>();
            for (QpAssignment r : plan.rows()) {
                rows.add(List.of(Integer.toString(r.nic()), Integer.toString(r.qp()), Integer.toString(r.sport()),
                        Integer.toString(r.uplink()), Integer.toString(r.leaf()), Long.toString(r.nicIndex()), r.ip() == null ? "" : r.ip()));
            }
            assertThat(plan.render(PlanFormat.CSV)).isEqualTo(PlanRendering.csv(DnlbPlan.CSV_COLUMNS, rows));
            for (PlanFormat f : PlanFormat.values()) {
                java.io.StringWriter w = new java.io.StringWriter();
                plan.render(f, w);
                assertThat(w.toString()).isEqualTo(plan.render(f));
            }
        }
    }

    /** The audit's finding 6: exactly MAX_ROWS rows in JSON ran out of memory (the rows as objects, then as a JSON tree). */
    @Test
    void maxRowsRenderInEveryFormatWithoutHoldingThem() {
        DnlbPlan plan = DnlbPlan.compute(new DnlbInput(16384, 10000, 1000, 1, null, null, null));
        assertThat(plan.rows()).hasSize((int) DnlbInput.MAX_ROWS);
        for (PlanFormat f : new PlanFormat[] {PlanFormat.JSON, PlanFormat.CSV}) {
            Counting out = new Counting();
            plan.render(f, out);
            assertThat(out.chars).as(f.name()).isGreaterThan(DnlbInput.MAX_ROWS * 20);
            assertThat(out.last).as(f.name()).isEqualTo('\n');
        }
    }

    /** Counts what is written and keeps nothing. */
    private static final class Counting extends Writer {
        long chars;
        char last;

        @Override
        public void write(char[] cbuf, int off, int len) {
            chars += len;
            if (len > 0) last = cbuf[off + len - 1];
        }

        @Override
        public void write(String s, int off, int len) {
            chars += len;
            if (len > 0) last = s.charAt(off + len - 1);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}

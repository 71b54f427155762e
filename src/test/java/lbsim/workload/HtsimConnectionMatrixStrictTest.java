package lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The connection-matrix reader refuses, naming the line, what htsim's format does not allow; it never crashes. */
class HtsimConnectionMatrixStrictTest {
    static final String GOOD = """
            Nodes 4
            Connections 3
            Triggers 1
            trigger id 1 barrier count 2
            0->1 id 1 start 0 size 1000 recv_done_trigger 1
            2->3 id 2 start 5 size 1000 send_done_trigger 1
            1->2 id 3 trigger 1 size 500
            """;

    static FlowGraph read(String text) throws Exception {
        return HtsimConnectionMatrix.read(new StringReader(text));
    }

    @Test
    void aBarrierWaitsForItsCount() throws Exception {
        FlowGraph g = read(GOOD);
        assertThat(g.size()).isEqualTo(3);
        assertThat(g.flows().get(2).afterCount()).isEqualTo(2);
        assertThat(read(GOOD.replace("barrier count 2", "barrier count 1")).flows().get(2).afterCount()).isEqualTo(1);
        assertThat(read(GOOD.replace("barrier count 2", "oneshot")).flows().get(2).afterCount()).isEqualTo(1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "Connections 3|Connections 4|'Connections 4' but the file has 3 connection lines",
        "Triggers 1|Triggers 2|'Triggers 2' but the file has 1 trigger lines",
        "barrier count 2|barrier count 3|never fire",
        "barrier count 2|fastest|unknown trigger type 'fastest'",
        "barrier count 2|barrier count 0|count must be >= 1",
        "size 500|size|'size' has no value",
        "size 500|size 500 size 600|'size' is given twice",
        "1->2 id 3 trigger 1|1->2 id 3 start 0 trigger 1|'start' or 'trigger', not both",
        "size 500|size 9223372036854775807|above the largest flow",
        "start 5|start 9223372036854775807|outside [0,",
        "Nodes 4|Nodes 4 5|expected 'Nodes N'",
        "Nodes 4|Nodes 4\\nNodes 8|'Nodes' given twice",
    })
    void malformedFilesAreRefusedNamingWhy(String from, String to, String message) {
        assertThat(GOOD).contains(from);
        assertThatThrownBy(() -> read(GOOD.replace(from, to.replace("\\n", "\n"))))
                .isInstanceOf(HtsimConnectionMatrix.FormatException.class).hasMessageContaining(message);
    }

    @Test
    void aDuplicateTriggerIsRefused() {
        assertThatThrownBy(() -> read(GOOD.replace("Triggers 1\n", "Triggers 2\ntrigger id 1 oneshot\n")))
                .isInstanceOf(HtsimConnectionMatrix.FormatException.class).hasMessageContaining("defined twice");
    }

    /** A 20 000-flow trigger chain listed later-first reads without overflowing the stack, each flow after the one it waits for. */
    @Test
    void aLongTriggerChainListedBackwardsReads() throws Exception {
        int n = 20_000;
        StringBuilder sb = new StringBuilder("Nodes 2\nConnections " + n + "\nTriggers " + (n - 1) + "\n");
        for (int t = 1; t < n; t++) sb.append("trigger id ").append(t).append(" oneshot\n");
        // flow k (k >= 2) starts on trigger k-1, which flow k-1 fires; listed from the last to the first
        for (int k = n; k >= 1; k--) {
            sb.append(k % 2).append("->").append(1 - k % 2).append(" id ").append(k);
            sb.append(k == 1 ? " start 0" : " trigger " + (k - 1)).append(" size 100");
            if (k < n) sb.append(" recv_done_trigger ").append(k);
            sb.append('\n');
        }
        FlowGraph g = read(sb.toString());
        assertThat(g.size()).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            assertThat(g.flows().get(i).label()).isEqualTo("cm id " + (i + 1));
            if (i > 0) assertThat(g.flows().get(i).after()).containsExactly(i - 1);
        }
    }

    @Test
    void aTriggerCycleIsRefused() {
        String cycle = "Nodes 2\nConnections 2\nTriggers 2\ntrigger id 1 oneshot\ntrigger id 2 oneshot\n"
                + "0->1 id 1 trigger 2 size 10 recv_done_trigger 1\n1->0 id 2 trigger 1 size 10 recv_done_trigger 2\n";
        assertThatThrownBy(() -> read(cycle)).isInstanceOf(HtsimConnectionMatrix.FormatException.class).hasMessageContaining("trigger cycle");
    }

    /** Cut anywhere, or with any character replaced, a file either reads or is a FormatException: never another exception. */
    @Test
    void damagedFilesNeverCrashTheReader() {
        String chars = " \n0123456789->idstartsizetrigger#x\t-";
        qt().withExamples(3000).forAll(integers().between(0, GOOD.length() - 1), integers().between(0, chars.length() - 1),
                integers().between(0, 2)).checkAssert((pos, c, how) -> {
            String damaged = switch (how) {
                case 0 -> GOOD.substring(0, pos);
                case 1 -> GOOD.substring(0, pos) + chars.charAt(c) + GOOD.substring(pos + 1);
                default -> GOOD.substring(0, pos) + GOOD.substring(Math.min(GOOD.length(), pos + 1 + c));
            };
            try {
                read(damaged);
            } catch (HtsimConnectionMatrix.FormatException e) {
                assertThat(e.getMessage()).isNotBlank();
            } catch (Exception e) {
                throw new AssertionError("crash on: " + damaged, e);
            }
        });
    }
}

package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.io.StringWriter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The fast CSV formatters write exactly what String.format and FastCSV's writer would. */
class CsvNumbersTest {
    /** String.format's text, but a value that rounds to zero has no sign (String.format writes -0.000). */
    private static String format(double x, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", x).replaceFirst("^-(0\\.?0*)$", "$1");
    }

    private static String viaRows(double x, int decimals) throws Exception {
        StringWriter w = new StringWriter();
        try (CsvRows r = new CsvRows(w)) {
            r.fixed(x, decimals).end();
        }
        return w.toString().stripTrailing();
    }

    @Test
    void fixedDecimalsAreStringFormats() {
        qt().forAll(doubles().between(-1e12, 1e12), integers().between(0, 6)).checkAssert((x, d) -> {
            assertThat(CsvNumbers.fixed(x, d)).isEqualTo(format(x, d));
            try {
                assertThat(viaRows(x, d)).isEqualTo(format(x, d));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        // picosecond times as the writers get them (ps / 1000.0), where binary rounding meets decimal ties
        qt().forAll(longs().between(0, 1L << 50)).checkAssert(ps -> assertThat(CsvNumbers.fixed(ps / 1000.0, 3)).isEqualTo(format(ps / 1000.0, 3)));
        for (double tie : new double[] {0.0005, 0.0015, 2.5e-4, 1.00005, 0.125, -0.0005, 693125.44, 1e16, -1e16 + 0.5}) {
            for (int d = 0; d <= 6; d++) assertThat(CsvNumbers.fixed(tie, d)).as("%s %d", tie, d).isEqualTo(format(tie, d));
        }
        assertThat(CsvNumbers.fixed(Double.NaN, 3)).isEmpty();
    }

    /** Long.MIN_VALUE, whose negation overflows, once got a second separator before it. */
    @Test
    void theSmallestLongIsOneCell() throws Exception {
        StringWriter w = new StringWriter();
        try (CsvRows r = new CsvRows(w)) {
            r.text("").integer(Long.MIN_VALUE).integer(-5).end();
        }
        assertThat(w.toString()).isEqualTo(",-9223372036854775808,-5\n");
    }

    @Test
    void rowsAreFastCsvRows() {
        qt().forAll(strings().allPossible().ofLengthBetween(0, 12), longs().all(), doubles().between(-1e9, 1e9)).checkAssert((s, n, x) -> {
            try {
                StringWriter ours = new StringWriter(), theirs = new StringWriter();
                try (CsvRows r = new CsvRows(ours)) {
                    r.text(s).integer(n).fixed(x, 3).empty().end().row(s, "b");
                }
                try (CsvWriter c = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(theirs)) {
                    c.writeRecord(s, Long.toString(n), format(x, 3), "");
                    c.writeRecord(s, "b");
                }
                assertThat(ours.toString()).isEqualTo(theirs.toString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}

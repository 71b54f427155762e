package lbsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ByteSizeTest {
    private static final List<String> UNITS = new ArrayList<>(ByteSize.UNITS.keySet());

    @Test
    void siUnitsArePowersOfTenAndIecUnitsPowersOfTwo() throws Exception {
        assertThat(ByteSize.parse("1kB")).isEqualTo(1000);
        assertThat(ByteSize.parse("1KiB")).isEqualTo(1024);
        assertThat(ByteSize.parse("2MB")).isEqualTo(2_000_000);
        assertThat(ByteSize.parse("64MiB")).isEqualTo(64L << 20);
        assertThat(ByteSize.parse("1GB")).isEqualTo(1_000_000_000L);
        assertThat(ByteSize.parse("512KiB")).isEqualTo(512L << 10);
        assertThat(ByteSize.parse("8GiB")).isEqualTo(8L << 30);
        assertThat(ByteSize.parse("1.5 MiB")).isEqualTo(3L << 19);
        assertThat(ByteSize.parse("4096")).isEqualTo(4096);
        assertThat(ByteSize.parse("4096B")).isEqualTo(4096);
        assertThat(ByteSize.parse("64mib")).isEqualTo(64L << 20);  // units read without regard to case
    }

    @Test
    void ambiguousUnknownFractionalAndTooLargeCountsAreRefusedSayingTheForms() {
        for (String bad : List.of("64M", "1G", "5 bytes", "MiB", "-1MiB", "0.1KiB", "1e3", "64 Mi B", "")) {
            assertThatThrownBy(() -> ByteSize.parse(bad)).as(bad).isInstanceOf(ByteSize.FormatException.class)
                    .hasMessageContaining("KiB, MiB, GiB").hasMessageContaining("kB, MB, GB");
        }
        assertThatThrownBy(() -> ByteSize.parse("8EiB")).hasMessageContaining("unknown unit 'EiB'");
        assertThatThrownBy(() -> ByteSize.parse("8192PiB")).hasMessageContaining("more bytes than lbsim can count");
        assertThatThrownBy(() -> ByteSize.parse("99999999999999999999")).hasMessageContaining("more bytes than lbsim can count");
    }

    /** Round trip: any value written with any unit reads back as value x unit; nothing that fits is refused. */
    @Test
    void anyValueTimesAnyUnitReadsBackExactly() {
        qt().forAll(integers().between(0, UNITS.size() - 1), longs().between(0, Long.MAX_VALUE)).checkAssert((u, raw) -> {
            String unit = UNITS.get(u);
            long factor = ByteSize.UNITS.get(unit);
            long value = raw / factor;   // the largest values that still fit
            try {
                assertThat(ByteSize.parse(value + unit)).isEqualTo(value * factor);
                assertThat(ByteSize.parse(value + " " + unit.toUpperCase())).isEqualTo(value * factor);
            } catch (ByteSize.FormatException e) {
                throw new AssertionError(e);
            }
            if (value < Long.MAX_VALUE) {
                long over = Long.MAX_VALUE / factor + 1;
                if (factor > 1) assertThatThrownBy(() -> ByteSize.parse(over + unit)).isInstanceOf(ByteSize.FormatException.class);
            }
        });
    }

    @Test
    void formatReadsBackAsTheSameCount() {
        qt().forAll(longs().between(0, Long.MAX_VALUE)).checkAssert(b -> {
            try {
                assertThat(ByteSize.parse(ByteSize.format(b))).isEqualTo(b);
            } catch (ByteSize.FormatException e) {
                throw new AssertionError(e);
            }
        });
        assertThat(ByteSize.format(64L << 20)).isEqualTo("64MiB");
        assertThat(ByteSize.format(1000)).isEqualTo("1000");
        assertThat(Map.of("x", ByteSize.format(0))).containsEntry("x", "0");
    }
}

package lbsim;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A byte count as users write it: a whole number ({@code 4096}) or a number with a unit,
 * SI decimal ({@code kB MB GB TB PB} = 10^3, 10^6, ...) or IEC binary ({@code KiB MiB GiB TiB PiB}
 * = 2^10, 2^20, ...), e.g. {@code 64MiB}, {@code 1GB}, {@code 1.5 MiB}. Units are matched without
 * regard to case; a bare {@code K}, {@code M} or {@code G} is refused because it is ambiguous.
 * The one parser every byte-count key and option uses.
 */
public final class ByteSize {
    private ByteSize() {}

    /** The units and their sizes in bytes, SI then IEC. */
    public static final Map<String, Long> UNITS;

    static {
        Map<String, Long> u = new LinkedHashMap<>();
        long si = 1, iec = 1;
        u.put("B", 1L);
        for (String p : List.of("k", "M", "G", "T", "P")) u.put(p + "B", si *= 1000);
        for (String p : List.of("Ki", "Mi", "Gi", "Ti", "Pi")) u.put(p + "B", iec <<= 10);
        UNITS = Collections.unmodifiableMap(u);
    }

    /** What a byte count may look like, for error messages. */
    public static final String FORMS = "a whole number of bytes (4096) or a number with a unit: SI kB, MB, GB, TB, PB"
            + " (powers of 1000) or IEC KiB, MiB, GiB, TiB, PiB (powers of 1024), e.g. 64MiB, 1GB, 1.5 MiB";

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");

    /** Not a byte count; the message says why (callers prefix the key). */
    public static final class FormatException extends Exception {
        FormatException(String message) {
            super(message);
        }
    }

    /** The bytes {@code text} stands for. */
    public static long parse(String text) throws FormatException {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) throw new FormatException("'" + text + "' is not a byte count; allowed: " + FORMS);
        long unit = unit(m.group(2), text);
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw new FormatException("'" + text + "' is not a whole number of bytes (" + bytes.toPlainString() + "); allowed: " + FORMS);
        }
        BigInteger whole = bytes.toBigIntegerExact();
        if (whole.bitLength() > 63) {
            throw new FormatException("'" + text + "' is more bytes than lbsim can count (at most " + Long.MAX_VALUE + ")");
        }
        return whole.longValueExact();
    }

    private static long unit(String u, String text) throws FormatException {
        if (u.isEmpty()) return 1;
        for (Map.Entry<String, Long> e : UNITS.entrySet()) {
            if (e.getKey().equalsIgnoreCase(u)) return e.getValue();
        }
        throw new FormatException("'" + text + "': unknown unit '" + u + "'; allowed: " + FORMS);
    }

    /** The IEC units from the largest down, for {@link #format}. */
    private static final List<String> IEC_DOWN = List.of("PiB", "TiB", "GiB", "MiB", "KiB");

    /**
     * {@code bytes} in the largest IEC unit that divides it exactly, else the plain number
     * ({@code 67108864} -> {@code 64MiB}, {@code 1000} -> {@code 1000}); {@link #parse} reads it back.
     */
    public static String format(long bytes) {
        if (bytes != 0) {
            for (String u : IEC_DOWN) {
                long f = UNITS.get(u);
                if (bytes % f == 0) return bytes / f + u;
            }
        }
        return Long.toString(bytes);
    }
}

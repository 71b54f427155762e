package lbsim.metrics;

/**
 * Number formats of lbsim's CSV files: each column has one format in every row (whole numbers,
 * or a fixed count of decimals), and a missing value is an empty cell. Formats without
 * String.format, which costs about a microsecond a call (a million-flow flows.csv has 16 million cells).
 */
public final class CsvNumbers {
    private CsvNumbers() {}

    private static final long[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    /**
     * {@code x} with exactly {@code decimals} digits after the point, rounded half away from zero;
     * NaN and negative infinity (missing) as an empty cell. As {@code String.format("%.Nf")} for
     * values below 2^53 / 10^N; larger ones fall back to it.
     */
    public static String fixed(double x, int decimals) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        long scale = POW10[decimals];
        double scaled = Math.abs(x) * scale;
        if (scaled >= 9.0e15) return String.format(java.util.Locale.ROOT, "%." + decimals + "f", x);
        // round the decimal the double stands for, not its binary neighbour: 0.0005 -> 0.001 as String.format does
        long r = Math.round(scaled);
        if (Math.abs(r - scaled) == 0.5) r = new java.math.BigDecimal(Math.abs(x)).setScale(decimals, java.math.RoundingMode.HALF_UP)
                .movePointRight(decimals).longValueExact();
        StringBuilder sb = new StringBuilder(24);
        if (x < 0 && r != 0) sb.append('-');
        sb.append(r / scale);
        if (decimals > 0) {
            sb.append('.');
            String frac = Long.toString(r % scale);
            for (int i = frac.length(); i < decimals; i++) sb.append('0');
            sb.append(frac);
        }
        return sb.toString();
    }

    /** A whole number, or an empty cell for a missing one (negative). */
    public static String countOrEmpty(long x) {
        return x < 0 ? "" : Long.toString(x);
    }
}

package lbsim.metrics;

/**
 * Number formats of lbsim's CSV files: each column has one format in every row (whole numbers,
 * or a fixed count of decimals), and a missing value is an empty cell. Formats without
 * String.format, which costs about a microsecond a call (a million-flow flows.csv has 16 million cells).
 */
public final class CsvNumbers {
    private CsvNumbers() {}

    static final long[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    /**
     * {@code x} with exactly {@code decimals} digits after the point, or an empty cell for NaN
     * and infinities (missing): the same text as {@code String.format("%.Nf")}, which rounds the
     * shortest decimal that prints the double (Double.toString's digits) half up.
     */
    public static String fixed(double x, int decimals) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        if (needsExactRounding(x, decimals)) return exact(x, decimals);
        long scale = POW10[decimals];
        long r = Math.round(Math.abs(x) * scale);
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

    /**
     * Whether rounding {@code |x| x 10^decimals} in binary could differ from String.format: the
     * value lies within a few ulps of a half (a tie in the decimal digits), or is too large for a long.
     */
    static boolean needsExactRounding(double x, int decimals) {
        double scaled = Math.abs(x) * POW10[decimals];
        if (scaled >= 9.0e15) return true;
        double frac = scaled - Math.floor(scaled);
        return Math.abs(frac - 0.5) <= 8 * Math.ulp(scaled);
    }

    /** String.format's rounding: the shortest decimal of the double, half up. */
    static String exact(double x, int decimals) {
        String s = java.math.BigDecimal.valueOf(x).setScale(decimals, java.math.RoundingMode.HALF_UP).toPlainString();
        return s.startsWith("-") && s.matches("-0\\.?0*") ? s.substring(1) : s;
    }

    /** A whole number, or an empty cell for a missing one (negative). */
    public static String countOrEmpty(long x) {
        return x < 0 ? "" : Long.toString(x);
    }
}

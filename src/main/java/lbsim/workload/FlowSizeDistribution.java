package lbsim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * An empirical flow-size distribution given as CDF points (size_bytes, cdf), sampled by
 * inverse transform with linear interpolation of the size between consecutive points (as
 * the HPCC / ConWeave ns-3 traffic generators do). The first point's CDF may be above 0: that
 * mass sits exactly at the first size. Built-in tables: {@link #BUILT_IN} (docs/workloads.md).
 */
public final class FlowSizeDistribution {
    /** Names of the tables shipped as resources under /distributions/NAME.csv. */
    public static final List<String> BUILT_IN = List.of("hadoop", "alicloud", "ml-training");

    /** Bad table contents; the message names the source and line. */
    public static final class FormatException extends Exception {
        FormatException(String message) {
            super(message);
        }
    }

    private final String name;
    private final double[] size;
    private final double[] cdf;
    private final double mean;

    private FlowSizeDistribution(String name, double[] size, double[] cdf) {
        this.name = name;
        this.size = size;
        this.cdf = cdf;
        double m = cdf[0] * size[0];
        for (int i = 1; i < size.length; i++) m += (cdf[i] - cdf[i - 1]) * (size[i] + size[i - 1]) / 2;
        this.mean = m;
    }

    /** A built-in table by name. */
    public static FlowSizeDistribution builtIn(String name) {
        if (!BUILT_IN.contains(name)) throw new IllegalArgumentException("unknown distribution '" + name + "'; built in: " + BUILT_IN);
        try (InputStream in = FlowSizeDistribution.class.getResourceAsStream("/distributions/" + name + ".csv")) {
            if (in == null) throw new IllegalStateException("resource /distributions/" + name + ".csv missing");
            return parse(name, new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException | FormatException e) {
            throw new IllegalStateException("built-in distribution " + name + ": " + e.getMessage(), e);
        }
    }

    /** A user table: CSV {@code size_bytes,cdf} or the ns-3 percent form (see {@link #parse}). */
    public static FlowSizeDistribution file(Path p) throws IOException, FormatException {
        try (Reader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            return parse(p.toString(), r);
        }
    }

    /**
     * Parses a table in either of two forms, told apart by its first row: CSV {@code size_bytes,cdf}
     * rows after an optional header (cdf in [0, 1]), or the percent form of the HPCC / ConWeave ns-3
     * traffic generators, {@code SIZE CDF_PERCENT} separated by spaces (cdf in [0, 100], e.g. their
     * WebSearch, Hadoop and AliStorage tables). '#' starts a comment. Sizes must be positive and
     * non-decreasing, except a percent table's first row of size 0 with cdf 0 (where the ns-3 tables
     * start: the first segment then runs from 0 bytes, a sample is at least 1 byte); CDF values
     * non-decreasing, the last 1.0 (100 in percent).
     */
    public static FlowSizeDistribution parse(String source, Reader reader) throws IOException, FormatException {
        BufferedReader in = new BufferedReader(reader);
        List<double[]> rows = new ArrayList<>();
        String line;
        int no = 0;
        int lastLine = 0;
        Boolean percent = null;   // decided by the first data row
        while ((line = in.readLine()) != null) {
            no++;
            int hash = line.indexOf('#');
            String t = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (t.isEmpty()) continue;
            String at = source + ":" + no + ": ";
            boolean comma = t.indexOf(',') >= 0;
            String[] parts = comma ? t.split("\\s*,\\s*") : t.split("\\s+");
            if (rows.isEmpty() && percent == null && comma && parts.length == 2 && parts[0].equalsIgnoreCase("size_bytes")
                    && parts[1].equalsIgnoreCase("cdf")) {
                percent = false;
                continue;
            }
            if (percent == null) percent = !comma;
            String form = percent ? "SIZE CDF_PERCENT (space-separated, as the ns-3 traffic generators' tables)" : "size_bytes,cdf (CSV)";
            if (percent == comma) throw new FormatException(at + "expected " + form + " as on the first row, got '" + t + "'");
            if (parts.length != 2) throw new FormatException(at + "expected 2 columns " + form + ", got '" + t + "'");
            double s, c;
            try {
                s = Double.parseDouble(parts[0]);
                c = Double.parseDouble(parts[1]);
            } catch (NumberFormatException e) {
                throw new FormatException(at + "not a number in '" + t + "' (expected " + form + ")");
            }
            double top = percent ? 100 : 1;
            boolean zeroStart = percent && rows.isEmpty() && s == 0 && c == 0;   // the ns-3 tables' first row "0 0"
            if (!(s > 0 || zeroStart) || Double.isInfinite(s)) {
                throw new FormatException(at + (percent ? "SIZE must be positive (or 0 with cdf 0 on the first row), got "
                        : "size_bytes must be positive, got ") + parts[0]);
            }
            if (!(c >= 0 && c <= top)) throw new FormatException(at + "cdf must be in [0, " + (percent ? "100" : "1") + "], got " + parts[1]);
            c /= top;
            if (!rows.isEmpty()) {
                double[] prev = rows.get(rows.size() - 1);
                if (s < prev[0]) throw new FormatException(at + "size_bytes " + parts[0] + " is below the previous row's " + fmt(prev[0]));
                if (c < prev[1]) throw new FormatException(at + "cdf " + parts[1] + " is below the previous row's " + fmt(prev[1]) + " (must be monotone)");
            }
            rows.add(new double[] {s, c});
            lastLine = no;
        }
        if (rows.isEmpty()) throw new FormatException(source + ": no rows (expected size_bytes,cdf lines)");
        double lastCdf = rows.get(rows.size() - 1)[1];
        if (Math.abs(lastCdf - 1.0) > 1e-9) {
            throw new FormatException(source + ":" + lastLine + ": the last cdf must be " + (Boolean.TRUE.equals(percent)
                    ? "100 (percent), got " + fmt(lastCdf * 100) : "1.0, got " + fmt(lastCdf)));
        }
        double[] size = new double[rows.size()];
        double[] cdf = new double[rows.size()];
        for (int i = 0; i < size.length; i++) {
            size[i] = rows.get(i)[0];
            cdf[i] = rows.get(i)[1];
        }
        cdf[cdf.length - 1] = 1.0;
        return new FlowSizeDistribution(source, size, cdf);
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%s", x);
    }

    public String name() {
        return name;
    }

    /** Mean of the interpolated distribution in bytes (before rounding to whole bytes). */
    public double meanBytes() {
        return mean;
    }

    public double maxBytes() {
        return size[size.length - 1];
    }

    /** P(X <= x) of the interpolated distribution. */
    public double cdfAt(double x) {
        if (x < size[0]) return 0;
        if (x >= size[size.length - 1]) return 1;
        int i = 1;
        while (size[i] <= x) i++;
        // size[i-1] <= x < size[i]
        return cdf[i - 1] + (cdf[i] - cdf[i - 1]) * (x - size[i - 1]) / (size[i] - size[i - 1]);
    }

    /** The size at quantile u in [0, 1): inverse CDF, linear in size between points. */
    public double quantile(double u) {
        if (u <= cdf[0]) return size[0];
        int lo = 0, hi = cdf.length - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) lo = mid;
            else hi = mid;
        }
        // cdf[lo] < u <= cdf[hi]
        double span = cdf[hi] - cdf[lo];
        return size[lo] + (size[hi] - size[lo]) * (u - cdf[lo]) / span;
    }

    /** One flow size in whole bytes, at least 1. */
    public long sample(SplittableRandom rnd) {
        return Math.max(1, Math.round(quantile(rnd.nextDouble())));
    }
}

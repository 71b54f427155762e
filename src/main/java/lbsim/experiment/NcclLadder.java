package lbsim.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message sizes an NCCL-tests command line sweeps ({@code -b 8 -e 8G -f 2}), for a sweep grid
 * ({@code workload.size_bytes: {nccl_ladder: "-b 8 -e 8G -f 2"}}). As nccl-tests' parser does: sizes
 * are a number with an optional K, M or G in powers of 1024 (nccl-tests' common.cu notes it uses the
 * binary system); the sizes run from {@code -b} (minbytes) while at most {@code -e} (maxbytes),
 * multiplied by {@code -f} (stepfactor) when it is above 1, else increased by {@code -i} (stepbytes);
 * defaults as in nccl-tests: -b 32M, -e 32M, -i 1M, -f 1.
 */
public final class NcclLadder {
    private NcclLadder() {}

    /** Most sizes a ladder may name (a ladder of 1-byte steps up to gigabytes is a typo). */
    public static final int MAX_SIZES = 10_000;

    private static final String OPTIONS = "-b/--minbytes, -e/--maxbytes, -f/--stepfactor, -i/--stepbytes";
    private static final Pattern SIZE = Pattern.compile("([0-9]*\\.?[0-9]+)\\s*([kKmMgG]?)");

    /** The sizes in bytes; IllegalArgumentException says what is wrong. */
    public static long[] sizes(String args) {
        long min = 32L << 20, max = 32L << 20, step = 1L << 20, factor = 1;
        String[] w = args.isBlank() ? new String[0] : args.trim().split("\\s+");
        for (int i = 0; i < w.length; i++) {
            String opt = w[i], value;
            int eq = opt.indexOf('=');
            if (opt.startsWith("--") && eq > 0) {
                value = opt.substring(eq + 1);
                opt = opt.substring(0, eq);
            } else if (opt.length() > 2 && opt.startsWith("-") && !opt.startsWith("--")) {
                value = opt.substring(2);   // -b8 as getopt takes it
                opt = opt.substring(0, 2);
            } else {
                if (i + 1 >= w.length) throw new IllegalArgumentException("option " + opt + " has no value");
                value = w[++i];
            }
            switch (opt) {
                case "-b", "--minbytes" -> min = size(opt, value);
                case "-e", "--maxbytes" -> max = size(opt, value);
                case "-i", "--stepbytes" -> step = size(opt, value);
                case "-f", "--stepfactor" -> {
                    if (!value.matches("[0-9]{1,9}")) throw new IllegalArgumentException(opt + " " + value + ": expected a whole number");
                    factor = Long.parseLong(value);
                }
                default -> throw new IllegalArgumentException("'" + opt + "' is not a size option; allowed: " + OPTIONS
                        + " (e.g. \"-b 8 -e 8G -f 2\"); give the other nccl-tests options as scenario keys");
            }
        }
        if (min < 1) throw new IllegalArgumentException("-b must be at least 1 byte");
        if (max < min) throw new IllegalArgumentException("-e " + max + " is below -b " + min + ": no sizes");
        if (factor <= 1 && step < 1) throw new IllegalArgumentException("-i must be at least 1 byte when -f is 1");
        List<Long> out = new ArrayList<>();
        for (long s = min; s <= max; ) {
            if (out.size() == MAX_SIZES) throw new IllegalArgumentException("more than " + MAX_SIZES + " sizes; use a larger -f or -i");
            out.add(s);
            long next = factor > 1 ? s * factor : s + step;
            if (next <= s || (factor > 1 && next / factor != s)) break;   // overflow: past any maxbytes
            s = next;
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    private static long size(String opt, String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) throw new IllegalArgumentException(opt + " " + value + ": expected a size like 8, 512K, 128M or 8G (K, M, G = 1024, 1024^2, 1024^3)");
        int shift = switch (m.group(2).toUpperCase(java.util.Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        BigDecimal b = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
        if (b.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 16)) > 0) throw new IllegalArgumentException(opt + " " + value + " is too large");
        return b.longValue();   // nccl-tests keeps the whole bytes of a fractional size (size_t of a double)
    }
}

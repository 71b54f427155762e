package lbsim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The HPCC / ConWeave ns-3 {@code flow.txt}: a line with the flow count, then one line per flow,
 * {@code SRC DST PRIORITY DPORT SIZE START} (HPCC) or {@code SRC DST PRIORITY SIZE START} (ConWeave's
 * traffic generator), sizes in bytes, start times in seconds. SRC and DST are ns-3 node ids.
 * As ns-3 does, the reader stops after the declared count; {@link #linesAfter} counts what it left.
 */
public final class Ns3FlowFile {
    /** One flow line; {@code line} is 1-based. */
    public record Entry(int src, int dst, long sizeBytes, long startPs, int line) {}

    /** Bad contents; the message names the line and what was expected. */
    public static final class FormatException extends Exception {
        FormatException(String message) {
            super(message);
        }
    }

    private static final String FORM = "'SRC DST PRIORITY DPORT SIZE START_S' (HPCC, e.g. '2 1 3 100 200000000 2')"
            + " or 'SRC DST PRIORITY SIZE START_S' (ConWeave, e.g. '0 5 3 1460 2.000012')";

    private final List<Entry> entries;
    private final int linesAfter;

    private Ns3FlowFile(List<Entry> entries, int linesAfter) {
        this.entries = entries;
        this.linesAfter = linesAfter;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** Non-blank lines after the declared flows, which ns-3 does not read either. */
    public int linesAfter() {
        return linesAfter;
    }

    public static Ns3FlowFile read(Reader reader) throws IOException, FormatException {
        BufferedReader in = new BufferedReader(reader);
        String line;
        int no = 0;
        long declared = -1;
        List<Entry> out = new ArrayList<>();
        int after = 0;
        while ((line = in.readLine()) != null) {
            no++;
            String t = line.trim();
            if (t.isEmpty()) continue;
            if (declared < 0) {
                if (!t.matches("[0-9]{1,9}")) throw new FormatException("line " + no + ": expected the flow count (a whole number), got '" + t + "'");
                declared = Long.parseLong(t);
                continue;
            }
            if (out.size() == declared) {
                after++;
                continue;
            }
            out.add(entry(t.split("\\s+"), no, t));
        }
        if (declared < 0) throw new FormatException("empty; expected a flow count line, then " + FORM);
        if (out.size() < declared) {
            throw new FormatException("line 1 declares " + declared + " flows but the file has " + out.size() + "; expected " + FORM);
        }
        return new Ns3FlowFile(out, after);
    }

    private static Entry entry(String[] w, int no, String text) throws FormatException {
        if (w.length != 5 && w.length != 6) throw new FormatException("line " + no + ": expected " + FORM + ", got '" + text + "'");
        int src = id(w[0], "SRC", no, text), dst = id(w[1], "DST", no, text);
        id(w[2], "PRIORITY", no, text);
        if (w.length == 6) id(w[3], "DPORT", no, text);
        String sizeText = w[w.length - 2], startText = w[w.length - 1];
        if (!sizeText.matches("[0-9]{1,18}") || Long.parseLong(sizeText) < 1) {
            throw new FormatException("line " + no + ": SIZE '" + sizeText + "' must be a whole number of bytes >= 1, in '" + text + "'");
        }
        if (src == dst) throw new FormatException("line " + no + ": SRC and DST are the same node (" + src + ") in '" + text + "'");
        BigDecimal start;
        try {
            start = new BigDecimal(startText);
        } catch (NumberFormatException e) {
            throw new FormatException("line " + no + ": START '" + startText + "' is not a time in seconds, in '" + text + "'");
        }
        if (start.signum() < 0 || start.compareTo(BigDecimal.valueOf(1_000_000)) > 0) {
            throw new FormatException("line " + no + ": START " + startText + " s is outside 0 .. 10^6 s, in '" + text + "'");
        }
        long ps = start.movePointRight(12).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
        return new Entry(src, dst, Long.parseLong(sizeText), ps, no);
    }

    private static int id(String token, String what, int no, String text) throws FormatException {
        if (!token.matches("[0-9]{1,9}")) throw new FormatException("line " + no + ": " + what + " '" + token + "' is not a whole number, in '" + text + "'");
        return Integer.parseInt(token);
    }
}

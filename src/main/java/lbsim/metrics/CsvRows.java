package lbsim.metrics;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes CSV rows cell by cell straight into a character buffer: numbers are formatted in place,
 * without a String per cell, for files of millions of rows (flows.csv of a million flows is 16
 * million cells). Same output as FastCSV's writer with its defaults: comma, LF, and a text field
 * quoted only when it holds a comma, a quote, CR or LF (quotes doubled).
 */
public final class CsvRows implements AutoCloseable {
    private final Writer out;
    private final char[] buf = new char[1 << 16];
    private int pos;
    private boolean rowStarted;

    public CsvRows(Writer out) {
        this.out = out;
    }

    /** A header or other row of text cells. */
    public CsvRows row(String... cells) throws IOException {
        for (String c : cells) text(c);
        return end();
    }

    private void separator() throws IOException {
        if (pos + 24 > buf.length) flushBuffer();
        if (rowStarted) buf[pos++] = ',';
        rowStarted = true;
    }

    /** A whole number. */
    public CsvRows integer(long x) throws IOException {
        if (x == Long.MIN_VALUE) return raw(Long.toString(x)); // its negation overflows; raw() writes the separator
        separator();
        if (x < 0) {
            buf[pos++] = '-';
            x = -x;
        }
        digits(x);
        return this;
    }

    /** A whole number, or an empty cell when it is negative (missing). */
    public CsvRows integerOrEmpty(long x) throws IOException {
        if (x < 0) return empty();
        return integer(x);
    }

    public CsvRows empty() throws IOException {
        separator();
        return this;
    }

    /** {@code x} with exactly {@code decimals} digits after the point, as {@link CsvNumbers#fixed}; NaN or infinite: an empty cell. */
    public CsvRows fixed(double x, int decimals) throws IOException {
        if (Double.isNaN(x) || Double.isInfinite(x)) return empty();
        if (CsvNumbers.needsExactRounding(x, decimals)) return raw(CsvNumbers.exact(x, decimals));   // rare: a decimal tie
        long scale = CsvNumbers.POW10[decimals];
        long r = Math.round(Math.abs(x) * scale);
        separator();
        if (x < 0 && r != 0) buf[pos++] = '-';
        digits(r / scale);
        if (decimals > 0) {
            buf[pos++] = '.';
            long frac = r % scale;
            for (long p = scale / 10; p > 0; p /= 10) {
                buf[pos++] = (char) ('0' + frac / p);
                frac %= p;
            }
        }
        return this;
    }

    /** A text cell, quoted when it must be. */
    public CsvRows text(String s) throws IOException {
        boolean quote = false;
        for (int i = 0, n = s.length(); i < n && !quote; i++) {
            char c = s.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) return raw(s);
        return raw('"' + s.replace("\"", "\"\"") + '"');
    }

    private CsvRows raw(String s) throws IOException {
        separator();
        if (pos + s.length() > buf.length) flushBuffer();
        if (s.length() > buf.length) {
            out.write(s);
        } else {
            s.getChars(0, s.length(), buf, pos);
            pos += s.length();
        }
        return this;
    }

    /** Ends the row. */
    public CsvRows end() throws IOException {
        if (pos + 1 > buf.length) flushBuffer();
        buf[pos++] = '\n';
        rowStarted = false;
        return this;
    }

    private void digits(long x) {
        int n = 1;
        for (long t = x; t >= 10; t /= 10) n++;
        for (int i = pos + n - 1; i >= pos; i--) {
            buf[i] = (char) ('0' + x % 10);
            x /= 10;
        }
        pos += n;
    }

    private void flushBuffer() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
    }

    /** Writes what is buffered; the writer stays open. */
    @Override
    public void close() throws IOException {
        flushBuffer();
        out.flush();
    }
}

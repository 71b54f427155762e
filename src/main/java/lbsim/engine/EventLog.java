package lbsim.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's log of things a user wants to see on a time axis (events.csv): link failures and
 * their detection, reroutes, retransmission timeouts, QPs that gave up. Not the engine's event
 * queue: an entry is recorded by the component it happened in, at the simulated time.
 *
 * <p>Each kind keeps at most {@link #maxPerKind} rows so a run with millions of timeouts keeps a
 * bounded file; past that a kind only counts, and {@link #overflow} reports how many rows it
 * left out and the time of the last one. Callers ask {@link #room} before building the strings
 * of a row, so a full kind costs a counter increment and no allocation.
 */
public final class EventLog {
    /** Rows kept per kind by default. */
    public static final int DEFAULT_MAX_PER_KIND = 10_000;

    /** One row: when, what kind, what it happened to (a link, a QP), and a free-text detail. */
    public record Entry(long timePs, String kind, String subject, String detail) {}

    /** A kind whose rows ran past the cap: rows left out, and the time of the last one left out. */
    public record Overflow(String kind, long omitted, long lastPs) {}

    private final int maxPerKind;
    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, long[]> counts = new LinkedHashMap<>();   // kind -> {kept, omitted, last omitted ps}

    public EventLog() {
        this(DEFAULT_MAX_PER_KIND);
    }

    public EventLog(int maxPerKind) {
        if (maxPerKind < 0) throw new IllegalArgumentException("maxPerKind < 0: " + maxPerKind);
        this.maxPerKind = maxPerKind;
    }

    public int maxPerKind() {
        return maxPerKind;
    }

    /**
     * Whether a row of {@code kind} at {@code timePs} will be kept; when not, it is counted as
     * left out. Call {@link #add} only after true.
     */
    public boolean room(String kind, long timePs) {
        long[] c = counts.computeIfAbsent(kind, k -> new long[3]);
        if (c[0] < maxPerKind) return true;
        c[1]++;
        c[2] = timePs;
        return false;
    }

    /** Records a row; {@link #room} must have said there is room for its kind. */
    public void add(long timePs, String kind, String subject, String detail) {
        counts.computeIfAbsent(kind, k -> new long[3])[0]++;
        entries.add(new Entry(timePs, kind, subject, detail));
    }

    /** {@link #room} then {@link #add}: for rare events whose strings cost nothing worth saving. */
    public void record(long timePs, String kind, String subject, String detail) {
        if (room(kind, timePs)) add(timePs, kind, subject, detail);
    }

    /** The rows kept, in the order recorded (simulated time order). */
    public List<Entry> entries() {
        return Collections.unmodifiableList(entries);
    }

    /** Per kind that ran past the cap, what was left out; in the order the kinds first appeared. */
    public List<Overflow> overflow() {
        List<Overflow> out = new ArrayList<>();
        counts.forEach((k, c) -> {
            if (c[1] > 0) out.add(new Overflow(k, c[1], c[2]));
        });
        return out;
    }
}

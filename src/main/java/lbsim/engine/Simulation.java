package lbsim.engine;

import java.math.BigInteger;

/**
 * One simulation run: the clock (picoseconds), the event queue and the named random
 * streams. An instance, never a static, so several runs can share a JVM.
 */
public final class Simulation {
    public static final long PS_PER_NS = 1_000L;
    public static final long PS_PER_US = 1_000_000L;
    public static final long PS_PER_MS = 1_000_000_000L;
    public static final long PS_PER_S = 1_000_000_000_000L;

    /**
     * Bytes a link of {@code rateBps} carries in {@code ps}: ps x rate / 8e12, rounded down, at most
     * Long.MAX_VALUE / 4 (so twice it plus a few packets still fits). The product is taken exactly:
     * in ps x bit/s it exceeds a long from about 23 us at 400 Gb/s (a long link, or a 3-tier
     * fabric's round trip) and used to wrap around.
     */
    public static long bytesAtRate(long ps, long rateBps) {
        long lo = ps * rateBps;
        if (Math.multiplyHigh(ps, rateBps) == 0 && lo >= 0) return Math.min(lo / (8 * PS_PER_S), Long.MAX_VALUE / 4); // fits: no BigInteger (once per port at set-up)
        BigInteger b = BigInteger.valueOf(ps).multiply(BigInteger.valueOf(rateBps)).divide(BigInteger.valueOf(8 * PS_PER_S));
        return b.min(BigInteger.valueOf(Long.MAX_VALUE / 4)).longValue();
    }

    /**
     * Picoseconds to serialise {@code bytes} at {@code rateBps}: bytes x 8e12 / rate, rounded down,
     * exact also where bytes x 8e12 passes a long (above 1.15 MB). For set-up arithmetic; a port's
     * per-packet serialisation keeps its own cheaper form (Port.serializationPs).
     */
    public static long serialisationPs(long bytes, long rateBps) {
        long bits = 8 * PS_PER_S;
        if (bytes <= Long.MAX_VALUE / bits) return bytes * bits / rateBps;
        return BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(bits)).divide(BigInteger.valueOf(rateBps)).longValueExact();
    }

    private final EventQueue queue = new EventQueue(1 << 16);
    private final RandomStreams random;
    private long now;
    private long events;
    private boolean stopRequested;
    private boolean lookahead = true;
    private final EventLog log = new EventLog();

    public Simulation(long seed) {
        this.random = new RandomStreams(seed);
    }

    public long now() {
        return now;
    }

    /** Events run so far, as of the last return from {@link #run} (the loop counts in a local). */
    public long eventsProcessed() {
        return events;
    }

    public RandomStreams random() {
        return random;
    }

    /** The run's log of user-visible events (failures, detection, timeouts; events.csv). */
    public EventLog log() {
        return log;
    }

    public int pendingEvents() {
        return queue.size();
    }

    public void schedule(long delayPs, EventHandler h, int kind, long arg, Object obj) {
        if (delayPs < 0) throw new IllegalArgumentException("negative delay " + delayPs);
        queue.add(now + delayPs, h, kind, arg, obj);
    }

    public void scheduleAt(long timePs, EventHandler h, int kind, long arg, Object obj) {
        if (timePs < now) throw new IllegalArgumentException("event in the past: " + timePs + " < " + now);
        queue.add(timePs, h, kind, arg, obj);
    }

    /** Schedules an owned event record (see {@link EventQueue.Ev}) that is not pending now. */
    public void scheduleOwned(EventQueue.Ev e, long timePs) {
        if (timePs < now) throw new IllegalArgumentException("event in the past: " + timePs + " < " + now);
        queue.addOwned(e, timePs);
    }

    /** Asks the loop to return after the current event. */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Whether the loop has the next event's handler touch what it will read first before the
     * current event runs ({@link HotEventHandler#prefetch}). That overlaps cache misses when the
     * network's state outgrows the caches and only costs when it fits (k=8 fat-tree: 4.7 % slower
     * with it, k=16: 1.7 % faster, k=32: about equal; docs/speed.md). On by default; the network
     * sets it by its size.
     */
    public void setLookahead(boolean on) {
        lookahead = on;
    }

    public boolean lookahead() {
        return lookahead;
    }

    /**
     * Runs events until the queue is empty, stop() is called, or the next event is later
     * than {@code untilPs}. Returns true when the queue ran empty.
     */
    public boolean run(long untilPs) {
        stopRequested = false;
        EventQueue q = queue;
        boolean look = lookahead;
        long count = events;   // counted in a local and stored on return: no memory update per event
        while (true) {
            EventQueue.Ev e = q.popNotAfter(untilPs);
            if (e == null) {
                events = count;
                if (q.isEmpty()) return true;
                now = untilPs;
                return false;
            }
            now = e.time;
            count++;
            EventHandler h = e.handler;
            int kind = e.kind;
            long arg = e.arg;
            Object o = e.obj;
            q.recycle(e);
            if (look) {
                EventQueue.Ev m = q.min;
                if (m.handler instanceof HotEventHandler next) next.prefetch(m.kind);
            }
            if (h instanceof HotEventHandler hot) hot.onEvent(kind, arg, o);
            else h.onEvent(kind, arg, o);
            if (stopRequested) {
                events = count;
                return q.isEmpty();
            }
        }
    }
}

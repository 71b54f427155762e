package lbsim.engine;

import java.util.Arrays;

/**
 * Pending events ordered by (time, insertion sequence): equal times pop in insertion order,
 * which makes runs deterministic.
 *
 * <p>Two levels. Almost every event of a packet simulation is due within a few microseconds
 * (serialisation, propagation), so events inside a sliding window of {@link #BUCKETS} buckets
 * of {@link #WIDTH} ps go into a timing wheel: bucket = (time / WIDTH) mod BUCKETS, each
 * bucket a list sorted by (time, sequence), and a bitmap of non-empty buckets to find the
 * first one. Events outside the window (timeouts, far timers), and inserts that would land
 * deep inside a crowded bucket, go into a binary heap. The
 * minimum is the smaller of the first wheel entry and the heap top, so the order is exact.
 * The window starts at the bucket of the last popped event: every wheel entry is at or after
 * it and less than one window later, so scanning the wheel from there is scanning in time.
 * Event records are pooled, so a steady-state run allocates nothing.
 */
public final class EventQueue {
    static final int SHIFT = 8;
    /** Bucket width in ps (256 ps): at 1024 hosts 1 ns buckets were 25% slower (longer sorted inserts); 4-16 ns were slower at 128 hosts. */
    static final long WIDTH = 1L << SHIFT;
    static final int BUCKETS = 1 << 14;
    private static final int MASK = BUCKETS - 1;
    /** Wheel window in ps (4.2 us). */
    static final long HORIZON = (long) BUCKETS << SHIFT;

    /** Longest walk into a bucket's sorted list before an insert goes to the heap. */
    static final int MAX_WALK = 4;

    /**
     * One pending event. Records are pooled, or owned by a component that never has more than
     * one of that kind pending (a port's end of serialisation): an owned record sits next to its
     * owner in memory and skips the pool. A {@link HotEventHandler} is itself the owned record
     * of its most frequent event, so popping that event reads the handler's own first cache line.
     */
    public static class Ev {
        long time;
        long seq;
        Ev next;
        EventHandler handler;
        int kind;
        long arg;
        Object obj;
        final boolean owned;

        Ev() {
            owned = false;
        }

        /** A record owned by {@code handler} for events of {@code kind}, without an argument; schedule it with {@link Simulation#scheduleOwned}. */
        public Ev(EventHandler handler, int kind) {
            this.handler = handler;
            this.kind = kind;
            this.owned = true;
        }

        /** The record of a handler that is its own record (see {@link HotEventHandler}). */
        Ev(int kind) {
            this.handler = (EventHandler) this;
            this.kind = kind;
            this.owned = true;
        }
    }

    // head of bucket b at [2b], its tail at [2b + 1]: one cache line per bucket touched
    private final Ev[] ends = new Ev[2 * BUCKETS];
    private final long[] occupied = new long[BUCKETS >>> 6];
    private int wheelCount;
    private long base;            // bucket-aligned start of the wheel window

    private Ev[] heap;            // events outside the window
    private int heapSize;
    private long heapTopTime = Long.MAX_VALUE;   // heap[0].time, MAX_VALUE when empty: most pops need not load heap[0]

    private Ev free;
    private long recordsAllocated;   // pooled records ever created: bounded by the most events pending at once
    private long nextSeq;

    // Stands for "no event" where the minimum is kept, so that field is never null: reading it
    // needs no null check (compiled code turns a null check that never fails into a hardware
    // trap, which the queue running empty at the end of every run would take, and which crashes
    // the JVM under valgrind). Its time is the largest, so no real event is later.
    private static final EventHandler NO_EVENT = (k, a, o) -> {
        throw new IllegalStateException("no event");
    };
    private static final Ev NONE = new Ev(NO_EVENT, 0);
    static {
        NONE.time = Long.MAX_VALUE;
    }

    // The earliest event, NONE when empty: kept by every insert and found again right after every
    // pop, so the next event's record loads while this event runs (the loop also reads its
    // handler and kind for HotEventHandler.prefetch).
    Ev min = NONE;

    // The event most recently popped, read by the simulation loop.
    long poppedTime;
    EventHandler poppedHandler;
    int poppedKind;
    long poppedArg;
    Object poppedObj;

    public EventQueue(int initialCapacity) {
        heap = new Ev[Math.max(16, Math.min(initialCapacity, 1 << 12))];
    }

    public int size() {
        return wheelCount + heapSize;
    }

    /** Pooled event records created so far (records are reused, so this stops growing once a run is in steady state). */
    public long recordsAllocated() {
        return recordsAllocated;
    }

    public boolean isEmpty() {
        return wheelCount + heapSize == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    public long peekTime() {
        return min.time;
    }

    public void add(long t, EventHandler h, int k, long a, Object o) {
        Ev e = free;
        if (e != null) {
            free = e.next;
        } else {
            e = new Ev();
            recordsAllocated++;
        }
        e.handler = h;
        e.kind = k;
        e.arg = a;
        e.obj = o;
        insert(e, t);
    }

    /**
     * Schedules an owned record (not pending) at {@code t}. Owned records carry no argument (their
     * obj stays null): storing one would cost a GC card mark on every schedule, the most frequent
     * reference store of a run.
     */
    public void addOwned(Ev e, long t) {
        insert(e, t);
    }

    private void insert(Ev e, long t) {
        e.time = t;
        e.seq = nextSeq++;
        if (t >= base && t - base < HORIZON) {
            insertWheel(e, t);
        } else {
            heapPush(e);
        }
        // the new event has the largest sequence, so it is the new minimum only if strictly earlier
        Ev m = min;
        if (t < m.time || m == NONE) min = e;
    }

    private void insertWheel(Ev e, long t) {
        int b = (int) (t >>> SHIFT) & MASK;
        Ev[] ends = this.ends;
        Ev tl = ends[2 * b + 1];
        if (tl == null) {
            e.next = null;
            ends[2 * b] = e;
            ends[2 * b + 1] = e;
            occupied[b >>> 6] |= 1L << b;
        } else if (tl.time <= t) {
            e.next = null;
            tl.next = e;
            ends[2 * b + 1] = e;
        } else {
            // before the first entry that is later (the tail is, so the walk stops); a crowded
            // bucket hands the event to the heap instead, so an insert never walks far
            Ev prev = null;
            Ev cur = ends[2 * b];
            int steps = 0;
            while (cur.time <= t) {
                if (++steps > MAX_WALK) {
                    heapPush(e);
                    return;
                }
                prev = cur;
                cur = cur.next;
            }
            e.next = cur;
            if (prev == null) ends[2 * b] = e;
            else prev.next = e;
        }
        wheelCount++;
    }

    /** The earliest event (queue not empty), found without the cache. */
    private Ev scanMin() {
        Ev best = null;
        if (wheelCount > 0) {
            int b = (int) (base >>> SHIFT) & MASK;
            int w = b >>> 6;
            long bits = occupied[w] & (-1L << b);
            while (bits == 0) {
                w = (w + 1) & (occupied.length - 1);
                bits = occupied[w];
            }
            best = ends[2 * ((w << 6) + Long.numberOfTrailingZeros(bits))];
        }
        if (best == null || heapTopTime <= best.time) {
            Ev h = heap[0];
            if (best == null || h.time < best.time || h.seq < best.seq) best = h;
        }
        return best;
    }

    /** The handler of the earliest event, null when the queue is empty; see {@link #knownMinKind}. */
    EventHandler knownMinHandler() {
        return min == NONE ? null : min.handler;
    }

    /** The kind of that event, when {@link #knownMinHandler} is not null. */
    int knownMinKind() {
        return min.kind;
    }

    /** Removes the earliest event into the popped* fields. Caller checks non-empty. */
    void pop() {
        Ev e = popNotAfter(Long.MAX_VALUE);
        poppedTime = e.time;
        poppedHandler = e.handler;
        poppedKind = e.kind;
        poppedArg = e.arg;
        poppedObj = e.obj;
        recycle(e);
    }

    /**
     * Removes and returns the earliest event if there is one at or before {@code untilPs}, else
     * null. The caller reads it and hands it back with {@link #recycle} before adding events.
     */
    Ev popNotAfter(long untilPs) {
        Ev e = min;
        long t = e.time;
        if (t > untilPs || e == NONE) return null;
        // everything left is at or after t, so the window may start at t's bucket
        long nb = t & -WIDTH;
        if (nb > base) base = nb;
        Ev next = null;       // the next minimum when known without a scan
        if (heapTopTime <= t && heap[0] == e) {
            heapPop();
        } else {
            int b = (int) (t >>> SHIFT) & MASK;
            Ev n = e.next;
            if (n != null) {
                ends[2 * b] = n;
                // the rest of this bucket is the wheel's earliest (sorted, and no bucket is
                // earlier): the next minimum is its head or the heap top
                next = heapTopTime <= n.time && before(heap[0], n) ? heap[0] : n;
            } else {
                // literal nulls: no GC card mark when a bucket empties
                ends[2 * b] = null;
                ends[2 * b + 1] = null;
                occupied[b >>> 6] &= ~(1L << b);
            }
            wheelCount--;
        }
        // Find the next minimum now rather than at the next pop (the same one scan): its record
        // then loads while this event runs, overlapping two cache misses on large fabrics.
        if (next == null) next = wheelCount + heapSize > 0 ? scanMin() : NONE;
        min = next;
        return e;
    }

    /** Returns a popped event's record to the pool. */
    void recycle(Ev e) {
        // handler and obj stay set until reuse: they only point at long-lived components and pooled packets
        if (e.owned) return;
        e.next = free;
        free = e;
    }

    // ---- overflow heap ordered by (time, seq) ----------------------------------------------

    private static boolean before(Ev a, Ev b) {
        return a.time < b.time || (a.time == b.time && a.seq < b.seq);
    }

    private void heapPush(Ev e) {
        if (heapSize == heap.length) heap = Arrays.copyOf(heap, heapSize * 2);
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Ev p = heap[parent];
            if (before(p, e)) break;
            heap[i] = p;
            i = parent;
        }
        heap[i] = e;
        heapTopTime = heap[0].time;
    }

    private void heapPop() {
        int n = --heapSize;
        Ev last = heap[n];
        heap[n] = null;
        if (n == 0) {
            heapTopTime = Long.MAX_VALUE;
            return;
        }
        int i = 0;
        int half = n >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int r = c + 1;
            if (r < n && before(heap[r], heap[c])) c = r;
            if (before(last, heap[c])) break;
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = last;
        heapTopTime = heap[0].time;
    }
}

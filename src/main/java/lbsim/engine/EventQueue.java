package lbsim.engine;

import java.util.Arrays;

/**
 * Binary min-heap of events ordered by (time, insertion sequence), kept in primitive arrays.
 * Equal times pop in insertion order, which makes runs deterministic. Payload slots
 * (handler, kind, arg, obj) live in parallel arrays indexed by a slot number that moves with
 * the heap entry, so sifting swaps three arrays and the payload is never copied.
 */
public final class EventQueue {
    private long[] time;
    private long[] seq;
    private int[] slot;          // heap position -> payload slot
    private int size;

    private EventHandler[] handler;
    private int[] kind;
    private long[] arg;
    private Object[] obj;
    private int[] freeSlots;
    private int freeCount;

    private long nextSeq;

    // The event most recently popped, read by the simulation loop.
    long poppedTime;
    EventHandler poppedHandler;
    int poppedKind;
    long poppedArg;
    Object poppedObj;

    public EventQueue(int initialCapacity) {
        int c = Math.max(16, initialCapacity);
        time = new long[c];
        seq = new long[c];
        slot = new int[c];
        handler = new EventHandler[c];
        kind = new int[c];
        arg = new long[c];
        obj = new Object[c];
        freeSlots = new int[c];
        for (int i = 0; i < c; i++) freeSlots[i] = c - 1 - i;
        freeCount = c;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    public long peekTime() {
        return time[0];
    }

    public void add(long t, EventHandler h, int k, long a, Object o) {
        if (size == time.length) grow();
        int s = freeSlots[--freeCount];
        handler[s] = h;
        kind[s] = k;
        arg[s] = a;
        obj[s] = o;
        long q = nextSeq++;
        int i = size++;
        // sift up
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = time[parent];
            if (pt < t || (pt == t && seq[parent] < q)) break;
            time[i] = pt;
            seq[i] = seq[parent];
            slot[i] = slot[parent];
            i = parent;
        }
        time[i] = t;
        seq[i] = q;
        slot[i] = s;
    }

    /** Removes the earliest event into the popped* fields. Caller checks non-empty. */
    void pop() {
        int s = slot[0];
        poppedTime = time[0];
        poppedHandler = handler[s];
        poppedKind = kind[s];
        poppedArg = arg[s];
        poppedObj = obj[s];
        handler[s] = null;
        obj[s] = null;
        freeSlots[freeCount++] = s;

        int n = --size;
        if (n == 0) return;
        long t = time[n];
        long q = seq[n];
        int sl = slot[n];
        int i = 0;
        int half = n >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int r = c + 1;
            if (r < n && (time[r] < time[c] || (time[r] == time[c] && seq[r] < seq[c]))) c = r;
            if (t < time[c] || (t == time[c] && q < seq[c])) break;
            time[i] = time[c];
            seq[i] = seq[c];
            slot[i] = slot[c];
            i = c;
        }
        time[i] = t;
        seq[i] = q;
        slot[i] = sl;
    }

    private void grow() {
        int old = time.length;
        int c = old * 2;
        time = Arrays.copyOf(time, c);
        seq = Arrays.copyOf(seq, c);
        slot = Arrays.copyOf(slot, c);
        handler = Arrays.copyOf(handler, c);
        kind = Arrays.copyOf(kind, c);
        arg = Arrays.copyOf(arg, c);
        obj = Arrays.copyOf(obj, c);
        freeSlots = Arrays.copyOf(freeSlots, c);
        // all old slots are in use when the heap is full; the new ones are free
        for (int i = c - 1; i >= old; i--) freeSlots[freeCount++] = i;
    }
}

package lbsim.lb;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import lbsim.net.Packet;

/**
 * A switch's flow (or flowlet) table: flow key -> (egress port, time of the flow's last
 * packet), in primitive arrays behind a fastutil map, so a lookup allocates nothing. Entries
 * idle for longer than the aging time are swept out when the table has doubled since the last
 * sweep (no timers); a swept flow is new again on its next packet, as in a hardware table
 * with aging.
 */
final class FlowTable {
    private static final int FIRST_SWEEP = 4096;

    private final Long2IntOpenHashMap slotOf = new Long2IntOpenHashMap();
    private final long agePs;
    private long[] keys = new long[64];
    private int[] port = new int[64];
    private long[] last = new long[64];
    private int used;          // slots ever handed out
    private int[] free = new int[16];
    private int freeCount;
    private int sweepAt = FIRST_SWEEP;

    FlowTable(long agePs) {
        this.agePs = agePs;
        slotOf.defaultReturnValue(-1);
    }

    /** The RoCEv2 5-tuple as a key: hosts (24 bits each) and the UDP source port; the rest is constant. */
    static long key(Packet p) {
        return ((long) p.src << 40) ^ ((long) (p.dst & 0xFFFFFF) << 16) ^ (p.sport & 0xFFFF);
    }

    /** The flow's slot, or -1 when the switch has no entry for it. */
    private int slot(long key) {
        return slotOf.get(key);
    }

    private void set(int slot, int egress, long nowPs) {
        port[slot] = egress;
        last[slot] = nowPs;
    }

    /**
     * The port of a flow whose last packet passed within {@code gapPs} on a port that is still
     * among {@code candidates} (refreshing its time), else -1: a new flow or flowlet.
     */
    int stickyPort(long key, int[] candidates, long nowPs, long gapPs) {
        int s = slot(key);
        if (s < 0) return -1;
        int p = port[s];
        if (nowPs - last[s] > gapPs || !contains(candidates, p)) return -1;
        last[s] = nowPs;
        return p;
    }

    /** The flow's stored port, or -1 when the switch has no entry for it. */
    int portOf(long key) {
        int s = slot(key);
        return s < 0 ? -1 : port[s];
    }

    /** Stores the flow's (new) port. */
    void record(long key, int egress, long nowPs) {
        int s = slot(key);
        if (s >= 0) set(s, egress, nowPs);
        else add(key, egress, nowPs);
    }

    /** Adds a flow (not present) and returns its slot. */
    private int add(long key, int egress, long nowPs) {
        if (slotOf.size() >= sweepAt) sweep(nowPs);
        int s;
        if (freeCount > 0) {
            s = free[--freeCount];
        } else {
            if (used == keys.length) grow();
            s = used++;
        }
        keys[s] = key;
        port[s] = egress;
        last[s] = nowPs;
        slotOf.put(key, s);
        return s;
    }

    int size() {
        return slotOf.size();
    }

    private void grow() {
        int n = keys.length * 2;
        keys = java.util.Arrays.copyOf(keys, n);
        port = java.util.Arrays.copyOf(port, n);
        last = java.util.Arrays.copyOf(last, n);
    }

    private void sweep(long nowPs) {
        for (int s = 0; s < used; s++) {
            if (port[s] < 0 || nowPs - last[s] <= agePs) continue;
            slotOf.remove(keys[s]);
            port[s] = -1;
            if (freeCount == free.length) free = java.util.Arrays.copyOf(free, freeCount * 2);
            free[freeCount++] = s;
        }
        sweepAt = Math.max(FIRST_SWEEP, 2 * slotOf.size());
    }

    /** Whether {@code egress} is still one of the candidates (routes change after a detected failure). */
    static boolean contains(int[] candidates, int egress) {
        for (int c : candidates) if (c == egress) return true;
        return false;
    }
}

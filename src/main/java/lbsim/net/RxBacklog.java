package lbsim.net;

/**
 * The packets a NIC's receive pipeline holds behind a QP-context miss ({@link Host}), first in,
 * first out. The NIC's receive buffer bounds this line ({@link Host}); with an unbounded one
 * ({@code nic.rx_buffer_bytes: 0}), when misses slow the pipeline below the arrival rate it
 * grows by the packets the senders' windows and retransmissions let in (1.9 million at one
 * moment in a 256-host all-to-all with 8 QPs per pair, docs/speed.md session 20). So each packet
 * is kept as {@value #WORDS} longs (56 B) instead of a pooled {@link Packet} (136 B), and its
 * object goes back to the pool; {@link #poll} gives back a packet equal in every field a packet
 * carries between hops. A packet whose fields do not fit (a switch load balancer's header, a SACK
 * bitmap, a value out of the packed ranges) is kept as it is, in its place in the line.
 */
final class RxBacklog {
    static final int WORDS = 7;
    private static final int BLOCK = 1024;      // packets per block; drained blocks are dropped

    private final PacketPool pool;
    private Block first;
    private Block last;
    private int readAt;                         // the next packet of {@code first}
    private long size;

    private static final class Block {
        final long[] words = new long[BLOCK * WORDS];
        Packet[] whole;                         // packets kept as objects (null: packed), made at the first one
        int count;
        Block next;
    }

    RxBacklog(PacketPool pool) {
        this.pool = pool;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long size() {
        return size;
    }

    /** Appends {@code p}; when it is packed its object returns to the pool (the packet stays live). */
    void add(Packet p) {
        Block b = last;
        if (b == null || b.count == BLOCK) {
            b = new Block();
            if (last == null) first = b;
            else last.next = b;
            last = b;
        }
        int i = b.count++;
        size++;
        if (fits(p)) {
            pack(p, b.words, i * WORDS);
            pool.park(p);
        } else {
            if (b.whole == null) b.whole = new Packet[BLOCK];
            b.whole[i] = p;
        }
    }

    /** Removes and returns the oldest packet; the backlog must not be empty. */
    Packet poll() {
        Block b = first;
        int i = readAt++;
        Packet p;
        if (b.whole != null && b.whole[i] != null) {
            p = b.whole[i];
            b.whole[i] = null;
        } else {
            p = pool.unpark();
            unpack(b.words, i * WORDS, p);
        }
        size--;
        if (readAt == b.count) {
            readAt = 0;
            if (b == last) b.count = 0;         // keep one block for the next stall
            else first = b.next;
        }
        return p;
    }

    /** Whether {@link #pack} keeps every field of {@code p}. */
    static boolean fits(Packet p) {
        return !p.hasLbHeader() && p.sackBase == 0 && p.sackBits == 0
                && p.seq >= 0 && p.seq < 1L << 40 && p.sackSeq >= -1 && p.sackSeq < (1L << 40) - 1
                && p.wireBytes >= 0 && p.wireBytes < 1 << 24 && p.payloadBytes >= 0 && p.payloadBytes < 1 << 24
                && (p.sport & ~0xFFFF) == 0 && (p.ackedCount & ~0xFFFF) == 0 && (p.ecnEchoCount & ~0xFFFF) == 0
                && (p.kind & ~0xF) == 0 && (p.priority & ~0xF) == 0 && (p.dscp & ~0xFF) == 0 && p.routeShift >= 0
                && p.ingressPort >= -1 && p.ingressPort < 0xFFFF;
    }

    static void pack(Packet p, long[] w, int at) {
        w[at] = p.sentAtPs;
        w[at + 1] = p.seq << 24 | p.wireBytes;
        w[at + 2] = (p.sackSeq + 1) << 24 | p.payloadBytes;
        w[at + 3] = (long) p.qp << 32 | (p.ctx & 0xFFFFFFFFL);
        w[at + 4] = (long) p.src << 32 | (p.dst & 0xFFFFFFFFL);
        w[at + 5] = (long) p.pathId << 32 | (long) p.sport << 16 | p.ackedCount;
        int flags = (p.sourceRouted ? 1 : 0) | (p.ecnCapable ? 2 : 0) | (p.ecnMarked ? 4 : 0) | (p.trimmed ? 8 : 0) | (p.ackReq ? 16 : 0);
        w[at + 6] = (long) p.kind << 60 | (long) p.priority << 56 | (long) p.dscp << 48 | (long) flags << 40
                | (long) p.routeShift << 32 | (long) p.ecnEchoCount << 16 | (p.ingressPort + 1);
    }

    /** Writes the packet packed at {@code at} into {@code p}, a packet fresh from the pool. */
    static void unpack(long[] w, int at, Packet p) {
        p.sentAtPs = w[at];
        long v = w[at + 1];
        p.seq = v >>> 24;
        p.wireBytes = (int) (v & 0xFFFFFF);
        v = w[at + 2];
        p.sackSeq = (v >>> 24) - 1;
        p.payloadBytes = (int) (v & 0xFFFFFF);
        v = w[at + 3];
        p.qp = (int) (v >>> 32);
        p.ctx = (int) v;
        v = w[at + 4];
        p.src = (int) (v >>> 32);
        p.dst = (int) v;
        v = w[at + 5];
        p.pathId = (int) (v >>> 32);
        p.sport = (int) (v >>> 16) & 0xFFFF;
        p.ackedCount = (int) v & 0xFFFF;
        v = w[at + 6];
        p.kind = (int) (v >>> 60);
        p.priority = (int) (v >>> 56) & 0xF;
        p.dscp = (int) (v >>> 48) & 0xFF;
        int flags = (int) (v >>> 40) & 0xFF;
        p.sourceRouted = (flags & 1) != 0;
        p.ecnCapable = (flags & 2) != 0;
        p.ecnMarked = (flags & 4) != 0;
        p.trimmed = (flags & 8) != 0;
        p.ackReq = (flags & 16) != 0;
        p.routeShift = (byte) (v >>> 32);
        p.ecnEchoCount = (int) (v >>> 16) & 0xFFFF;
        p.ingressPort = (int) (v & 0xFFFF) - 1;
        p.sackBase = 0;
        p.sackBits = 0;
        p.next = null;
    }
}

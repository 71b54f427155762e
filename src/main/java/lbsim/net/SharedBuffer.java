package lbsim.net;

/**
 * A switch's memory manager: admission (dynamic threshold over a shared pool, or a static
 * per-port buffer), per-egress and per-ingress byte counts, and PFC XOFF/XON decisions.
 * Ingress accounting is what PFC pauses on (IEEE 802.1Qbb: per ingress port and priority).
 */
final class SharedBuffer {
    private final SwitchConfig cfg;
    private final long total;
    private final long sharedPool;     // total minus the headroom reserved for every port
    private final long[] headroom;
    private final long[] egress;
    private final long[] ingress;
    private final boolean[] pausedUpstream;
    private long used;
    // the configuration read on every packet, copied out of the record
    private final boolean pfc;
    private final long portBuffer;
    private final double alpha;
    private final double pfcAlpha;
    private final long resumeOffset;

    SharedBuffer(SwitchConfig cfg, Port[] ports) {
        this.cfg = cfg;
        int n = ports.length;
        egress = new long[n];
        ingress = new long[n];
        pausedUpstream = new boolean[n];
        headroom = new long[n];
        long reserved = 0;
        for (int i = 0; i < n; i++) {
            Port p = ports[i];
            headroom[i] = cfg.headroomBytes() >= 0 ? cfg.headroomBytes()
                    : 2 * (p.latencyPs() * p.nominalRateBps() / 8_000_000_000_000L) + 2L * (cfg.mtuBytes() + 64);
            reserved += headroom[i];
        }
        // a static per-port buffer with PFC pauses when full and keeps its headroom on top (McClure §4)
        total = cfg.portBufferBytes() > 0 ? cfg.portBufferBytes() * n + (cfg.pfc() ? reserved : 0) : cfg.bufferBytes();
        sharedPool = cfg.pfc() ? Math.max(0, total - reserved) : total;
        pfc = cfg.pfc();
        portBuffer = cfg.portBufferBytes();
        alpha = cfg.alpha();
        pfcAlpha = cfg.pfcAlpha();
        resumeOffset = cfg.resumeOffsetBytes() >= 0 ? cfg.resumeOffsetBytes() : 2L * (cfg.mtuBytes() + 64);
    }

    /** With PFC: bytes set aside as headroom on every ingress port, and the whole buffer. */
    long reservedHeadroom() {
        long r = 0;
        for (long h : headroom) r += h;
        return r;
    }

    long total() {
        return total;
    }

    long egressBytes(int port) {
        return egress[port];
    }

    /** Whether a packet from ingress port {@code in} may join egress queue {@code out}. */
    boolean admit(int in, int out, int bytes, boolean control) {
        if (used + bytes > total) return false;
        if (!pfc && !control) {
            long limit = portBuffer > 0 ? portBuffer
                    : (long) (alpha * (total - used));
            if (egress[out] + bytes > limit) return false;
        } else if (portBuffer > 0 && !control && ingress[in] + bytes > portBuffer + headroom[in]) {
            // lossless static buffers are per ingress port (PFC pauses per ingress): only a too-small headroom drops
            return false;
        }
        return true;
    }

    void add(int in, int out, int bytes) {
        used += bytes;
        egress[out] += bytes;
        if (in >= 0) ingress[in] += bytes;
    }

    void remove(int in, int out, int bytes) {
        used -= bytes;
        egress[out] -= bytes;
        if (in >= 0) ingress[in] -= bytes;
    }

    private long xoff(int in) {
        if (portBuffer > 0) return portBuffer;
        return (long) (pfcAlpha * Math.max(0, sharedPool - used));
    }

    /** After an admission: true if the ingress port just crossed XOFF and must pause upstream. */
    boolean shouldPause(int in) {
        if (!pfc || in < 0 || pausedUpstream[in]) return false;
        if (ingress[in] > xoff(in)) {
            pausedUpstream[in] = true;
            return true;
        }
        return false;
    }

    /** After a departure: true if the ingress port fell below XON and may resume upstream. */
    boolean shouldResume(int in) {
        if (!pfc || in < 0 || !pausedUpstream[in]) return false;
        if (ingress[in] + resumeOffset <= xoff(in) || ingress[in] == 0) {
            pausedUpstream[in] = false;
            return true;
        }
        return false;
    }
}

package lbsim.net;

import lbsim.engine.Simulation;

/**
 * A switch's memory manager: admission (dynamic threshold over a shared pool, or a static
 * per-port buffer), per-egress and per-ingress byte counts, and PFC XOFF/XON decisions.
 * Ingress accounting is what PFC pauses on (IEEE 802.1Qbb: per ingress port and priority).
 * It is the superclass of {@link Switch} rather than an object of its own so that its state
 * lies in the switch object, which every hop reads anyway (a separate object was one more
 * cache miss per hop on large fabrics). The per-port counts live in {@link Port} objects for
 * the same reason: the egress account of a port is on the switch's own port
 * ({@code bufEgress}); the ingress account of a link (PFC: {@code ingressHeld},
 * {@code ingressPaused}, {@code ingressHeadroom}) is on the sending port at its other end
 * ({@code ingress[i]} for local port i), which the arriving packet has just left.
 */
abstract class SharedBuffer extends Node {
    private long total;
    private long sharedPool;     // total minus the headroom reserved for every port
    Port[] ingress;              // ingress[i]: the port sending into local port i, which holds that link's ingress account
    private long used;
    // the configuration read on every packet, copied out of the record
    private boolean pfc;
    private long portBuffer;
    private double alpha;
    private double pfcAlpha;
    // alpha = 1 (the defaults): the threshold is the free space itself, no floating point per packet
    private boolean alphaOne;
    private boolean pfcAlphaOne;
    private long resumeOffset;

    SharedBuffer(Network net, int id) {
        super(net, id);
    }

    /** Sets the buffer up once this switch's ports are connected. */
    void initBuffer(SwitchConfig cfg) {
        int n = ports.length;
        ingress = new Port[n];
        for (int i = 0; i < n; i++) ingress[i] = net.port(ports[i].id, true);
        long reserved = 0;
        for (int i = 0; i < n; i++) {
            Port p = ports[i];
            // 2 x link BDP, taken exactly: latency x rate overflows a long on long fast links (25 us at 400 Gb/s)
            ingress[i].ingressHeadroom = cfg.headroomBytes() >= 0 ? cfg.headroomBytes()
                    : 2 * Simulation.bytesAtRate(p.latencyPs(), p.nominalRateBps()) + 2 * cfg.packetBytes();
            reserved += ingress[i].ingressHeadroom;
        }
        // a static per-port buffer with PFC pauses when full and keeps its headroom on top (McClure §4)
        total = cfg.portBufferBytes() > 0 ? cfg.portBufferBytes() * n + (cfg.pfc() ? reserved : 0) : cfg.bufferBytes();
        sharedPool = cfg.pfc() ? Math.max(0, total - reserved) : total;
        pfc = cfg.pfc();
        portBuffer = cfg.portBufferBytes();
        alpha = cfg.alpha();
        pfcAlpha = cfg.pfcAlpha();
        alphaOne = alpha == 1.0;
        pfcAlphaOne = pfcAlpha == 1.0;
        resumeOffset = cfg.resumeOffsetBytes() >= 0 ? cfg.resumeOffsetBytes() : 2 * cfg.packetBytes();
    }

    /** With PFC: bytes set aside as headroom on every ingress port, and the whole buffer. */
    long reservedHeadroom() {
        long r = 0;
        for (Port p : ingress) r += p.ingressHeadroom;
        return r;
    }

    long bufferTotal() {
        return total;
    }

    /** Whether a packet from ingress account {@code in} (null for control the switch originates) may join egress queue {@code out}. */
    boolean admit(Port in, Port out, int bytes, boolean control) {
        if (used + bytes > total) return false;
        if (!pfc && !control) {
            long free = total - used;
            long limit = portBuffer > 0 ? portBuffer : alphaOne ? free : (long) (alpha * free);
            if (out.bufEgress + bytes > limit) return false;
        } else if (portBuffer > 0 && !control && in.ingressHeld + bytes > portBuffer + in.ingressHeadroom) {
            // lossless static buffers are per ingress port (PFC pauses per ingress): only a too-small headroom drops
            return false;
        }
        return true;
    }

    /** Counts a queued packet; {@code in} is null when it is not accounted to an ingress (control, trimmed headers). */
    void addBytes(Port in, Port out, int bytes) {
        used += bytes;
        out.bufEgress += bytes;
        if (in != null) in.ingressHeld += bytes;
    }

    void removeBytes(Port in, Port out, int bytes) {
        used -= bytes;
        out.bufEgress -= bytes;
        if (in != null) in.ingressHeld -= bytes;
    }

    private long xoff() {
        if (portBuffer > 0) return portBuffer;
        long free = Math.max(0, sharedPool - used);
        return pfcAlphaOne ? free : (long) (pfcAlpha * free);
    }

    /** After an admission: true if the ingress account just crossed XOFF and the switch must pause its sender. */
    boolean shouldPause(Port in) {
        if (!pfc || in == null || in.ingressPaused) return false;
        if (in.ingressHeld > xoff()) {
            in.ingressPaused = true;
            return true;
        }
        return false;
    }

    /** After a departure: true if the ingress account fell below XON and the switch may resume its sender. */
    boolean shouldResume(Port in) {
        if (!pfc || in == null || !in.ingressPaused) return false;
        if (in.ingressHeld + resumeOffset <= xoff() || in.ingressHeld == 0) {
            in.ingressPaused = false;
            return true;
        }
        return false;
    }
}

package lbsim.net;

/**
 * Buffer, ECN and PFC settings shared by every switch of a run.
 *
 * @param bufferBytes        shared buffer per switch (used when portBufferBytes is 0)
 * @param portBufferBytes    static buffer per egress port instead of a shared one (0 = shared)
 * @param alpha              dynamic-threshold alpha for egress admission (Choudhury-Hahne)
 * @param pfc                lossless data priority with PFC instead of drop-tail
 * @param pfcAlpha           dynamic-threshold alpha of the ingress XOFF threshold
 * @param headroomBytes      per-ingress-port PFC headroom; negative = 2 x BDP(link) + 2 packets
 * @param resumeOffsetBytes  XON when the ingress count falls this far below XOFF; negative = 2 packets
 * @param ecnKminBytes       RED Kmin on the egress data queue; negative = profile default per port
 * @param ecnKmaxBytes       RED Kmax; negative = profile default per port
 * @param ecnPmax            marking probability at Kmax; negative = profile default
 * @param ecnProfile         "dctcp" (step at 30 KB per 10 Gbps) or "dcqcn" (RED 100/400 KB per 25 Gbps, 0.2)
 * @param mtuBytes           payload bytes per packet
 * @param trimMode           0 = drop data the buffer cannot take; 1 = trim it to a header for the
 *                           receiver; 2 = trim and return the header to the sender (NDP, McClure §4)
 * @param headerBytes        the transport's per-packet header (a full data packet is MTU + this on the wire)
 * @param arLevels           quality bands of the egress load that adaptive-routing choices compare
 *                           ({@link Switch#arLoad}); 0 = exact egress bytes
 */
public record SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                           long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                           double ecnPmax, String ecnProfile, int mtuBytes, int trimMode, int headerBytes, int arLevels) {

    public static final int TRIM_OFF = 0;
    public static final int TRIM_TO_RECEIVER = 1;
    public static final int TRIM_TO_SENDER = 2;

    /**
     * Default {@link #arLevels}: switch ASICs quantise each ECMP member's quality into 8 bands (Broadcom
     * DLB "one of 8 bands of Quality" per egress member; Juniper DLB quality bands 0 to 7).
     */
    public static final int AR_LEVELS = 8;

    /** Without trimming. */
    public SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                        long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                        double ecnPmax, String ecnProfile, int mtuBytes) {
        this(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes, ecnKminBytes, ecnKmaxBytes,
                ecnPmax, ecnProfile, mtuBytes, TRIM_OFF, 64, AR_LEVELS);
    }

    /** Wire size of a full data packet. */
    public long packetBytes() {
        return (long) mtuBytes + headerBytes;
    }

    /** Wire size of a trimmed data packet: its header (at least a byte). */
    public int trimmedBytes() {
        return Math.max(1, headerBytes);
    }

    public static SwitchConfig defaults() {
        return new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dctcp", 4096);
    }

    public SwitchConfig withEcn(long kmin, long kmax, double pmax) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                kmin, kmax, pmax, ecnProfile, mtuBytes, trimMode, headerBytes, arLevels);
    }

    public SwitchConfig withArLevels(int levels) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                ecnKminBytes, ecnKmaxBytes, ecnPmax, ecnProfile, mtuBytes, trimMode, headerBytes, levels);
    }

    /**
     * Width in bytes of one adaptive-routing band of a port: its range ({@code rangeBytes}, see
     * {@link Switch#arLoad}) split into {@code levels} equal bands, rounded up, at least 1 byte.
     */
    public static long arBandBytes(long rangeBytes, int levels) {
        if (levels <= 0) throw new IllegalArgumentException("levels must be positive: " + levels);
        return Math.max(1, (rangeBytes + levels - 1) / levels);
    }

    /**
     * The band of an egress load of {@code bytes}: floor(bytes / bandBytes), the last band ({@code levels} - 1)
     * open-ended; 0 is the least loaded.
     */
    public static int arBand(long bytes, long bandBytes, int levels) {
        long b = bytes / bandBytes;
        return b >= levels - 1 ? levels - 1 : (int) b;
    }

    /**
     * Kmin for a port of this rate, from the configuration or the profile. The per-Gbps ratios are
     * written reduced (100 KB / 25 Gbps = 1 B per 250 kbit/s), which rounds the same and keeps
     * rate x ratio inside a long for every rate a scenario accepts (up to 1e15 bit/s).
     */
    long kmin(long rateBps) {
        if (ecnKminBytes >= 0) return ecnKminBytes;
        // DCQCN RED: HPCC/ConWeave run.py 100 KB per 25 Gbps (algorithms.md §2.2)
        if (ecnProfile.equals("dcqcn")) return rateBps / 250_000L;
        // DCTCP step: 30 KB per 10 Gbps as in the HPCC ns-3 DCTCP configuration (algorithms.md §2.1)
        return Math.max(2L * mtuBytes, 3 * rateBps / 1_000_000L);
    }

    long kmax(long rateBps) {
        if (ecnKmaxBytes >= 0) return ecnKmaxBytes;
        if (ecnProfile.equals("dcqcn")) return rateBps / 62_500L;   // 400 KB per 25 Gbps
        return ecnKminBytes >= 0 ? ecnKminBytes : kmin(rateBps);
    }

    double pmax() {
        if (ecnPmax >= 0) return ecnPmax;
        return ecnProfile.equals("dcqcn") ? 0.2 : 1.0;
    }
}

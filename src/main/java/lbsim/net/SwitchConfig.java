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
 * @param ecnProfile         the default marking thresholds per port (see {@link #ECN_PROFILES}): "dctcp" (step at
 *                           K = C x RTT / 7), "dctcp-hpcc" (30 KB per 10 Gbps), "dcqcn" (RED 150/1500 KB),
 *                           "dcqcn-hpcc" (RED 100/400 KB per 25 Gbps, 0.2), "dcqcn-conweave" (RED 100/400 KB, 0.2)
 * @param mtuBytes           payload bytes per packet
 * @param trimMode           0 = drop data the buffer cannot take; 1 = trim it to a header for the
 *                           receiver; 2 = trim and return the header to the sender (NDP, McClure §4)
 * @param headerBytes        the transport's per-packet header (a full data packet is MTU + this on the wire)
 * @param ecnRttPs           the RTT the "dctcp" profile's K is sized for (the fabric's base RTT)
 * @param arLevels           quality bands of the egress load that adaptive-routing choices compare
 *                           ({@link Switch#arLoad}); 0 = exact egress bytes
 */
public record SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                           long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                           double ecnPmax, String ecnProfile, int mtuBytes, int trimMode, int headerBytes, long ecnRttPs,
                           int arLevels) {

    /**
     * Default {@link #arLevels}: switch ASICs quantise each ECMP member's quality into 8 bands (Broadcom
     * DLB "one of 8 bands of Quality" per egress member; Juniper DLB quality bands 0 to 7).
     */
    public static final int AR_LEVELS = 8;

    /** Names of {@code switch.ecn_profile} (besides {@code auto}, which follows the congestion control). */
    public static final java.util.List<String> ECN_PROFILES = java.util.List.of("dctcp", "dctcp-hpcc", "dcqcn", "dcqcn-hpcc",
            "dcqcn-conweave");

    /** Without the DCTCP guideline's RTT (the other profiles do not read it). */
    public SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                        long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                        double ecnPmax, String ecnProfile, int mtuBytes, int trimMode, int headerBytes) {
        this(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes, ecnKminBytes, ecnKmaxBytes,
                ecnPmax, ecnProfile, mtuBytes, trimMode, headerBytes, 0, AR_LEVELS);
    }

    public static final int TRIM_OFF = 0;
    public static final int TRIM_TO_RECEIVER = 1;
    public static final int TRIM_TO_SENDER = 2;

    /** Without trimming. */
    public SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                        long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                        double ecnPmax, String ecnProfile, int mtuBytes) {
        this(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes, ecnKminBytes, ecnKmaxBytes,
                ecnPmax, ecnProfile, mtuBytes, TRIM_OFF, 64);
    }

    /** Wire size of a full data packet. */
    public long packetBytes() {
        return (long) mtuBytes + headerBytes;
    }

    /** Wire size of a trimmed data packet: its header (at least a byte). */
    public int trimmedBytes() {
        return Math.max(1, headerBytes);
    }

    /** Settings for unit tests of the switch: a 64 MB shared buffer, PFC, the HPCC ns-3 DCTCP step. */
    public static SwitchConfig defaults() {
        return new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, -1, "dctcp-hpcc", 4096);
    }

    public SwitchConfig withEcn(long kmin, long kmax, double pmax) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                kmin, kmax, pmax, ecnProfile, mtuBytes, trimMode, headerBytes, ecnRttPs, arLevels);
    }

    public SwitchConfig withArLevels(int levels) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                ecnKminBytes, ecnKmaxBytes, ecnPmax, ecnProfile, mtuBytes, trimMode, headerBytes, ecnRttPs, levels);
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
        return switch (ecnProfile) {
            // NVIDIA's RoCE switch default (Onyx `roce`, Cumulus Linux `nv set qos roce`): ECN absolute 150 KB to 1500 KB
            case "dcqcn" -> 150_000L;
            // HPCC ns-3 run.py: 100 KB per 25 Gbps (algorithms.md §2.2)
            case "dcqcn-hpcc" -> rateBps / 250_000L;
            // conweave-ns3 run.py: 100 KB at every rate (algorithms.md §2.2)
            case "dcqcn-conweave" -> 100_000L;
            // the HPCC ns-3 DCTCP configuration: 30 KB per 10 Gbps (algorithms.md §2.1)
            case "dctcp-hpcc" -> Math.max(2L * mtuBytes, 3 * rateBps / 1_000_000L);
            // DCTCP §3.4: K > C x RTT / 7 keeps the queue from draining after a cut; at least two packets
            default -> Math.max(2L * packetBytes(), lbsim.engine.Simulation.bytesAtRate(ecnRttPs, rateBps) / 7);
        };
    }

    long kmax(long rateBps) {
        if (ecnKmaxBytes >= 0) return ecnKmaxBytes;
        return switch (ecnProfile) {
            case "dcqcn" -> 1_500_000L;
            case "dcqcn-hpcc" -> rateBps / 62_500L;   // 400 KB per 25 Gbps
            case "dcqcn-conweave" -> 400_000L;
            default -> ecnKminBytes >= 0 ? ecnKminBytes : kmin(rateBps);   // DCTCP: one step
        };
    }

    double pmax() {
        if (ecnPmax >= 0) return ecnPmax;
        return switch (ecnProfile) {
            // the vendor pages give the thresholds but not the marking probability: RED rising to 1 at Kmax
            case "dcqcn" -> 1.0;
            case "dcqcn-hpcc", "dcqcn-conweave" -> 0.2;
            default -> 1.0;
        };
    }
}

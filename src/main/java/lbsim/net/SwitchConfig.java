package lbsim.net;

/**
 * Buffer, ECN and PFC settings shared by every switch of a run.
 *
 * @param bufferBytes        shared buffer per switch (used when portBufferBytes is 0)
 * @param portBufferBytes    static buffer per egress port instead of a shared one (0 = shared)
 * @param alpha              dynamic-threshold alpha for egress admission (Choudhury-Hahne)
 * @param pfc                lossless data priority with PFC instead of drop-tail
 * @param pfcAlpha           dynamic-threshold alpha of the ingress XOFF threshold
 * @param headroomBytes      per-ingress-port PFC headroom; negative = 2 x BDP(link) + 2 MTU
 * @param resumeOffsetBytes  XON when the ingress count falls this far below XOFF
 * @param ecnKminBytes       RED Kmin on the egress data queue; negative = per-port default
 * @param ecnKmaxBytes       RED Kmax; negative = per-port default
 * @param ecnPmax            marking probability at Kmax (1.0 with Kmin = Kmax: DCTCP step)
 * @param mtuBytes           payload bytes per packet
 */
public record SwitchConfig(long bufferBytes, long portBufferBytes, double alpha, boolean pfc, double pfcAlpha,
                           long headroomBytes, long resumeOffsetBytes, long ecnKminBytes, long ecnKmaxBytes,
                           double ecnPmax, int mtuBytes) {

    public static SwitchConfig defaults() {
        return new SwitchConfig(64L << 20, 0, 1.0, true, 1.0, -1, -1, -1, -1, 1.0, 4096);
    }

    public SwitchConfig withPfc(boolean on) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, on, pfcAlpha, headroomBytes, resumeOffsetBytes,
                ecnKminBytes, ecnKmaxBytes, ecnPmax, mtuBytes);
    }

    public SwitchConfig withBuffer(long sharedBytes, long perPortBytes) {
        return new SwitchConfig(sharedBytes, perPortBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                ecnKminBytes, ecnKmaxBytes, ecnPmax, mtuBytes);
    }

    public SwitchConfig withEcn(long kmin, long kmax, double pmax) {
        return new SwitchConfig(bufferBytes, portBufferBytes, alpha, pfc, pfcAlpha, headroomBytes, resumeOffsetBytes,
                kmin, kmax, pmax, mtuBytes);
    }

    /**
     * Default ECN step threshold for a port: C x RTT / 7 is DCTCP's lower bound (Alizadeh et
     * al. 2010); we use 30 KB per 10 Gbps as the HPCC ns-3 DCTCP configuration does.
     */
    static long defaultEcnThreshold(long rateBps) {
        return Math.max(2 * 4096L, 30_000L * rateBps / 10_000_000_000L);
    }
}

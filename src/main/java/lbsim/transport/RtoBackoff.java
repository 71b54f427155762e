package lbsim.transport;

/**
 * Exponential backoff of a QP's retransmission timeout: after {@code k} timeouts in a row with
 * no forward progress (no advance of the cumulative acknowledgement) the timer is
 * min(base x factor^k, cap), where base is what the loss recovery asks for (the configured
 * timeout, or IRN's RTO_low). Progress resets k to 0. NVIDIA's adaptive retransmission (ADP)
 * starts below the QP's local ACK timeout, doubles the timer on repeated timeouts and caps it
 * at that ACK timeout (docs.nvidia.com "Adaptive Retransmission: Parameters Control"); TCP
 * doubles its RTO likewise (RFC 6298 §5.5). Factor 1 is no backoff.
 *
 * @param factor multiplier per consecutive timeout, at least 1
 * @param capPs  upper bound of the backed-off timeout; 0 = none
 */
public record RtoBackoff(double factor, long capPs) {
    /** No backoff: every timeout is the base one. */
    public static final RtoBackoff NONE = new RtoBackoff(1.0, 0);

    /** Keeps deadlines far from overflow when there is no cap (about 53 days). */
    static final long MAX_PS = Long.MAX_VALUE / 2;

    public RtoBackoff {
        if (!(factor >= 1)) throw new IllegalArgumentException("backoff factor must be >= 1: " + factor);
        if (capPs < 0) throw new IllegalArgumentException("backoff cap must be >= 0: " + capPs);
    }

    /** The timeout after {@code consecutive} timeouts without progress, for base timeout {@code basePs}. */
    public long timeoutPs(long basePs, int consecutive) {
        if (factor == 1.0 || consecutive <= 0) return basePs;
        long cap = capPs > 0 ? Math.max(capPs, basePs) : MAX_PS;
        double t = basePs * Math.pow(factor, consecutive);
        return t >= cap ? cap : Math.round(t);
    }
}

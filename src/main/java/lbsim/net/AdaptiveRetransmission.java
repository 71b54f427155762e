package lbsim.net;

import java.util.List;

/**
 * NVIDIA ConnectX adaptive retransmission (ADP; docs.nvidia.com "Adaptive Retransmission:
 * Parameters Control", "Algorithm &amp; Profile Description and Formulas"): a QP's first timeout is
 * drawn at random among powers of two, each later timeout without progress doubles it up to the
 * QP's local ACK timeout, progress lowers it again, and the QP fails when it makes no progress
 * for its local ACK timeout x its retry count. lbsim models one timeout range that starts at the
 * QP's drawn first timeout; the per-QP state is {@code lbsim.transport.AdaptiveTimer}.
 *
 * @param firstMinPs        the smallest first timeout (NVIDIA: time_base x 2^timeout_init_low_bound)
 * @param firstChoices      how many first timeouts there are to draw from: firstMinPs x 2^i for i in
 *                          [0, firstChoices), each equally likely (NVIDIA: timeout_init_range_size)
 * @param retriesPerTimeout timeouts in a row a value is used before it doubles (NVIDIA: timeout_retry_num);
 *                          the drawn first value is used once whatever this says (as documented)
 * @param decrement         what an advance of the cumulative acknowledgement does to the timeout (NVIDIA: dec_mode)
 */
public record AdaptiveRetransmission(long firstMinPs, int firstChoices, int retriesPerTimeout, Decrement decrement) {

    /** NVIDIA's three dec_mode settings: "decrement by 2", "by 4" (read as dividing), or reset to the range's bottom. */
    public enum Decrement {
        HALVE("halve"), QUARTER("quarter"), RESET("reset");

        public final String key;

        Decrement(String key) {
            this.key = key;
        }

        public static final List<String> KEYS = List.of("halve", "quarter", "reset");

        public static Decrement of(String key) {
            for (Decrement d : values()) if (d.key.equals(key)) return d;
            throw new IllegalArgumentException("unknown ADP decrement: " + key);
        }
    }

    /** The firmware's minimum base timeout, 4 us (adp_retx_base_timeout_min = 0xFA0 ns, same NVIDIA page). */
    public static final long MIN_BASE_PS = 4_000_000L;

    public AdaptiveRetransmission {
        if (firstMinPs < MIN_BASE_PS) throw new IllegalArgumentException("ADP first timeout below 4 us: " + firstMinPs + " ps");
        if (firstChoices < 1 || firstChoices > 16) throw new IllegalArgumentException("ADP first timeout choices not in 1..16: " + firstChoices);
        if (retriesPerTimeout < 1) throw new IllegalArgumentException("ADP retries per timeout must be >= 1: " + retriesPerTimeout);
        if (decrement == null) throw new IllegalArgumentException("ADP decrement missing");
    }

    /** The largest first timeout: firstMinPs x 2^(firstChoices - 1). */
    public long firstMaxPs() {
        return firstMinPs << (firstChoices - 1);
    }
}

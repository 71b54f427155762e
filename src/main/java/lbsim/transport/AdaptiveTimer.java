package lbsim.transport;

import lbsim.net.AdaptiveRetransmission;

/**
 * One QP's adaptive retransmission timer (NVIDIA ConnectX ADP, see {@link AdaptiveRetransmission}):
 * the first timeout is drawn once per QP, uniformly among firstMin x 2^i, i in [0, choices)
 * (NVIDIA: "rand(timeout_init_low_bound, ... + timeout_init_range_size - 1)" on the exponent);
 * that value is used for one timeout, then each value for {@code retriesPerTimeout} timeouts in a
 * row before it doubles, never beyond the QP's ACK timeout (the cap). An advance of the cumulative
 * acknowledgement lowers it by the decrement mode, never below the QP's drawn first timeout (lbsim's
 * one range starts there; NVIDIA's ranges are configurable and its default profile is not published).
 * The QP fails when it makes no progress for ACK timeout x retry count (NVIDIA's qp_total_timeout).
 */
final class AdaptiveTimer {
    private final AdaptiveRetransmission p;
    private final long capPs;
    private final int floor;          // exponent of the QP's drawn first timeout
    private int exponent;             // the timeout in force is firstMin x 2^exponent, capped
    private int timeoutsAtValue;      // timeouts in a row at the value in force
    private boolean firstUsed;        // the drawn first value has seen its one timeout
    private long stalledSincePs;      // the last progress (or the start of sending after none was outstanding)

    /**
     * @param capPs the QP's ACK timeout (transport.timeout_us)
     * @param draw  a value fixed by the run's seed and the QP (RandomStreams.derive)
     */
    AdaptiveTimer(AdaptiveRetransmission p, long capPs, long draw, long nowPs) {
        this.p = p;
        this.capPs = capPs;
        this.floor = (int) Long.remainderUnsigned(draw, p.firstChoices());
        this.exponent = floor;
        this.stalledSincePs = nowPs;
    }

    /** The QP's drawn first timeout. */
    long firstTimeoutPs() {
        return valuePs(floor);
    }

    /** The timeout in force. */
    long timeoutPs() {
        return valuePs(exponent);
    }

    private long valuePs(int e) {
        long min = p.firstMinPs();
        // firstMin x 2^e without overflow, capped at the ACK timeout ("regardless of configured ranges")
        return e >= Long.numberOfLeadingZeros(min) - 1 ? capPs : Math.min(capPs, min << e);
    }

    /** A timeout without progress: the value in force was used once more; double it once it has been used its share. */
    void onTimeout() {
        timeoutsAtValue++;
        int share = firstUsed ? p.retriesPerTimeout() : 1;   // "the initial timeout value is retried only once"
        if (timeoutsAtValue >= share) {
            firstUsed = true;
            timeoutsAtValue = 0;
            if (timeoutPs() < capPs) exponent++;
        }
    }

    /** An advance of the cumulative acknowledgement at {@code nowPs}. */
    void onProgress(long nowPs) {
        stalledSincePs = nowPs;
        timeoutsAtValue = 0;
        exponent = switch (p.decrement()) {
            case HALVE -> Math.max(floor, exponent - 1);
            case QUARTER -> Math.max(floor, exponent - 2);
            case RESET -> floor;
        };
    }

    /** Sending starts again with nothing outstanding: the no-progress clock starts now. */
    void onRestart(long nowPs) {
        stalledSincePs = nowPs;
    }

    /** Whether the QP has made no progress for its ACK timeout x {@code retryCount} (0 = never fails). */
    boolean exhausted(long nowPs, int retryCount) {
        if (retryCount <= 0) return false;
        long total = capPs > Long.MAX_VALUE / retryCount ? Long.MAX_VALUE : capPs * retryCount;
        return nowPs - stalledSincePs >= total;
    }
}

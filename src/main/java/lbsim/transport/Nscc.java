package lbsim.transport;

/**
 * NSCC, the sender-side congestion control of the Ultra Ethernet transport, as the uet-htsim
 * model runs it (htsim/sim/uec.cpp, UecSrc: initNsccParams, initNscc, updateCwndOnAck_NSCC,
 * updateCwndOnNack_NSCC, quick_adapt, fulfill_adjustment; see docs/uec.md for every constant
 * and its source). A window in bytes on the wire, driven per ACK by two signals, the ACK's ECN
 * echo and its RTT sample's queueing delay (RTT minus the base RTT) against a target:
 * <ul>
 * <li>no mark, delay at or above the target: fair increase (a fixed amount per acknowledged byte);</li>
 * <li>no mark, delay below the target: proportional increase (in proportion to target - delay), or,
 *     after a window of samples below 1 us, a fast increase straight into the window;</li>
 * <li>marked, delay at or above the target: multiplicative decrease by the smoothed delay's excess
 *     over the target, at most once per base RTT and by at most half;</li>
 * <li>marked, delay below the target: nothing (the load balancer moves the packet's path).</li>
 * </ul>
 * Increases are collected and applied as (collected bytes / window) every 8 packets acknowledged or
 * once per network RTT, when an additive {@code eta} is also added. Quick adapt: once per
 * base RTT + target, if a trim was seen or the delay exceeded 4 x the target and less than 1/8 of
 * the maximum window was delivered in that time, the window drops to what was delivered, and marked
 * ACKs for the packets then in flight are ignored. A trimmed packet (NACK) takes its bytes off the
 * window and triggers quick adapt; a timeout takes one packet off. The window stays between one
 * packet and 1.5 x the BDP of the base RTT, which is the fabric's unloaded RTT until a smaller RTT is
 * measured. Constants scale with the fabric's BDP over htsim's reference (100 Gbps x 12 us).
 * Arithmetic follows htsim's integer types (window and collected increase in whole bytes, delays
 * in whole picoseconds). Nothing is allocated per packet.
 * <p>
 * {@link NsccVersion#C009CB77} runs the rules of uet-htsim c009cb77 instead (f-forcher/uet-htsim
 * htsim/sim/uec.cpp at c009cb77), where they differ from the current ones: see each method.
 */
final class Nscc implements CongestionControl {
    /** uet-htsim initNsccParams: the reference network the constants are written for, 100 Gbps and 12 us. */
    static final long REFERENCE_RATE_BPS = 100_000_000_000L;
    static final long REFERENCE_RTT_PS = 12_000_000L;
    /** Multiplicative decrease: factor 1 - GAMMA x (avg delay - target) / avg delay, at least MAX_MD. */
    static final double GAMMA = 0.8;
    static final double MAX_MD = 0.5;
    /** EWMA gain of the smoothed queueing delay. */
    static final double DELAY_ALPHA = 0.0125;
    /** Quick adapt runs only when less than maxwnd / 2^QA_GATE was delivered in the last period (htsim default 3). */
    static final int QA_GATE = 3;
    /** Fast increase: only while every sample's delay is below this (htsim: 1 us). */
    static final long FAST_INCREASE_DELAY_PS = 1_000_000L;
    /** The largest window, in BDPs of the base RTT. */
    static final double MAXWND_BDP = 1.5;
    /** Increases are applied once this many packets (on the wire) were acknowledged since the last time. */
    static final int ADJUST_PACKETS = 8;
    /** uet-htsim c009cb77 uec.cpp initNsccParams: default target 6 us. */
    static final long C009CB77_TARGET_PS = 6_000_000L;
    /** uet-htsim c009cb77 uec.cpp initNsccParams: adjust after 16 000 x (target / 12 us) bytes received. */
    static final double C009CB77_ADJUST_BYTES = 16_000;

    private final Swift.Clock clock;
    private final long lineRateBps;
    private final int header;                  // bytes of header per packet
    private final int payload;                 // MSS: payload bytes of a full packet
    private final long mtu;                    // a full packet on the wire: the smallest window
    private final long networkRttPs;           // the fabric's unloaded RTT (htsim network_max_unloaded_rtt)
    private final long targetPs;               // target queueing delay
    private final long qaThresholdPs;          // 4 x target
    private final double alpha;                // proportional increase, bytes per byte acknowledged per ps below target
    private final double fi;                   // fair increase, bytes per byte acknowledged
    private final double eta;                  // additive increase per adjustment period
    private final double fiScale;              // fast increase, window bytes per byte acknowledged
    private final long adjustPeriodPs;
    private final long adjustBytes;
    private final int qaGate;                  // 0: no delivered-bytes condition on quick adapt
    private final boolean c009cb77;            // uet-htsim c009cb77's rules (NsccVersion.C009CB77)

    private long cwnd;
    private long maxwnd;
    private long baseRttPs;
    private long avgDelayPs;
    private long achieved;                     // delivered since the quick-adapt period began
    private long received;                     // delivered since the last adjustment
    private long bytesToIgnore;
    private long bytesIgnored;
    private long incBytes;
    private long fiCount;
    private boolean increasing;
    private boolean triggerQa;
    private long qaEndPs;
    private long lastAdjustPs;
    private long lastDecreasePs;
    private long lastEtaPs;                    // c009cb77: eta has its own clock

    /**
     * @param initCwndBytes  initial window; 0 = the largest window (1.5 x BDP, htsim's initNscc with cwnd 0)
     * @param payloadBytes   MSS (the scenario's mtu_bytes)
     * @param headerBytes    per-packet header on the wire
     * @param lineRateBps    the sending NIC's rate
     * @param networkRttPs   the fabric's unloaded RTT over its longest path at this NIC's rate
     * @param targetPs       target queueing delay; 0 = htsim's default: 0.75 x the network RTT with
     *                       trimming, 1 x without
     * @param trimming       whether switches trim (loss_recovery trim or trim-rts)
     * @param qaGate         quick adapt only when less than the largest window / 2^qaGate was delivered; 0 = always
     * @param version        whose rules and default target: the current NSCC or uet-htsim c009cb77's
     */
    Nscc(long initCwndBytes, int payloadBytes, int headerBytes, long lineRateBps, long networkRttPs, long targetPs,
         boolean trimming, Swift.Clock clock) {
        this(initCwndBytes, payloadBytes, headerBytes, lineRateBps, networkRttPs, targetPs, trimming, QA_GATE, clock);
    }

    Nscc(long initCwndBytes, int payloadBytes, int headerBytes, long lineRateBps, long networkRttPs, long targetPs,
         boolean trimming, int qaGate, Swift.Clock clock) {
        this(initCwndBytes, payloadBytes, headerBytes, lineRateBps, networkRttPs, targetPs, trimming, qaGate,
                NsccVersion.CURRENT, clock);
    }

    Nscc(long initCwndBytes, int payloadBytes, int headerBytes, long lineRateBps, long networkRttPs, long targetPs,
         boolean trimming, int qaGate, NsccVersion version, Swift.Clock clock) {
        this.clock = clock;
        this.qaGate = qaGate;
        this.c009cb77 = version == NsccVersion.C009CB77;
        this.lineRateBps = lineRateBps;
        this.header = headerBytes;
        this.payload = payloadBytes;
        this.mtu = (long) payloadBytes + headerBytes;
        this.networkRttPs = Math.max(1, networkRttPs);
        this.targetPs = targetPs > 0 ? targetPs : c009cb77 ? C009CB77_TARGET_PS
                : Math.max(1, trimming ? Math.round(this.networkRttPs * 0.75) : this.networkRttPs);
        this.qaThresholdPs = 4 * this.targetPs;
        double referenceBdp = REFERENCE_RTT_PS * 1e-12 * REFERENCE_RATE_BPS / 8;
        double networkBdp = this.networkRttPs * 1e-12 * lineRateBps / 8;
        double a = networkBdp / referenceBdp;                 // scaling_factor_a
        double b = (double) this.targetPs / REFERENCE_RTT_PS;  // scaling_factor_b
        this.alpha = 4.0 * payloadBytes * a * b / this.targetPs;
        // c009cb77 uec.cpp fair_increase: 5 x a per byte, times the MTU (with header) rather than the MSS
        this.fi = 5.0 * (c009cb77 ? mtu : payloadBytes) * a;
        this.eta = 0.15 * payloadBytes * a;
        this.fiScale = 0.25 * a;
        // c009cb77 uec.cpp initNsccParams: the period is the reference RTT (12 us), the bytes scale with the target
        this.adjustPeriodPs = c009cb77 ? REFERENCE_RTT_PS : this.networkRttPs;
        this.adjustBytes = c009cb77 ? (long) (C009CB77_ADJUST_BYTES * b) : ADJUST_PACKETS * mtu;
        setBaseRtt(this.networkRttPs);
        this.cwnd = initCwndBytes > 0 ? initCwndBytes : maxwnd;
    }

    private void setBaseRtt(long rttPs) {
        baseRttPs = rttPs;
        long bdp = (long) (rttPs * 1e-12 * lineRateBps / 8);
        maxwnd = Math.max(mtu, (long) (MAXWND_BDP * bdp));
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return inflightBytes == 0 || wire(inflightBytes) + bytes <= cwnd;
    }

    /** Payload bytes in flight as bytes on the wire (a header per packet). */
    private long wire(long payloadBytes) {
        return payloadBytes + (payloadBytes + payload - 1) / payload * header;
    }

    @Override
    public long rateBps() {
        return lineRateBps;
    }

    /** NSCC reads every ACK through {@link #onAckFeedback}. */
    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {}

    @Override
    public boolean readsAckFeedback() {
        return true;
    }

    /** An ACK whose RTT sample is a full packet's. */
    void onAckFeedback(long deliveredWireBytes, boolean ecn, long rttPs, long inflightWireBytes) {
        onAckFeedback(deliveredWireBytes, ecn, rttPs, true, inflightWireBytes);
    }

    @Override
    public void onAckFeedback(long deliveredWireBytes, boolean ecn, long rttPs, boolean fullPacketSample, long inflightWireBytes) {
        achieved += deliveredWireBytes;
        received += deliveredWireBytes;
        bytesIgnored += deliveredWireBytes;
        if (rttPs < 0) return;   // not an ACK (a trimmed packet's NACK): its bytes count, the window moves at the next ACK
        long delay = sampleDelay(rttPs, ecn, fullPacketSample);
        long now = clock.now();
        if (quickAdapt(false, ecn, delay, inflightWireBytes, now)) return;
        if (!ecn) {
            if (delay >= targetPs) fairIncrease(deliveredWireBytes);
            else proportionalIncrease(deliveredWireBytes, delay);
        } else if (delay >= targetPs) {
            multiplicativeDecrease(now);
        }
        bound();
        if (received > adjustBytes || now - lastAdjustPs > adjustPeriodPs) fulfil(now);
        // c009cb77 uec.cpp updateCwndOnAck_NSCC: eta once per 12 us on its own clock, whether or not an adjustment ran
        if (c009cb77 && now - lastEtaPs > adjustPeriodPs) {
            cwnd = (long) (cwnd + eta);
            lastEtaPs = now;
        }
        bound();
    }

    /**
     * The sample's queueing delay, after it updated the base RTT and the smoothed delay (htsim
     * update_base_rtt, update_delay). c009cb77 (uec.cpp processAck, update_base_rtt): only a full
     * packet's RTT lowers the base RTT; a shorter packet's below it yields the smoothed delay and
     * leaves it unchanged.
     */
    private long sampleDelay(long rttPs, boolean ecn, boolean fullPacketSample) {
        if (rttPs < baseRttPs && (fullPacketSample || !c009cb77)) setBaseRtt(rttPs);
        if (rttPs < baseRttPs) return avgDelayPs;
        long delay = rttPs - baseRttPs;
        updateAvgDelay(delay, ecn);
        return delay;
    }

    /** htsim update_delay: an unmarked sample above the target counts as a quarter base RTT (it is likely one slow path). */
    private void updateAvgDelay(long delay, boolean ecn) {
        if (!ecn && delay > targetPs) {
            avgDelayPs = (long) (DELAY_ALPHA * baseRttPs * 0.25 + (1 - DELAY_ALPHA) * avgDelayPs);
        } else {
            avgDelayPs = (long) (DELAY_ALPHA * delay + (1 - DELAY_ALPHA) * avgDelayPs);
        }
    }

    /** htsim fair_increase: a fixed amount per byte acknowledged. */
    private void fairIncrease(long bytes) {
        incBytes += (long) (fi * bytes);
    }

    /**
     * htsim proportional_increase, after fast_increase. c009cb77 (uec.cpp proportional_increase):
     * the proportional part is rounded and the fair increase is added on top.
     */
    private void proportionalIncrease(long bytes, long delay) {
        if (delay < FAST_INCREASE_DELAY_PS) {
            fiCount += bytes;
            if (fiCount > cwnd || increasing) {
                cwnd = (long) (cwnd + bytes * fiScale);
                increasing = true;
                return;
            }
        } else {
            fiCount = 0;
        }
        increasing = false;
        if (c009cb77) {
            incBytes += Math.round(alpha * (targetPs - delay) * bytes);
            fairIncrease(bytes);
        } else {
            incBytes += (long) (alpha * bytes * (targetPs - delay));
        }
    }

    private void multiplicativeDecrease(long now) {
        increasing = false;
        fiCount = 0;
        if (avgDelayPs > targetPs && now - lastDecreasePs > baseRttPs) {
            cwnd = (long) (cwnd * Math.max(1 - GAMMA * (avgDelayPs - targetPs) / (double) avgDelayPs, MAX_MD));
            cwnd = Math.max(cwnd, mtu);
            lastDecreasePs = now;
        }
    }

    /**
     * htsim fulfill_adjustment: the collected increase over the window. Current: eta when a period
     * has passed since the last one. c009cb77 (uec.cpp fulfill_adjustment): at most the bytes
     * received since the last adjustment, and every adjustment restarts the period.
     */
    private void fulfil(long now) {
        if (c009cb77) {
            cwnd += Math.min(received, incBytes / cwnd);
            lastAdjustPs = now;
        } else {
            cwnd += incBytes / cwnd;
            if (now - lastAdjustPs >= adjustPeriodPs) {
                cwnd = (long) (cwnd + eta);
                lastAdjustPs = now;
            }
        }
        incBytes = 0;
        received = 0;
    }

    /**
     * Quick adapt (htsim quick_adapt): true when the window was set here, or when a marked ACK
     * falls in the bytes ignored after the last quick adapt; either way no other change follows.
     * c009cb77 (uec.cpp quick_adapt, updateCwndOnAck_NSCC): it never raises the window (no quick
     * adapt when more than the window was delivered), and keeps the collected increase.
     */
    private boolean quickAdapt(boolean loss, boolean ecn, long delay, long inflightWireBytes, long now) {
        boolean done = false;
        if (bytesIgnored < bytesToIgnore && ecn) {
            done = true;
        } else if (now > qaEndPs) {
            if (qaEndPs != 0 && (triggerQa || loss || delay > qaThresholdPs) && (qaGate == 0 || achieved < (maxwnd >> qaGate))
                    && !(c009cb77 && cwnd < achieved)) {
                cwnd = Math.max(achieved, mtu);
                bytesToIgnore = inflightWireBytes;
                bytesIgnored = 0;
                triggerQa = false;
                done = true;
            }
            achieved = 0;
            qaEndPs = now + baseRttPs + targetPs;
        }
        if (done && !c009cb77) {
            incBytes = 0;
            received = 0;
        }
        return done;
    }

    /**
     * htsim updateCwndOnNack_NSCC: a trimmed packet feeds a delay sample of one network RTT (the
     * queue that trimmed it was full), asks for quick adapt, and unless that ran (or the NACK falls
     * in the ignored bytes) takes the packet's bytes off the window. Its RTT may lower the base RTT
     * (htsim update_base_rtt_on_nack, on by default). c009cb77 (uec.cpp processNack,
     * updateCwndOnNack_NSCC): the bytes always come off first, the smoothed delay and the base RTT
     * stay, and quick adapt runs (with the smoothed delay) unless the NACK falls in the ignored bytes.
     */
    @Override
    public void onTrimmed(int wireBytes, long rttPs, long inflightWireBytes) {
        if (c009cb77) {
            cwnd -= wireBytes;
            bound();
            triggerQa = true;
            if (bytesIgnored >= bytesToIgnore) quickAdapt(true, false, avgDelayPs, inflightWireBytes, clock.now());
            return;
        }
        if (rttPs >= 0 && rttPs < baseRttPs) setBaseRtt(rttPs);
        bytesIgnored += wireBytes;
        updateAvgDelay(networkRttPs, true);
        triggerQa = true;
        if (!quickAdapt(true, true, 0, inflightWireBytes, clock.now())) {
            cwnd -= wireBytes;
            bound();
        }
    }

    /** htsim mark_packet_for_retransmission on a timeout: one packet off the window. */
    @Override
    public void onTimeout() {
        cwnd = Math.max(cwnd - mtu, mtu);
    }

    private void bound() {
        if (cwnd < mtu) cwnd = mtu;
        if (cwnd > maxwnd) cwnd = maxwnd;
    }

    @Override
    public long windowBytes() {
        return cwnd;
    }

    long targetPs() {
        return targetPs;
    }

    long maxWindowBytes() {
        return maxwnd;
    }

    long avgDelayPs() {
        return avgDelayPs;
    }
}

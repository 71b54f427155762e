package lbsim.transport;

/**
 * DCQCN rate control (Zhu et al., SIGCOMM 2015), the timer-driven NIC variant of the HPCC /
 * ConWeave ns-3 code (algorithms.md §2.2). A CNP only sets flags; a cut happens at most
 * every rate-decrease interval; the RP timer drives fast recovery, additive and hyper
 * increase. Alpha decays every alpha-resume interval; we apply the elapsed decays lazily
 * when a cut needs alpha instead of running a 1 us timer per QP. The QP's first CNP sets
 * alpha to 1 and starts the alpha clock, so the first cut halves the rate whenever the QP
 * opened. One difference from ns-3: a cut with no cut in the last rate-decrease interval
 * happens at once, where ns-3 waits for its next 4 us decrease tick.
 */
final class Dcqcn implements CongestionControl {
    private static final int DECREASE = 1;
    private static final int RP_TIMER = 2;

    private QueuePair qp;          // the message it serves now (moveTo): timers it schedules stop once that one finishes
    private final DcqcnParams p;
    private final long lineRateBps;
    private double rc;
    private double rt;
    private double alpha = 1.0;
    private long alphaUpdatedPs;
    private boolean cnpSeen;
    private boolean alphaFlag;
    private boolean decreaseFlag;
    private boolean decreaseTimerRunning;
    private int stage;
    private long rpGeneration;

    Dcqcn(QueuePair qp, DcqcnParams p, long lineRateBps) {
        this.qp = qp;
        this.p = p;
        this.lineRateBps = lineRateBps;
        this.rc = lineRateBps;
        this.rt = lineRateBps;
    }

    @Override
    public void moveTo(QueuePair next) {
        qp = next;
    }

    @Override
    public boolean windowAllows(long inflightBytes, int bytes) {
        return true;
    }

    @Override
    public long rateBps() {
        return (long) rc;
    }

    @Override
    public void onAck(long ackedBytes, long markedBytes, long rttPs, long ackSeq, long sndNxt) {}

    @Override
    public void onCnp() {
        if (!cnpSeen) {
            // HPCC ns-3 rdma-hw.cc cnp_received_mlx: the first CNP sets alpha = 1, clears the alpha flag, starts the alpha timer
            cnpSeen = true;
            alpha = 1.0;
            alphaUpdatedPs = qp.now();
            alphaFlag = false;
        } else {
            updateAlpha();
            alphaFlag = true;
        }
        decreaseFlag = true;
        if (!decreaseTimerRunning) {
            decreaseTimerRunning = true;
            decrease();
            qp.scheduleCcTimer(DECREASE, p.rateDecreaseIntervalPs(), 0);
        }
    }

    private long lastTrimCnpPs = Long.MIN_VALUE / 2;

    /**
     * A trimmed packet is a congestion notification as a CNP is, at most one per the receiver's
     * CNP interval (0, the HPCC/ConWeave default: every trim); the rate-decrease interval then
     * limits the cuts as for CNPs.
     */
    @Override
    public void onTrimmed(int wireBytes, long rttPs, long inflightWireBytes) {
        long now = qp.now();
        if (now - lastTrimCnpPs < p.cnpIntervalPs()) return;
        lastTrimCnpPs = now;
        onCnp();
    }

    private void updateAlpha() {
        long now = qp.now();
        long intervals = (now - alphaUpdatedPs) / p.alphaResumeIntervalPs();
        if (intervals <= 0) return;
        if (alphaFlag) {
            alpha = (1 - p.g()) * alpha + p.g();
            intervals--;
            alphaFlag = false;
        }
        if (intervals > 0) alpha *= Math.pow(1 - p.g(), Math.min(intervals, 1_000_000));
        alphaUpdatedPs += ((now - alphaUpdatedPs) / p.alphaResumeIntervalPs()) * p.alphaResumeIntervalPs();
    }

    private void decrease() {
        decreaseFlag = false;
        updateAlpha();
        // ClampTargetRate off (the ns-3 default): keep the target across back-to-back cuts,
        // so fast recovery returns toward the rate before the congestion episode
        if (stage > 0) rt = rc;
        rc = Math.max(p.minRateBps(), rc * (1 - alpha / 2));
        stage = 0;
        rpGeneration++;
        qp.scheduleCcTimer(RP_TIMER, p.rpTimerPs(), rpGeneration);
    }

    @Override
    public void onTimer(int kind, long token) {
        if (qp.isFinished()) return;
        if (kind == DECREASE) {
            if (decreaseFlag) {
                decrease();
                qp.scheduleCcTimer(DECREASE, p.rateDecreaseIntervalPs(), 0);
            } else {
                decreaseTimerRunning = false;
            }
        } else if (kind == RP_TIMER && token == rpGeneration) {
            if (stage < p.fastRecoveryTimes()) {
                rc = (rc + rt) / 2;
            } else if (stage == p.fastRecoveryTimes()) {
                rt = Math.min(rt + p.raiBps(), lineRateBps);
                rc = (rc + rt) / 2;
            } else {
                rt = Math.min(rt + p.rhaiBps(), lineRateBps);
                rc = (rc + rt) / 2;
            }
            rc = Math.min(rc, lineRateBps);
            stage++;
            if (rc < lineRateBps - 1) qp.scheduleCcTimer(RP_TIMER, p.rpTimerPs(), rpGeneration);
        }
    }

    double alpha() {
        return alpha;
    }
}

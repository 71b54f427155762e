package lbsim.transport;

import java.util.ArrayList;
import java.util.List;
import lbsim.transport.FlowSpec;

/** A flow in progress: its spec, the QPs that carry it, and its timing. */
public final class Flow {
    private final FlowSpec spec;
    private final long startPs;
    private final List<QueuePair> qps = new ArrayList<>(1);
    private int undelivered;
    private long deliveredPs = -1;
    private int unsent;
    private long sentPs = -1;
    private int unacknowledged;
    private long acknowledgedPs = -1;

    Flow(FlowSpec spec, long startPs) {
        this.spec = spec;
        this.startPs = startPs;
    }

    public FlowSpec spec() { return spec; }
    public long startPs() { return startPs; }
    public long deliveredPs() { return deliveredPs; }
    public boolean isDelivered() { return deliveredPs >= 0; }
    /** When the last QP put its last new packet on the wire (every byte transmitted once), -1 before. */
    public long sentPs() { return sentPs; }
    public boolean isSent() { return sentPs >= 0; }
    /** When the sender had every byte acknowledged (its last QP finished), -1 before. */
    public long acknowledgedPs() { return acknowledgedPs; }
    public List<QueuePair> qps() { return qps; }

    void add(QueuePair qp) {
        qps.add(qp);
        undelivered++;
        unsent++;
        unacknowledged++;
    }

    /**
     * Returns true when this was the flow's last unsent QP, the first time only: data a
     * scheme re-posts on new QPs after the flow was sent is retransmission and does not count.
     */
    boolean qpSent(long nowPs) {
        if (--unsent == 0 && sentPs < 0) {
            sentPs = nowPs;
            return true;
        }
        return false;
    }

    /** Returns true when this was the flow's last undelivered QP. */
    boolean qpDelivered(long nowPs) {
        if (--undelivered == 0) {
            deliveredPs = nowPs;
            return true;
        }
        return false;
    }

    /** Returns true when this was the flow's last unacknowledged QP. */
    boolean qpAcknowledged(long nowPs) {
        if (--unacknowledged == 0) {
            acknowledgedPs = nowPs;
            return true;
        }
        return false;
    }

    public long retransmittedPackets() {
        long r = 0;
        for (QueuePair q : qps) r += q.retransmittedPackets();
        return r;
    }

    public int pathChanges() {
        int c = 0;
        for (QueuePair q : qps) c += q.pathChanges();
        return c;
    }

    public long timeouts() {
        long c = 0;
        for (QueuePair q : qps) c += q.timeouts();
        return c;
    }
}

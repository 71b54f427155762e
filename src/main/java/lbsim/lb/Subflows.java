package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.Packet;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * Subflows (McClure et al. §4, Table 1): every flow is split evenly into {@code count}
 * subflows, each its own QP with its own random flow label, so ECMP hashes them apart.
 * With {@code spray}, every packet also gets a fresh flow label (McClure §7 "SF": a subflow is
 * only a unit of ACK accounting, its packets are sprayed like host spraying).
 */
public final class Subflows implements PathPolicy {
    private final int count;
    private final Ecmp.Host ports;
    private final HostSpray spray;

    public Subflows(int count, SplittableRandom random) {
        this(count, false, random, false);
    }

    /**
     * {@code spray}: a fresh flow label per packet (McClure §7 SF); {@code perConnectionPorts}:
     * ports as {@link Ecmp.Host#Host(SplittableRandom, boolean)} (NCCL keeps a connection's QP ports).
     */
    public Subflows(int count, boolean spray, SplittableRandom random, boolean perConnectionPorts) {
        if (count < 1) throw new IllegalArgumentException("subflow count must be >= 1");
        this.count = count;
        this.ports = new Ecmp.Host(random, perConnectionPorts);
        this.spray = spray ? new HostSpray(random) : null;
    }

    public int count() {
        return count;
    }

    @Override
    public void openFlow(Transport transport, Flow flow) {
        transport.openQps(flow, count);
    }

    @Override
    public int qpsAtLeast(FlowSpec spec) {
        return count;
    }

    /** The flow alone on an idle fabric: {@code count} QPs as in openFlow, their packets sprayed with {@code spray}. */
    @Override
    public IdleSplit idleSplit(Transport transport, FlowSpec spec) {
        IdleSplit s = IdleSplit.evenly(spec.sizeBytes(), count);
        return spray != null ? s.withSpraying() : s;
    }

    @Override
    public void initQp(QueuePair qp) {
        ports.initQp(qp);
    }

    @Override
    public void beforeSend(QueuePair qp, Packet p) {
        if (spray != null) spray.beforeSend(qp, p);
        else PathPolicy.super.beforeSend(qp, p);
    }

    @Override
    public boolean spraysPackets() {
        return spray != null;
    }
}

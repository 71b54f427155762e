package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.transport.Flow;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;

/**
 * Subflows (McClure et al. §4, Table 1): every flow is split evenly into {@code count}
 * subflows, each its own QP with its own random flow label, so ECMP hashes them apart.
 */
public final class Subflows implements PathPolicy {
    private final int count;
    private final Ecmp.Host ports;

    public Subflows(int count, SplittableRandom random) {
        this(count, random, false);
    }

    /** With {@code perConnectionPorts}, ports as {@link Ecmp.Host#Host(SplittableRandom, boolean)}. */
    public Subflows(int count, SplittableRandom random, boolean perConnectionPorts) {
        if (count < 1) throw new IllegalArgumentException("subflow count must be >= 1");
        this.count = count;
        this.ports = new Ecmp.Host(random, perConnectionPorts);
    }

    public int count() {
        return count;
    }

    @Override
    public void openFlow(Transport transport, Flow flow) {
        transport.openQps(flow, count);
    }

    @Override
    public void initQp(QueuePair qp) {
        ports.initQp(qp);
    }
}

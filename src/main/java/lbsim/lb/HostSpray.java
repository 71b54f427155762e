package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.Packet;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * Host packet spraying (McClure et al. §4; Ethereal §4 baseline): a fresh random entropy
 * (UDP source port) on every packet, so ECMP switches scatter one QP's packets over all
 * paths. What the reordering costs is the receiving NIC's (nic.reorder: the RoCE receiver goes back).
 */
public final class HostSpray implements PathPolicy {
    private final SplittableRandom random;

    public HostSpray(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void initQp(QueuePair qp) {
        qp.setSport(Ecmp.randomPort(random));
    }

    @Override
    public void beforeSend(QueuePair qp, Packet p) {
        p.sport = Ecmp.randomPort(random);
    }

    @Override
    public boolean spraysPackets() {
        return true;
    }

    /** On an idle fabric too, a QP's packets go over different paths (the idle FCT's reference lets each take its own). */
    @Override
    public IdleSplit idleSplit(Transport transport, FlowSpec spec) {
        return PathPolicy.super.idleSplit(transport, spec).withSpraying();
    }
}

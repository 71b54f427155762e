package lbsim.lb;

import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * Switch packet spraying (McClure et al. §4): each switch sends successive packets
 * round-robin over the equal-cost next hops, one counter per switch.
 */
public final class SwitchSpray implements ForwardingStrategy {
    private int next;

    @Override
    public boolean splitsFlows() {
        return true; // per packet
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        int i = next++;
        if (next == Integer.MAX_VALUE) next = 0;
        return candidates[i % candidates.length];
    }

    /** Host half: ECMP-style fixed port; the receiver must reorder. */
    public static final class Host implements PathPolicy {
        private final Ecmp.Host ports;

        public Host(java.util.SplittableRandom random) {
            this.ports = new Ecmp.Host(random);
        }

        @Override
        public void initQp(lbsim.transport.QueuePair qp) {
            ports.initQp(qp);
        }

        @Override
        public boolean spraysPackets() {
            return true;
        }

        /** The switches spray every packet, on an idle fabric too (the idle FCT's reference lets each take its own path). */
        @Override
        public IdleSplit idleSplit(Transport transport, FlowSpec spec) {
            return PathPolicy.super.idleSplit(transport, spec).withSpraying();
        }
    }
}

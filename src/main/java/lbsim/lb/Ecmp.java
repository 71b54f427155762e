package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;

/**
 * ECMP: each QP gets a random UDP source port in [0xC000, 0xFFFF] (RoCEv2 practice), and
 * every switch hashes the 5-tuple to pick a next hop, so all packets of a QP share a path.
 */
public final class Ecmp {
    public static final int SPORT_MIN = 0xC000;
    public static final int SPORT_RANGE = 0x4000;

    private Ecmp() {}

    /** Host half: one fixed random source port per QP. */
    public static final class Host implements PathPolicy {
        private final SplittableRandom random;

        public Host(SplittableRandom random) {
            this.random = random;
        }

        @Override
        public void initQp(QueuePair qp) {
            qp.setSport(SPORT_MIN + random.nextInt(SPORT_RANGE));
        }
    }

    /** Switch half: hash of the 5-tuple with a per-switch seed. */
    public static final class Hash implements ForwardingStrategy {
        private final long seed;

        public Hash(long seed) {
            this.seed = seed;
        }

        @Override
        public int choose(Switch sw, Packet p, int[] candidates) {
            return candidates[EcmpHash.bucket(EcmpHash.hash(seed, p), candidates.length)];
        }
    }
}

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

    /** A uniformly random RoCE source port (entropy) from [SPORT_MIN, SPORT_MIN + SPORT_RANGE). */
    static int randomPort(SplittableRandom random) {
        return SPORT_MIN + random.nextInt(SPORT_RANGE);
    }

    /** A random source port other than {@code current}: a repath that really moves the flow label. */
    static int otherPort(SplittableRandom random, int current) {
        int port;
        do {
            port = randomPort(random);
        } while (port == current);
        return port;
    }

    private Ecmp() {}

    /** Key {@code qp_ports} of ecmp / mprdma: a fresh random port per QP, or one per connection and QP index. */
    public static final java.util.List<String> QP_PORTS = Connection.SCOPES;

    /** Host half: one fixed random source port per QP. */
    public static final class Host implements PathPolicy {
        private final SplittableRandom random;
        private final boolean perConnection;
        private final long salt;

        public Host(SplittableRandom random) {
            this(random, false);
        }

        /**
         * With {@code perConnection}, QP i of every flow of one {@link Connection} (the flow's group, i.e. the job's
         * communicator, source and destination) gets the same random port, as NCCL keeps a connection's
         * NCCL_IB_QPS_PER_CONNECTION QPs for the communicator's lifetime (CTCCL §2.2, §4.2: NCCL + ECMP);
         * otherwise every new QP draws a fresh port.
         */
        public Host(SplittableRandom random, boolean perConnection) {
            this.random = random;
            this.perConnection = perConnection;
            this.salt = perConnection ? random.nextLong() : 0;
        }

        @Override
        public void initQp(QueuePair qp) {
            if (!perConnection) {
                qp.setSport(randomPort(random));
                return;
            }
            Connection c = Connection.of(qp);
            long h = EcmpHash.hash(salt, c.src(), c.dst(), c.index(), c.group(), 0);
            qp.setSport(SPORT_MIN + (int) Long.remainderUnsigned(h, SPORT_RANGE));
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

package lbsim.lb;

import java.util.SplittableRandom;
import lbsim.net.Packet;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * Host packet spraying (McClure et al. §4; Ethereal §4 baseline): a new entropy (UDP source
 * port) on every packet, so ECMP switches scatter one QP's packets over the paths. What the
 * reordering costs is the receiving NIC's (nic.reorder: the RoCE receiver goes back).
 * <p>
 * With {@code entropies} = 0 every packet draws a fresh random port. With N > 0 (a power of two)
 * a QP keeps a fixed set of N entropies and cycles through it as uet-htsim's oblivious load
 * balancer does (UecMpOblivious, {@code -paths N}): the set is N consecutive values under random
 * upper bits fixed per QP; each round of N packets uses every one once, in the order
 * {@code i XOR x} for i = 0..N-1, with x drawn at random at the QP's start and again after each round.
 */
public final class HostSpray implements PathPolicy {
    /** Largest {@code entropies}: the RoCE source-port range. */
    public static final int MAX_ENTROPIES = Ecmp.SPORT_RANGE;

    private final SplittableRandom random;
    private final int entropies;

    /** A QP's cycle through its fixed entropy set (only with {@code entropies} > 0). */
    static final class Cycle {
        final int base;  // the QP's upper bits, low log2(N) bits clear
        int index;       // packets sent in this round
        int xor;         // this round's order

        Cycle(int base, int xor) {
            this.base = base;
            this.xor = xor;
        }
    }

    public HostSpray(SplittableRandom random) {
        this(random, 0);
    }

    /** {@code entropies}: 0 for a fresh random port per packet, else a power of two up to {@link #MAX_ENTROPIES}. */
    public HostSpray(SplittableRandom random, int entropies) {
        if (entropies < 0 || entropies > MAX_ENTROPIES || Integer.bitCount(entropies) > 1) {
            throw new IllegalArgumentException("entropies must be 0 or a power of two up to " + MAX_ENTROPIES + ": " + entropies);
        }
        this.random = random;
        this.entropies = entropies;
    }

    /** Whether {@code n} is an allowed {@code entropies} value. */
    public static boolean validEntropies(int n) {
        return n >= 0 && n <= MAX_ENTROPIES && Integer.bitCount(n) <= 1;
    }

    @Override
    public void initQp(QueuePair qp) {
        qp.setSport(Ecmp.randomPort(random));
        if (entropies > 0) qp.setSchemeState(newCycle());
    }

    Cycle newCycle() {
        int mask = entropies - 1;
        return new Cycle(random.nextInt(Ecmp.SPORT_RANGE) & ~mask, random.nextInt(entropies));
    }

    @Override
    public void beforeSend(QueuePair qp, Packet p) {
        p.sport = entropies == 0 ? Ecmp.randomPort(random) : next((Cycle) qp.schemeState());
    }

    /** The next entropy of a QP's cycle: each of the N once per round, in a new XOR order each round. */
    int next(Cycle c) {
        int mask = entropies - 1;
        int port = Ecmp.SPORT_MIN + (c.base | ((c.index ^ c.xor) & mask));
        if (++c.index == entropies) {
            c.index = 0;
            c.xor = random.nextInt(entropies);
        }
        return port;
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

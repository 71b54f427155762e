package lbsim.lb;

import java.util.Arrays;
import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.ForwardingStrategy;
import lbsim.net.LbHeader;
import lbsim.net.Packet;
import lbsim.net.Switch;
import lbsim.topology.Topology;

/**
 * CONGA (Alizadeh et al., SIGCOMM 2014; algorithms.md §1.5): leaf-to-leaf congestion feedback.
 *
 * <p>Every switch meters each fabric egress port with a DRE (bytes added per packet, decayed by
 * a factor 1 - alpha every {@code dre_us}; the decay is applied lazily when the register is next
 * touched, so there are no timers) and raises the packet's CE field to the port's DRE quantised
 * to {@code q_bits} (X·8 / (rate·tau) · 2^Q with tau = dre_us / alpha, clamped, rate = the port's
 * current, possibly degraded, rate). The source leaf stamps the uplink it chose as the packet's
 * LBTag and piggybacks one Congestion-From-Leaf entry for the destination leaf (FB tag and
 * metric, round robin, entries changed since they were last sent first). The destination leaf
 * stores CE in Congestion-From-Leaf[src leaf][LBTag] and the feedback in
 * Congestion-To-Leaf[src leaf][FB tag]. All packets, ACKs included, carry the fields (as every packet
 * crosses the paper's overlay), or with {@code feedback: data} only data packets do and the rest go by
 * ECMP hash (ConWeave's ns-3 model, which the Hopper paper's simulations use). Metrics
 * older than {@code age_us} count as 0 (To-Leaf) or are not fed back (From-Leaf). A new flowlet
 * (gap above {@code gap_us}) takes the uplink minimising max(local quantised DRE, remote
 * metric), ties at random; with {@code sample_paths: n} only among n consecutive uplinks from a
 * random start (uniform over the uplinks - n + 1 windows, so the middle uplinks are compared more
 * often than the outer ones), as ConWeave's ns-3 CONGA does (conga-routing.cc GetBestPath(dstToRId, 4)).
 *
 * <p>Fat-trees (CONGA is defined for 2-tier leaf-spine): ToRs run CONGA over their uplinks
 * (the LBTag is the ToR uplink); aggregation and core switches choose by ECMP hash and still
 * meter DRE and raise CE, so a path's metric covers the whole path but CONGA steers only the
 * first hop. DRE counts bytes as they are admitted to the egress queue.
 */
public final class Conga implements ForwardingStrategy {
    /**
     * Scheme parameters (defaults: ConWeave ns-3 network-load-balance.cc, "based on paper recommendation").
     * {@code dataOnly}: only data packets are CONGA-routed and carry LBTag, CE and feedback, ACKs and other
     * control packets go by ECMP hash (ConWeave's ns-3 model, algorithms.md §1.5); otherwise every packet does,
     * as every packet crosses the CONGA overlay in the paper.
     */
    public record Params(double gapUs, double dreUs, double alpha, int qBits, double ageUs, boolean dataOnly, int samplePaths) {
        public Params(double gapUs, double dreUs, double alpha, int qBits, double ageUs, boolean dataOnly) {
            this(gapUs, dreUs, alpha, qBits, ageUs, dataOnly, 0);
        }

        public Params(double gapUs, double dreUs, double alpha, int qBits, double ageUs) {
            this(gapUs, dreUs, alpha, qBits, ageUs, false);
        }
    }

    /** Values of the {@code feedback} key: every packet carries CONGA state, or data packets only. */
    public static final java.util.List<String> FEEDBACK = java.util.List.of("all", "data");

    /**
     * Discounting rate estimators of a switch's ports: X += bytes per packet, X *= 1 - alpha at
     * every multiple of the period, applied lazily on the next access.
     */
    static final class Dre {
        private static final int DECAY_STEPS = 1024;
        private final double[] x;
        private final long[] epoch;
        private final long stepPs;
        private final double[] decay = new double[DECAY_STEPS];

        Dre(int ports, long stepPs, double alpha) {
            x = new double[ports];
            epoch = new long[ports];
            this.stepPs = stepPs;
            for (int k = 0; k < DECAY_STEPS; k++) decay[k] = Math.pow(1 - alpha, k);
        }

        void add(int port, int bytes, long nowPs) {
            x[port] = value(port, nowPs) + bytes;
        }

        /** The register at {@code nowPs}, in bytes. */
        double value(int port, long nowPs) {
            long e = nowPs / stepPs;
            long k = e - epoch[port];
            if (k != 0) {
                x[port] = k < DECAY_STEPS ? x[port] * decay[(int) k] : 0;
                epoch[port] = e;
            }
            return x[port];
        }
    }

    private final Simulation sim;
    private final Topology topo;
    private final long seed;
    private final SplittableRandom random;
    private final boolean leaf;
    private final boolean dataOnly;
    private final int samplePaths;

    // DRE per local port
    private final boolean[] fabric;
    private final Dre dre;
    private final double tauPs;
    private final int maxCe;

    // leaf state
    private final int maxUplinks;
    private final int[] uplinkIndex;
    private final long gapPs;
    private final long agePs;
    private final int[] toLeafCe;
    private final long[] toLeafTime;
    private final int[] fromLeafCe;
    private final long[] fromLeafTime;
    private final boolean[] fromLeafChanged;
    private final int[] fbNext;
    private final FlowTable flowlets;

    public Conga(Simulation sim, Topology topo, Switch sw, Params params, int maxUplinks, long seed,
                 SplittableRandom random) {
        this.sim = sim;
        this.topo = topo;
        this.seed = seed;
        this.random = random;
        this.leaf = topo.torIndex(sw.id) >= 0;
        this.dataOnly = params.dataOnly();
        this.samplePaths = params.samplePaths();
        int ports = sw.portCount();
        fabric = new boolean[ports];
        uplinkIndex = new int[ports];
        Arrays.fill(uplinkIndex, -1);
        int u = 0;
        for (int i = 0; i < ports; i++) {
            fabric[i] = !topo.isHost(sw.port(i).peer().id);
            if (fabric[i] && leaf) uplinkIndex[i] = u++;
        }
        long dreStepPs = Math.max(1, Math.round(params.dreUs() * Simulation.PS_PER_US));
        dre = new Dre(ports, dreStepPs, params.alpha());
        tauPs = dreStepPs / params.alpha();
        maxCe = (1 << params.qBits()) - 1;
        this.maxUplinks = maxUplinks;
        gapPs = Math.round(params.gapUs() * Simulation.PS_PER_US);
        agePs = Math.round(params.ageUs() * Simulation.PS_PER_US);
        int cells = leaf ? topo.torCount() * maxUplinks : 0;
        toLeafCe = new int[cells];
        toLeafTime = new long[cells];
        fromLeafCe = new int[cells];
        fromLeafTime = new long[cells];
        fromLeafChanged = new boolean[cells];
        Arrays.fill(toLeafTime, Long.MIN_VALUE / 2);
        Arrays.fill(fromLeafTime, Long.MIN_VALUE / 2);
        fbNext = new int[leaf ? topo.torCount() : 0];
        flowlets = leaf ? new FlowTable(Math.max(EcmpAr.AGE_PS, gapPs)) : null;
    }

    /** Most fabric (switch-facing) ports of any ToR: the width of the LBTag space. */
    public static int maxUplinks(Topology topo) {
        int max = 1;
        for (int t = 0; t < topo.torCount(); t++) {
            int node = topo.torNode(t);
            int n = 0;
            for (int i = 0; i < topo.portsOf(node); i++) {
                if (!topo.isHost(topo.peerNode(topo.firstPort(node) + i))) n++;
            }
            max = Math.max(max, n);
        }
        return max;
    }

    @Override
    public boolean observesForwarding() {
        return true;
    }

    @Override
    public boolean splitsFlows() {
        return true; // a new flowlet may leave on another port while the last one still queues
    }

    @Override
    public int choose(Switch sw, Packet p, int[] candidates) {
        if (!leaf || !carries(p)) return candidates[EcmpHash.bucket(EcmpHash.hash(seed, p), candidates.length)];
        long key = FlowTable.key(p);
        long now = sim.now();
        int sticky = flowlets.stickyPort(key, candidates, now, gapPs);
        if (sticky >= 0) return sticky;
        int base = leafOf(p.dst) * maxUplinks;
        int best = -1;
        int bestMetric = Integer.MAX_VALUE;
        int ties = 0;
        int from = 0;
        int to = candidates.length;
        if (samplePaths > 0 && samplePaths < candidates.length) {
            from = random.nextInt(candidates.length - samplePaths + 1);
            to = from + samplePaths;
        }
        for (int k = from; k < to; k++) {
            int c = candidates[k];
            int metric = Math.max(quantise(sw, c, now), remote(base + uplinkIndex[c], now));
            if (metric < bestMetric) {
                bestMetric = metric;
                best = c;
                ties = 1;
            } else if (metric == bestMetric && random.nextInt(++ties) == 0) {
                best = c;
            }
        }
        flowlets.record(key, best, now);
        return best;
    }

    @Override
    public void onForward(Switch sw, Packet p, int in, int out) {
        long now = sim.now();
        if (!fabric[out]) {
            if (leaf && fabric[in]) atDestinationLeaf(p, now);
            return;
        }
        dre.add(out, p.wireBytes, now);
        int ce = quantise(sw, out, now);
        if (!carries(p)) return;
        LbHeader h = p.lb();
        if (leaf && !fabric[in]) {
            h.lbTag = uplinkIndex[out];
            h.ce = ce;
            piggyback(h, leafOf(p.dst), now);
        } else if (ce > h.ce) {
            h.ce = ce;
        }
    }

    private boolean carries(Packet p) {
        return !dataOnly || p.kind == Packet.DATA;
    }

    private int leafOf(int host) {
        return topo.torIndex(topo.hostTor(host));
    }

    private void atDestinationLeaf(Packet p, long now) {
        int base = leafOf(p.src) * maxUplinks;
        LbHeader h = p.lb();
        if (h.lbTag >= 0) {
            int i = base + h.lbTag;
            fromLeafCe[i] = h.ce;
            fromLeafTime[i] = now;
            fromLeafChanged[i] = true;
        }
        if (h.fbTag >= 0) {
            int i = base + h.fbTag;
            toLeafCe[i] = h.fbMetric;
            toLeafTime[i] = now;
        }
        h.lbTag = -1;
        h.fbTag = -1;
    }

    /** One From-Leaf metric for the destination leaf: changed entries first, round robin. */
    private void piggyback(LbHeader h, int dstLeaf, long now) {
        int base = dstLeaf * maxUplinks;
        int start = fbNext[dstLeaf];
        int pick = -1;
        for (int k = 0; k < maxUplinks; k++) {
            int u = start + k;
            if (u >= maxUplinks) u -= maxUplinks;
            int i = base + u;
            if (now - fromLeafTime[i] > agePs) continue;
            if (fromLeafChanged[i]) {
                pick = u;
                break;
            }
            if (pick < 0) pick = u;
        }
        if (pick < 0) {
            h.fbTag = -1;
            return;
        }
        int i = base + pick;
        h.fbTag = pick;
        h.fbMetric = fromLeafCe[i];
        fromLeafChanged[i] = false;
        fbNext[dstLeaf] = pick + 1 == maxUplinks ? 0 : pick + 1;
    }

    private int remote(int i, long now) {
        return now - toLeafTime[i] > agePs ? 0 : toLeafCe[i];
    }

    private int quantise(Switch sw, int port, long now) {
        return quantise(dre.value(port, now), sw.port(port).rateBps(), tauPs, maxCe);
    }

    /** CE of a DRE register: X·8 / (rate·tau) · 2^Q, clamped to 2^Q - 1. */
    static int quantise(double bytes, long rateBps, double tauPs, int maxCe) {
        double capacityBytes = rateBps * tauPs / (8.0 * Simulation.PS_PER_S);
        return (int) Math.min(maxCe, bytes / capacityBytes * (maxCe + 1));
    }
}

package lbsim.transport;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;
import lbsim.engine.Simulation;
import lbsim.net.Host;
import lbsim.net.Network;
import lbsim.net.Packet;
import lbsim.net.PacketSink;
import lbsim.transport.FlowSpec;

/**
 * The RoCE-style transport of every host: opens queue pairs for flows, dispatches arriving
 * packets to them, and keeps the QP accounting (QPs each NIC holds, and the maximum).
 */
public final class Transport implements PacketSink {
    private final Simulation sim;
    private final Network net;
    private final TransportConfig cfg;
    private final TransportConfig[] cfgByHost;
    private final PathPolicy policy;
    private final Supplier<LossRecovery>[] recoveriesByHost;
    private final FlowListener listener;
    private final List<QueuePair> qps = new ArrayList<>();
    private final int[] openQps;
    private final int[] maxOpenQps;
    private final BitSet messages = new BitSet(); // QPs opened by openMessage: not counted on their NIC
    private final long dcqcnCnpIntervalPs;
    private long openQpCount;
    private int nextContext;         // NIC QP contexts handed out so far (one per long-lived QP)
    // a connection's k-th QP keeps its NIC context from flow to flow, as NCCL's connections persist:
    // key (source, destination, k) -> context
    private final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap connectionContexts = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();
    private long lastQpFinishedPs;
    private QueuePair firstFailed;   // the first QP whose retry count ran out, or null

    /** One configuration for every host. */
    public Transport(Simulation sim, Network net, TransportConfig cfg, PathPolicy policy, FlowListener listener) {
        this(sim, net, filled(cfg, net.hostCount()), policy, listener);
    }

    private static TransportConfig[] filled(TransportConfig cfg, int hosts) {
        TransportConfig[] a = new TransportConfig[hosts];
        java.util.Arrays.fill(a, cfg);
        return a;
    }

    /**
     * @param cfgByHost each host's settings: they differ only in the defaults that scale with the
     *                  host's NIC rate (initial window, IRN's in-flight cap, Swift's base RTT,
     *                  fixed-rate pacing); hosts with equal NICs share one object
     */
    @SuppressWarnings("unchecked")
    public Transport(Simulation sim, Network net, TransportConfig[] cfgByHost, PathPolicy policy, FlowListener listener) {
        this.sim = sim;
        this.net = net;
        this.cfg = cfgByHost[0];
        this.cfgByHost = cfgByHost;
        this.policy = policy;
        this.listener = listener;
        java.util.Map<TransportConfig, Supplier<LossRecovery>> byConfig = new java.util.IdentityHashMap<>();
        this.recoveriesByHost = new Supplier[cfgByHost.length];
        for (int h = 0; h < cfgByHost.length; h++) {
            recoveriesByHost[h] = byConfig.computeIfAbsent(cfgByHost[h], c -> LossRecoveries.byName(c.lossRecovery(), c.recovery()));
        }
        if (recoveriesByHost[0] == null) throw new IllegalArgumentException("unknown loss recovery " + cfg.lossRecovery());
        if (!CongestionControls.NAMES.contains(cfg.cc())) throw new IllegalArgumentException("unknown cc " + cfg.cc());
        this.openQps = new int[net.hostCount()];
        this.maxOpenQps = new int[net.hostCount()];
        this.dcqcnCnpIntervalPs = DcqcnParams.forLineRate(net.host(0).nic().nominalRateBps()).cnpIntervalPs();
        net.setSink(this);
        net.setPathControl(policy.pathControl());
    }

    public Simulation sim() { return sim; }
    public Network network() { return net; }
    /** Host 0's settings: read it only for those every host shares (MTU, headers, ACKs, timeouts), not the NIC-derived ones. */
    public TransportConfig config() { return cfg; }
    /** A host's own settings (those that scale with its NIC, and its NIC's receiver and timers). */
    public TransportConfig configOf(int host) { return cfgByHost[host]; }
    public PathPolicy policy() { return policy; }

    boolean sendsCnp() {
        return cfg.cc().equals("dcqcn");
    }

    long cnpIntervalPs() {
        return dcqcnCnpIntervalPs;
    }

    /**
     * Starts a flow now: the path policy opens its QPs, which start sending at once. A policy
     * that batches flows (Ethereal's interceptor) may open them later and start them itself
     * with {@link #startQp}.
     */
    public Flow startFlow(FlowSpec spec) {
        Flow f = new Flow(spec, sim.now());
        policy.openFlow(this, f);
        for (QueuePair qp : f.qps()) qp.start();
        return f;
    }

    /** Starts a QP opened outside {@link PathPolicy#openFlow} (deferred by the policy). */
    public void startQp(QueuePair qp) {
        qp.start();
    }

    /** Splits a flow's bytes as evenly as possible over {@code n} new QPs. */
    public void openQps(Flow f, int n) {
        for (long b : evenShares(f.spec().sizeBytes(), n)) openQp(f, b);
    }

    /** {@code size} bytes as evenly as possible over {@code n} QPs (at most one per byte, at least one), larger shares first. */
    public static long[] evenShares(long size, int n) {
        n = (int) Math.max(1, Math.min(n, size));
        long base = size / n;
        long extra = size % n;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = base + (i < extra ? 1 : 0);
        return out;
    }

    /** Opens one QP carrying {@code bytes} of the flow. */
    public QueuePair openQp(Flow f, long bytes) {
        return open(f, bytes, true);
    }

    /**
     * Opens a QP that stands for one message (work request) posted on one of the NIC's long-lived
     * QPs (ParaLet's flowlets, §5.3; data CTCCL re-posts on a healthy QP, §3.3), whose NIC context
     * {@code context} it uses. It is not counted as a QP of the NIC: declare the long-lived ones
     * with {@link #reserveNicQps}, or it is posted on a QP opened with {@link #openQp}.
     */
    public QueuePair openMessage(Flow f, long bytes, int context) {
        QueuePair qp = open(f, bytes, false);
        qp.setContextId(context);
        return qp;
    }

    /** Declares {@code n} long-lived QPs on a host's NIC; they count in the NIC's QPs from now on. */
    public void reserveNicQps(int host, int n) {
        openQps[host] += n;
        if (openQps[host] > maxOpenQps[host]) maxOpenQps[host] = openQps[host];
    }

    /** Closes {@code n} QPs declared with {@link #reserveNicQps} (Hopper's probing QPs once a probe is done). */
    public void releaseNicQps(int host, int n) {
        openQps[host] -= n;
    }

    private QueuePair open(Flow f, long bytes, boolean counted) {
        int src = f.spec().src();
        QueuePair qp = new QueuePair(this, qps.size(), f, bytes, recoveriesByHost[src].get(), policy);
        qp.setCongestionControl(CongestionControls.create(cfgByHost[src], qp));
        qps.add(qp);
        f.add(qp);
        int h = qp.src();
        openQpCount++;
        if (counted) {
            openQps[h]++;
            if (openQps[h] > maxOpenQps[h]) maxOpenQps[h] = openQps[h];
            qp.setContextId(connectionContext(f, qp));
        } else {
            messages.set(qp.id);
        }
        policy.initQp(qp);
        return qp;
    }

    /** The NIC context of the flow's newest QP: its connection's, opened on first use. */
    private int connectionContext(Flow f, QueuePair qp) {
        int k = 0;
        for (QueuePair q : f.qps()) if (q != qp && !messages.get(q.id)) k++;
        return connectionContext(qp.src(), qp.dst(), k);
    }

    /**
     * The NIC context of the {@code k}-th QP of the connection from {@code src} to {@code dst}: the
     * same for every flow of the pair, as an RC QP is connected to one peer and NCCL keeps its
     * connections for the job.
     */
    public int connectionContext(int src, int dst, int k) {
        long key = ((long) src * net.hostCount() + dst) * 65536L + Math.min(k, 65535);
        int ctx = connectionContexts.getOrDefault(key, -1);
        if (ctx < 0) {
            ctx = newContext(src, dst);
            connectionContexts.put(key, ctx);
        }
        return ctx;
    }

    /** A new QP's NIC context, installed at both ends' NICs as a created QP's is. */
    public int newContext(int src, int dst) {
        int ctx = nextContext++;
        net.host(src).installContext(ctx, false);
        net.host(dst).installContext(ctx, true);
        return ctx;
    }

    void qpSent(QueuePair qp) {
        if (qp.flow().qpSent(sim.now())) listener.onFlowSent(qp.flow());
    }

    void qpDelivered(QueuePair qp) {
        if (qp.flow().qpDelivered(sim.now())) listener.onFlowDelivered(qp.flow());
    }

    void qpFinished(QueuePair qp) {
        if (!messages.get(qp.id)) openQps[qp.src()]--;
        openQpCount--;
        lastQpFinishedPs = sim.now();
        if (qp.flow().qpAcknowledged(sim.now())) listener.onFlowAcknowledged(qp.flow());
    }

    /**
     * A QP's retry count ran out (InfiniBand: the work request completes with a retry-exceeded
     * error and the QP goes to the error state; NCCL then aborts the communicator): the run stops.
     */
    void qpFailed(QueuePair qp) {
        if (firstFailed == null) {
            firstFailed = qp;
            sim.stop();
        }
    }

    /** The first QP that failed (its retry count ran out), or null. */
    public QueuePair firstFailedQp() {
        return firstFailed;
    }

    @Override
    public void deliver(Host host, Packet p) {
        QueuePair qp = qps.get(p.qp);
        switch (p.kind) {
            case Packet.DATA -> {
                if (p.trimmed) qp.onTrimmedHeader(p);
                else qp.onData(p);
            }
            case Packet.ACK, Packet.NACK -> qp.onAck(p);
            case Packet.CNP -> qp.onCnp();
            case Packet.PROBE -> qp.onProbe(p);
            case Packet.PROBE_ACK -> qp.onProbeAck(p);
            default -> { }
        }
        net.release(p);
    }

    /** When the most recent QP received its last ACK. */
    public long lastQpFinishedPs() {
        return lastQpFinishedPs;
    }

    /** QPs still open (not fully acknowledged). */
    public long openQpCount() {
        return openQpCount;
    }

    public List<QueuePair> queuePairs() {
        return qps;
    }

    /** Largest number of QPs any NIC held at once. */
    public int maxQpsPerNic() {
        int m = 0;
        for (int v : maxOpenQps) m = Math.max(m, v);
        return m;
    }

    public int maxQpsOf(int host) {
        return maxOpenQps[host];
    }
}

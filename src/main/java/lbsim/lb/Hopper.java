package lbsim.lb;

import java.util.Map;
import java.util.SplittableRandom;
import lbsim.engine.Simulation;
import lbsim.net.Packet;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;

/**
 * Hopper (Nosrati and Ghaderi, "Predictive Load Balancing for RDMA Traffic", paper 004 §3,
 * Alg. 1, Table 1, Appendix A). Per QP, in control epochs of one RTT:
 * <ul>
 * <li>a moving average of per-packet RTTs (weight {@code alpha}, Table 1: 1);</li>
 * <li>above {@code th_probe} x base RTT (1.5), once per epoch, two small probes go out on two
 *     random source ports not probed within {@code ttl_probe} x base RTT (4.0) (power of two
 *     choices, §3.2); the receiver echoes each probe, and its RTT is kept in a small table with
 *     the time it was probed;</li>
 * <li>above {@code th_cong} x base RTT (2.5), once per epoch, the QP moves to the best fresh
 *     probed port if that port's RTT is at most {@code delta_rtt} (0.8) x the current average
 *     (§3.3 "substantially lower ... exceeding a configurable margin δ_rtt"; Table 1 gives
 *     80 %. We read it as a ratio: "lower by 80 %" would need a probed RTT below 0.5 x base RTT
 *     at th_cong, which no path has). Otherwise it stays and tries again next epoch;</li>
 * <li>before the move the QP stops sending for the estimated RTT of its last in-flight packet
 *     on the old path minus the new path's RTT (x {@code switch_delay}, 1), the estimate being
 *     a least-squares line through this epoch's RTT samples extrapolated over the packets in
 *     flight (§3.3, Fig. 1), so new-path packets do not overtake old-path ones.</li>
 * </ul>
 * An epoch ends when the data in flight at its start is acknowledged. The base RTT is the
 * path's unloaded RTT ({@link UnloadedRtt}) unless {@code base_rtt_us} is set. Probes are
 * {@link Packet#PROBE} packets in the data class, counted as control packets: one of ACK size by
 * default (§3.2 "small probe packets", size not given), or {@code probe_bytes} of data in
 * MTU-sized packets whose probe RTT is that of the last echo (§4.2.1: the testbed probes with
 * 10 KB chunks and times a chunk from posting to its completion, so a slow link shows in the
 * probe). As in §3.2 each probe goes out on a probing QP of its own, opened for the probe (two per
 * round, counted in the NIC's QPs and using its own NIC context): a switch moves the connection onto
 * the chosen probe's QP and closes its old QP; a declined switch closes both probing QPs. The paper's RNIC reorders a bounded window
 * (IRN; its presets use the irn NIC with a 30-packet window). The paper does not react to timeouts;
 * neither does this.
 *
 * <p>With {@code state: per-connection} a new QP of a {@link Connection} takes over the newest
 * QP's source port, probe table and RTT average (the §4.2.1 testbed keeps one Hopper state per
 * flow across the chunks it posts as RDMA messages; the average restarts at the new QP's first
 * epoch like every epoch's, so only port and table change decisions). With {@code repath: between-qps} a switch
 * decision does not move the QP: the connection's next QP starts on the chosen port, and a later
 * decision of the same QP replaces it (a decision to stay cancels it); the testbed can switch
 * "only" at chunk boundaries (§4.2.1 "The chunk size specifies the granularity at which Hopper
 * can switch paths"). path_switches then counts QPs started on a new port.
 */
public final class Hopper implements PathPolicy {
    /** Probe-table entries kept per QP (the two newest probes of the last few epochs). */
    static final int TABLE = 8;

    private final SplittableRandom random;
    private final double alpha;
    private final double thProbe;
    private final double thCong;
    private final double ttlProbe;
    private final double deltaRtt;
    private final double switchDelay;
    private final long baseRttOverridePs;
    private final int probeBytes;
    private final Connections connections; // null: per-QP state
    private final boolean betweenQps;
    private long probes;
    private long probeAcks;
    private long switches;
    private long declined;

    /** Per-QP state; primitive arrays only, so ACK handling allocates nothing. */
    static final class State {
        long basePs;
        long epochEndSeq = -1;
        boolean mayProbe = true;
        boolean maySwitch = true;
        double avgRttPs;
        // least-squares fit of this epoch's RTT samples against their index
        int n;
        double sx;
        double sy;
        double sxy;
        double sxx;
        double lastRttPs;
        // probe table, a ring of TABLE entries
        final int[] port = new int[TABLE];
        final long[] rttPs = new long[TABLE];       // -1 while the probe is out
        final long[] probedAtPs = new long[TABLE];
        final int[] echoes = new int[TABLE];        // probe packets echoed so far
        final int[] context = new int[TABLE];       // the NIC context of the probing QP that sent it
        int openProbeQps;                            // probing QPs of the last round not yet closed
        int roundContext = -1;                       // the first NIC context of the last round
        int used;
        int next;
        int plannedPort = -1; // repath between-qps: where the connection's next QP starts (-1: where this one is)
        boolean superseded;   // the connection's next QP has taken over: this one decides nothing more

        State() {
            java.util.Arrays.fill(probedAtPs, Long.MIN_VALUE / 2);
        }
    }

    public Hopper(SplittableRandom random, double alpha, double thProbe, double thCong, double ttlProbe, double deltaRtt,
                  double switchDelay, double baseRttUs) {
        this(random, alpha, thProbe, thCong, ttlProbe, deltaRtt, switchDelay, baseRttUs, 0);
    }

    /** {@code probeBytes}: data per probe (0 = one ACK-sized packet). */
    public Hopper(SplittableRandom random, double alpha, double thProbe, double thCong, double ttlProbe, double deltaRtt,
                  double switchDelay, double baseRttUs, int probeBytes) {
        this(random, alpha, thProbe, thCong, ttlProbe, deltaRtt, switchDelay, baseRttUs, probeBytes, false, false);
    }

    /**
     * {@code perConnection}: a new QP takes over the path state of its connection's newest QP;
     * {@code betweenQps} (needs {@code perConnection}): switches take effect on the connection's next QP.
     */
    public Hopper(SplittableRandom random, double alpha, double thProbe, double thCong, double ttlProbe, double deltaRtt,
                  double switchDelay, double baseRttUs, int probeBytes, boolean perConnection, boolean betweenQps) {
        if (betweenQps && !perConnection) throw new IllegalArgumentException("repath between-qps needs per-connection state");
        this.random = random;
        this.alpha = alpha;
        this.thProbe = thProbe;
        this.thCong = thCong;
        this.ttlProbe = ttlProbe;
        this.deltaRtt = deltaRtt;
        this.switchDelay = switchDelay;
        this.baseRttOverridePs = Math.round(baseRttUs * Simulation.PS_PER_US);
        this.probeBytes = probeBytes;
        this.connections = perConnection ? new Connections() : null;
        this.betweenQps = betweenQps;
    }

    /** Packets one probe takes on a QP with this MTU. */
    int probePackets(int mtu) {
        return probeBytes <= 0 ? 1 : (probeBytes + mtu - 1) / mtu;
    }

    @Override
    public void initQp(QueuePair qp) {
        State s = new State();
        s.basePs = baseRttOverridePs > 0 ? baseRttOverridePs : UnloadedRtt.of(qp);
        qp.setSchemeState(s);
        QueuePair prev = connections == null ? null : connections.handOver(qp);
        if (prev == null) {
            qp.setSport(randomPort());
        } else {
            takeOver(qp, s, (State) prev.schemeState(), prev.sport());
        }
    }

    /**
     * A new QP of a connection starts where the newest one is (or was told to go) with its RTT average and
     * probe table, in a new epoch (its sequence numbers start again). Probes still out belong to the old QP,
     * whose echoes go to it, so they are dropped here; the old QP decides nothing more (it keeps its port).
     */
    private void takeOver(QueuePair qp, State s, State prev, int prevPort) {
        prev.superseded = true;
        s.avgRttPs = prev.avgRttPs;
        s.lastRttPs = prev.lastRttPs;
        s.used = prev.used;
        s.next = prev.next;
        for (int i = 0; i < TABLE; i++) {
            s.port[i] = prev.port[i];
            s.rttPs[i] = prev.rttPs[i];
            s.echoes[i] = prev.echoes[i];
            s.probedAtPs[i] = prev.rttPs[i] < 0 ? Long.MIN_VALUE / 2 : prev.probedAtPs[i];
        }
        int port = prevPort;
        if (prev.plannedPort >= 0 && prev.plannedPort != prevPort) {
            remember(s, prevPort, (long) prev.avgRttPs, qp.now());
            port = prev.plannedPort;
            switches++;
        }
        qp.setSport(port);
    }

    /** Records a measured port in the probe table, so it is not probed again within ttl. */
    private static void remember(State s, int port, long rttPs, long now) {
        int i = s.next;
        s.port[i] = port;
        s.rttPs[i] = rttPs;
        s.probedAtPs[i] = now;
        s.echoes[i] = 0;
        s.next = (i + 1) % TABLE;
        if (s.used < TABLE) s.used++;
    }

    private int randomPort() {
        return Ecmp.randomPort(random);
    }

    @Override
    public boolean spraysPackets() {
        return true;
    }

    @Override
    public void onAck(QueuePair qp, Packet ack, long rttPs) {
        State s = (State) qp.schemeState();
        if (qp.sndUna() >= qp.ackTarget()) closeProbeQps(qp, s);   // the transfer is done: its probing QPs go too
        if (s.superseded) return;
        if (s.epochEndSeq < 0) s.epochEndSeq = qp.sndNxt(); // the first epoch: the first window
        sample(s, rttPs);
        long now = qp.now();
        if (s.mayProbe && s.avgRttPs > thProbe * s.basePs) {
            s.mayProbe = false;
            probe(qp, s, now);
        }
        if (s.maySwitch && s.avgRttPs > thCong * s.basePs) trySwitch(qp, s, now);
        // the ACK that completes an epoch still belongs to it (after a switch: the old path's last packet)
        if (qp.sndUna() >= s.epochEndSeq) newEpoch(s, qp.sndNxt());
    }

    static void newEpoch(State s, long sndNxt) {
        s.epochEndSeq = sndNxt;
        s.mayProbe = true;
        s.maySwitch = true;
        s.n = 0;
        s.sx = s.sy = s.sxy = s.sxx = 0;
    }

    /** Alg. 1's moving average (started from the epoch's first sample, not 0) and the fit's sums. */
    void sample(State s, long rttPs) {
        double y = rttPs;
        s.avgRttPs = s.n == 0 ? y : alpha * y + (1 - alpha) * s.avgRttPs;
        double x = s.n;
        s.n++;
        s.sx += x;
        s.sy += y;
        s.sxy += x * y;
        s.sxx += x * x;
        s.lastRttPs = y;
    }

    /** Linear estimate of the RTT {@code ahead} samples after the epoch's last one (Fig. 1); the last sample if no rising trend. */
    static double extrapolate(State s, long ahead) {
        if (s.n < 2) return s.lastRttPs;
        double den = s.n * s.sxx - s.sx * s.sx;
        if (den <= 0) return s.lastRttPs;
        double slope = (s.n * s.sxy - s.sx * s.sy) / den;
        if (slope <= 0) return s.lastRttPs;
        double intercept = (s.sy - slope * s.sx) / s.n;
        return intercept + slope * (s.n - 1 + ahead);
    }

    private void probe(QueuePair qp, State s, long now) {
        long ttl = (long) (ttlProbe * s.basePs);
        closeProbeQps(qp, s);
        boolean opened = false;
        int sent = 0;
        for (int tries = 0; sent < 2 && tries < 32; tries++) {
            int p = randomPort();
            if (p == qp.sport() || recentlyProbed(s, p, now, ttl)) continue;
            int i = s.next;
            s.port[i] = p;
            s.rttPs[i] = -1;
            s.probedAtPs[i] = now;
            s.echoes[i] = 0;
            s.next = (i + 1) % TABLE;
            if (s.used < TABLE) s.used++;
            // §3.2: "creating two QPs bound to distinct UDP source ports"
            if (!opened) {
                opened = true;
                qp.transport().reserveNicQps(qp.src(), 2);
            }
            s.context[i] = qp.transport().newContext(qp.src(), qp.dst());
            if (sent == 0) s.roundContext = s.context[i];
            s.openProbeQps = sent + 1;
            for (int left = probeBytes; ; left -= qp.mtuBytes()) {
                qp.sendProbe(p, Math.min(Math.max(left, 0), qp.mtuBytes()), s.context[i]);
                probes++;
                if (left <= qp.mtuBytes()) break;
            }
            sent++;
        }
        if (opened && sent < 2) qp.transport().releaseNicQps(qp.src(), 2 - sent);
    }

    /** Closes the probing QPs of the last round that the connection did not move onto. */
    private static void closeProbeQps(QueuePair qp, State s) {
        if (s.openProbeQps > 0) qp.transport().releaseNicQps(qp.src(), s.openProbeQps);
        s.openProbeQps = 0;
    }

    private static boolean recentlyProbed(State s, int port, long now, long ttl) {
        for (int i = 0; i < s.used; i++) {
            if (s.port[i] == port && now - s.probedAtPs[i] < ttl) return true;
        }
        return false;
    }

    @Override
    public void onProbeAck(QueuePair qp, Packet ack, long rttPs) {
        probeAcks++;
        State s = (State) qp.schemeState();
        if (s.superseded) return;
        for (int k = 1; k <= s.used; k++) {
            int i = Math.floorMod(s.next - k, TABLE);
            if (s.port[i] == ack.sport && s.rttPs[i] < 0) {
                // the probe completes with its last packet's echo (all were sent at once)
                if (++s.echoes[i] >= probePackets(qp.mtuBytes())) s.rttPs[i] = rttPs;
                break;
            }
        }
        if (s.maySwitch && s.avgRttPs > thCong * s.basePs) trySwitch(qp, s, qp.now());
    }

    /** At th_cong: move to the best fresh probed port if it is δ_rtt better; wait while probes are still out. */
    private void trySwitch(QueuePair qp, State s, long now) {
        long ttl = (long) (ttlProbe * s.basePs);
        int best = -1;
        boolean pending = false;
        for (int i = 0; i < s.used; i++) {
            if (now - s.probedAtPs[i] >= ttl || s.port[i] == qp.sport()) continue;
            if (s.rttPs[i] < 0) {
                pending = true;
            } else if (best < 0 || s.rttPs[i] < s.rttPs[best]) {
                best = i;
            }
        }
        if (best < 0 && pending) return; // decide when the probes are back
        s.maySwitch = false;
        if (best < 0 || s.rttPs[best] > deltaRtt * s.avgRttPs) {
            declined++;
            s.plannedPort = -1;
            closeProbeQps(qp, s);
            return;
        }
        int bestPort = s.port[best];
        if (betweenQps) {
            s.plannedPort = bestPort; // the connection's next QP starts there; this one stays
            return;
        }
        long inflight = qp.sndNxt() - qp.sndUna();
        double lastOld = extrapolate(s, inflight);
        long delay = (long) Math.max(0, switchDelay * (lastOld - s.rttPs[best]));
        // the old path stays marked as recently measured, so it is not probed again within ttl
        remember(s, qp.sport(), (long) s.avgRttPs, now);
        qp.setSport(bestPort);
        int ctx = s.context[best];
        if (s.openProbeQps > 0 && ctx >= s.roundContext && ctx < s.roundContext + s.openProbeQps) {
            // the connection moves onto the probe's QP: its old QP closes in the probe QP's place
            qp.adoptContext(ctx);
        }
        closeProbeQps(qp, s);
        if (delay > 0) qp.delaySendUntil(now + delay);
        s.mayProbe = false;
        s.epochEndSeq = qp.sndNxt(); // the next epoch starts with the new path's first ACKs
        switches++;
    }

    @Override
    public void addCounters(Map<String, Long> out) {
        out.put("probes", probes);
        out.put("probe_acks", probeAcks);
        out.put("path_switches", switches);
        out.put("switches_declined", declined);
    }
}

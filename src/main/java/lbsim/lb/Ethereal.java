package lbsim.lb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.net.Packet;
import lbsim.topology.PathControl;
import lbsim.topology.Routing;
import lbsim.topology.Topology;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;

/**
 * Ethereal (paper 000, §3): singlepath transport with source routing.
 *
 * <ul>
 *   <li>Flow interceptor (§3.1): {@link #openFlow} defers; all flows a host starts at the same
 *       instant are handled together by one zero-delay event. Rack-local flows go at once on
 *       one ECMP QP each. The other flows' QPs start in random order, each after a uniform
 *       random delay in [0, {@code start_jitter_ns}] (Algorithm 1, {@code flowArrival}).</li>
 *   <li>Path assignment (§3.2): per destination ToR, {@link EtherealAssignment#assign} over the
 *       source's good path IDs ({@link Routing#pathIds(int, int, PathControl)}); each piece is its
 *       own QP with a source route. With {@code path_control: port} (default; §3.2's "uplink
 *       index") a path ID names the egress port at every hop, bundle members included, so s is the
 *       product of the uplink ports per hop and every member link gets an even share; with
 *       {@code lag} it names next-hop switches and the switches hash the bundle member like a LAG.
 *       The receiver copies the reverse path ID into ACKs, so ACKs retrace the links.</li>
 *   <li>Failures (§3.3): on a QP timeout (Go-Back-N is done by the QP) the QP moves to a random
 *       good path and the old path ID is marked bad for this source host for {@code bad_path_ms};
 *       later batches use good paths only (all paths if none is good). On a NACK the QP also
 *       moves to a random good path (Algorithm 1 {@code NAck()}), but the old path is not marked
 *       bad: Algorithm 1 notifies failure only in {@code flowTimeout}. One loss episode reroutes
 *       once: a NACK moves the QP only if the data packet that triggered it was sent after the
 *       QP's last move, so the further NACKs of the same loss (go-back-N stragglers, or IRN's
 *       NACK per out-of-order arrival) and those of packets still on the old path do not.</li>
 * </ul>
 * Bad-path state is keyed by path ID alone (the paper refers to paths "solely based on the
 * 16-bit encoding"), so a bad ID is excluded toward every destination. With {@code port} a dead
 * bundle member is a dead path (its QPs time out and move, as on a dead single link); with
 * {@code lag} the switches drop a detected dead member from their hash.
 */
public final class Ethereal implements PathPolicy, EventHandler {
    private static final int EV_BATCH = 1;
    private static final int EV_START = 2;

    private final Topology topo;
    private final Routing routing;
    private final PathControl control;
    private final SplittableRandom random;
    private final Ecmp.Host ports;
    private final long startJitterPs;
    private final long badPathPs;
    private final List<Flow>[] pending;
    private final Map<Integer, Long>[] badUntil;
    private Transport transport;
    private int pendingPath = -1;
    private Recorder recorder;
    private boolean[] knownDown;
    private int batches;

    /**
     * Receives every QP a batch opens, in the batch's order ({@code lbsim plan ethereal} reports
     * what the scheme assigned): the batch's number (in the order batches are handled), the flow,
     * the QP's index in the batch, its bytes and its path ID (-1: rack-local, no source route).
     */
    public interface Recorder {
        void opened(int batch, FlowSpec flow, int qp, long bytes, int pathId);
    }

    /** With {@code path_control: port}, the scheme's default. */
    public Ethereal(Topology topo, SplittableRandom random, long startJitterNs, double badPathMs) {
        this(topo, random, startJitterNs, badPathMs, PathControl.PORT);
    }

    @SuppressWarnings("unchecked")
    public Ethereal(Topology topo, SplittableRandom random, long startJitterNs, double badPathMs, PathControl control) {
        if (startJitterNs < 0) throw new IllegalArgumentException("start_jitter_ns must be >= 0");
        if (badPathMs < 0) throw new IllegalArgumentException("bad_path_ms must be >= 0");
        this.topo = topo;
        this.routing = topo.routing();
        this.control = control;
        this.random = random;
        this.ports = new Ecmp.Host(random);
        this.startJitterPs = startJitterNs * Simulation.PS_PER_NS;
        this.badPathPs = Math.round(badPathMs * Simulation.PS_PER_MS);
        this.pending = new List[topo.hostCount()];
        this.badUntil = new Map[topo.hostCount()];
        for (int h = 0; h < badUntil.length; h++) badUntil[h] = new HashMap<>();
    }

    /** What this scheme's path IDs name: ports (bundle members included) or next-hop switches. */
    @Override
    public PathControl pathControl() {
        return control;
    }

    /** Reports each QP the scheme opens from now on to {@code r} (planning). */
    public void recordTo(Recorder r) {
        this.recorder = r;
    }

    /**
     * Treats the paths through links that are down in {@code linkDown} as bad from the start
     * (a deployment that configures known-down links out; {@code lbsim plan ethereal}). A run's
     * Ethereal does not know them and learns of failures by timeouts.
     */
    public void avoidFromStart(boolean[] linkDown) {
        this.knownDown = linkDown;
    }

    /**
     * The path IDs under {@code control} from src toward dst that cross no link that is down (for
     * {@code lag}: no hop whose bundle is down in every member), nor src's own link; all of them
     * when {@code linkDown} is null. Empty when none is left.
     */
    public static int[] pathsAvoiding(Topology topo, int src, int dst, boolean[] linkDown, PathControl control) {
        int[] all = topo.routing().pathIds(src, dst, control);
        if (linkDown == null) return all;
        if (linkDown[topo.portLink(topo.hostPort(src))]) return new int[0];
        return java.util.Arrays.stream(all).filter(id -> {
            for (int[] bundle : topo.routing().pathBundles(src, dst, id, control)) {
                if (java.util.Arrays.stream(bundle).allMatch(p -> linkDown[topo.portLink(p)])) return false;
            }
            return true;
        }).toArray();
    }

    /**
     * Why Ethereal's path IDs cannot name every path of this fabric (a switch with more next hops
     * than one byte holds, whose IDs would alias), or null when they can.
     */
    public static String pathIdProblem(Topology topo, PathControl control) {
        Routing.Choice w = topo.routing().widestChoice(control);
        if (w.nextHops() <= Routing.MAX_PATH_CHOICES) return null;
        return "switch " + topo.nodeName(w.switchNode()) + " has " + w.nextHops()
                + (control == PathControl.PORT ? " equal-cost egress ports (bundle members counted, path_control: port)"
                : " equal-cost next-hop switches") + " toward one destination, but a path ID has one byte per switch with a"
                + " choice, so at most " + Routing.MAX_PATH_CHOICES + " (more would alias: paths 256 apart take the same link)";
    }

    @Override
    public void openFlow(Transport t, Flow flow) {
        transport = t;
        int src = flow.spec().src();
        if (pending[src] == null) {
            pending[src] = new ArrayList<>();
            t.sim().schedule(0, this, EV_BATCH, src, null);
        }
        pending[src].add(flow);
    }

    /**
     * The flow alone on an idle fabric, a batch of one: one QP if rack-local, else its pieces over
     * every path ID toward the destination's ToR (all good), in assignment order (the run shuffles
     * the QPs; the pieces differ by at most one byte).
     */
    @Override
    public IdleSplit idleSplit(Transport t, FlowSpec spec) {
        if (topo.hostTor(spec.src()) == topo.hostTor(spec.dst())) return IdleSplit.qps(spec.sizeBytes());
        List<EtherealAssignment.Piece> pieces = EtherealAssignment.assign(new long[] {spec.sizeBytes()},
                routing.pathIds(spec.src(), spec.dst(), control).length).get(0);
        long[] bytes = new long[pieces.size()];
        for (int i = 0; i < bytes.length; i++) bytes[i] = pieces.get(i).bytes();
        return IdleSplit.qps(bytes);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        if (kind == EV_BATCH) {
            int src = (int) arg;
            List<Flow> batch = pending[src];
            pending[src] = null;
            handleBatch(src, batch);
        } else if (kind == EV_START) {
            transport.startQp((QueuePair) obj);
        }
    }

    private void handleBatch(int src, List<Flow> batch) {
        int srcTor = topo.hostTor(src);
        Map<Integer, List<Flow>> byTor = new LinkedHashMap<>();
        for (Flow f : batch) byTor.computeIfAbsent(topo.hostTor(f.spec().dst()), k -> new ArrayList<>()).add(f);
        List<QueuePair> routed = new ArrayList<>();
        int batchNo = batches++;
        int qpIndex = 0;
        for (Map.Entry<Integer, List<Flow>> e : byTor.entrySet()) {
            List<Flow> flows = e.getValue();
            if (e.getKey() == srcTor) {
                for (Flow f : flows) {
                    if (recorder != null) recorder.opened(batchNo, f.spec(), qpIndex++, f.spec().sizeBytes(), -1);
                    transport.startQp(transport.openQp(f, f.spec().sizeBytes())); // rack-local: at once
                }
                continue;
            }
            int[] ids = goodPaths(src, flows.get(0).spec().dst(), -1);
            long[] sizes = new long[flows.size()];
            for (int i = 0; i < sizes.length; i++) sizes[i] = flows.get(i).spec().sizeBytes();
            List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(sizes, ids.length);
            for (int i = 0; i < sizes.length; i++) {
                for (EtherealAssignment.Piece pc : a.get(i)) {
                    pendingPath = ids[pc.path()];
                    if (recorder != null) recorder.opened(batchNo, flows.get(i).spec(), qpIndex++, pc.bytes(), pendingPath);
                    try {
                        routed.add(transport.openQp(flows.get(i), pc.bytes()));
                    } finally {
                        pendingPath = -1;
                    }
                }
            }
        }
        // random position in the NIC's list of QPs, and a small random start delay (§3.1)
        for (int i = routed.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            QueuePair t = routed.get(i);
            routed.set(i, routed.get(j));
            routed.set(j, t);
        }
        for (QueuePair qp : routed) {
            if (startJitterPs == 0) {
                transport.startQp(qp);
            } else {
                transport.sim().schedule(random.nextLong(startJitterPs + 1), this, EV_START, 0, qp);
            }
        }
    }

    /** Good path IDs from src toward dst's ToR, without {@code exclude}; all (but exclude) when none is good. */
    private int[] goodPaths(int src, int dst, int exclude) {
        int[] all = routing.pathIds(src, dst, control);
        if (knownDown != null) {
            int[] up = pathsAvoiding(topo, src, dst, knownDown, control);
            if (up.length > 0) all = up; // none left: all, as when no path is good
        }
        Map<Integer, Long> bad = badUntil[src];
        long now = transport.sim().now();
        int[] good = new int[all.length];
        int n = 0;
        for (int id : all) {
            if (id == exclude) continue;
            Long until = bad.get(id);
            if (until != null && until <= now) {
                bad.remove(id);
                until = null;
            }
            if (until == null) good[n++] = id;
        }
        if (n == 0) {
            for (int id : all) if (id != exclude) good[n++] = id;
        }
        if (n == 0) return all; // a single path: nowhere else to go
        return java.util.Arrays.copyOf(good, n);
    }

    @Override
    public void initQp(QueuePair qp) {
        ports.initQp(qp);
        if (pendingPath >= 0) qp.setSourceRoute(pendingPath);
    }

    @Override
    public void onTimeout(QueuePair qp) {
        if (!qp.sourceRouted()) return; // rack-local: no path choice
        int old = qp.pathId();
        badUntil[qp.src()].put(old, transport.sim().now() + badPathPs);
        reroute(qp);
    }

    /** Algorithm 1 {@code NAck()}: select a new path (§3.3), once per loss episode (see the class comment). */
    @Override
    public void onAck(QueuePair qp, Packet ack, long rttPs) {
        if (ack.kind != Packet.NACK || !qp.sourceRouted()) return;
        Object last = qp.schemeState();
        if (last != null && ack.sentAtPs < (Long) last) return; // triggered by a packet sent before the last move
        reroute(qp);
    }

    /** Moves the QP to a random good path other than its own and remembers when. */
    private void reroute(QueuePair qp) {
        int[] ids = goodPaths(qp.src(), qp.dst(), qp.pathId());
        qp.setSourceRoute(ids[random.nextInt(ids.length)]);
        qp.setSchemeState(transport.sim().now());
    }
}

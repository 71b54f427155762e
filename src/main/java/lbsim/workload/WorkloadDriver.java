package lbsim.workload;

import lbsim.transport.FlowSpec;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.List;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.transport.Flow;
import lbsim.transport.FlowListener;
import lbsim.transport.Transport;

/**
 * Drives a flow DAG through the simulation: a flow starts at its start time or when its
 * dependencies have been delivered, or acknowledged at their senders (plus its gap), and the
 * flows it follows have been sent, never on a global clock. Records each collective group's
 * span: from its issue ({@link FlowGraph.GroupTiming}; else its first flow's start) to its last
 * delivery plus its tail.
 */
public final class WorkloadDriver implements EventHandler, FlowListener {
    private static final int START = 1;

    private final Simulation sim;
    private final Transport transport;
    private final List<FlowSpec> specs;
    private final FlowGraph graph;
    private final Flow[] flows;
    private final int[] waitingFor;                 // delivery and ACK dependencies still unmet (<= 0: met)
    private final int[] unsentBefore;               // afterSent flows not yet sent
    private final long[] earliestStartPs;           // start time, raised as dependencies are met
    private final IntArrayList[] dependents;        // flows waiting for this one's delivery
    private final IntArrayList[] ackDependents;     // flows waiting for its sender's completion
    private final IntArrayList[] sentDependents;    // flows waiting for it to have been sent
    private final long[] groupStartPs;
    private final long[] groupEndPs;
    private final int[] groupRemaining;
    private int undelivered;
    private long lastDeliveryPs;
    private Runnable onAllDelivered = () -> { };

    public WorkloadDriver(Simulation sim, Transport transport, FlowGraph graph) {
        this.sim = sim;
        this.transport = transport;
        this.specs = graph.flows();
        this.graph = graph;
        int n = specs.size();
        this.flows = new Flow[n];
        this.waitingFor = new int[n];
        this.unsentBefore = new int[n];
        this.earliestStartPs = new long[n];
        this.dependents = new IntArrayList[n];
        this.ackDependents = new IntArrayList[n];
        this.sentDependents = new IntArrayList[n];
        int groups = graph.groups().size();
        this.groupStartPs = new long[groups];
        this.groupEndPs = new long[groups];
        this.groupRemaining = new int[groups];
        java.util.Arrays.fill(groupStartPs, Long.MAX_VALUE);
        for (FlowSpec f : specs) {
            waitingFor[f.id()] = f.afterCount();
            unsentBefore[f.id()] = f.afterSent().length;
            earliestStartPs[f.id()] = f.startPs();
            link(dependents, f.after(), f.id());
            link(ackDependents, f.afterAcked(), f.id());
            link(sentDependents, f.afterSent(), f.id());
            if (f.group() >= 0) groupRemaining[f.group()]++;
        }
        this.undelivered = n;
    }

    private static void link(IntArrayList[] lists, int[] deps, int id) {
        for (int d : deps) {
            if (lists[d] == null) lists[d] = new IntArrayList(2);
            lists[d].add(id);
        }
    }

    /**
     * The transport's listener, built before the driver it tells (a driver needs its transport,
     * a transport its listener): forwards every flow event to the driver {@link #attach}ed.
     */
    public static final class Relay implements FlowListener {
        private WorkloadDriver driver;

        public WorkloadDriver attach(WorkloadDriver d) {
            this.driver = d;
            return d;
        }

        @Override
        public void onFlowDelivered(Flow f) {
            driver.onFlowDelivered(f);
        }

        @Override
        public void onFlowSent(Flow f) {
            driver.onFlowSent(f);
        }

        @Override
        public void onFlowAcknowledged(Flow f) {
            driver.onFlowAcknowledged(f);
        }
    }

    /** Called once every flow has been delivered. */
    public void onAllDelivered(Runnable r) {
        this.onAllDelivered = r;
    }

    /** Schedules the flows that wait for nothing. */
    public void start() {
        for (FlowSpec f : specs) {
            if (f.independent()) sim.scheduleAt(Math.max(f.startPs(), sim.now()), this, START, f.id(), null);
        }
        if (specs.isEmpty()) onAllDelivered.run();
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        int id = (int) arg;
        FlowSpec spec = specs.get(id);
        Flow f = transport.startFlow(spec);
        flows[id] = f;
        if (spec.group() >= 0 && sim.now() < groupStartPs[spec.group()]) groupStartPs[spec.group()] = sim.now();
    }

    @Override
    public void onFlowDelivered(Flow flow) {
        FlowSpec spec = flow.spec();
        long now = sim.now();
        lastDeliveryPs = now;
        if (spec.group() >= 0 && --groupRemaining[spec.group()] == 0) finishGroup(spec.group(), now);
        release(dependents[spec.id()]);
        if (--undelivered == 0) onAllDelivered.run();
    }

    @Override
    public void onFlowAcknowledged(Flow flow) {
        release(ackDependents[flow.spec().id()]);
    }

    @Override
    public void onFlowSent(Flow flow) {
        IntArrayList deps = sentDependents[flow.spec().id()];
        if (deps == null) return;
        long now = sim.now();
        for (int i = 0; i < deps.size(); i++) {
            int d = deps.getInt(i);
            if (--unsentBefore[d] == 0) {
                earliestStartPs[d] = Math.max(earliestStartPs[d], now);
                if (waitingFor[d] <= 0) schedule(d);
            }
        }
    }

    /**
     * A group's last flow is delivered: it ends after its tail, and started when it was issued, which
     * can be before its first flow (a hierarchical collective starts inside the server).
     */
    private void finishGroup(int group, long now) {
        FlowGraph.GroupTiming t = graph.timing(group);
        if (t == null) {
            groupEndPs[group] = now;
            return;
        }
        groupEndPs[group] = now + t.tailPs();
        long ready = t.after().length == 0 ? t.startPs() + t.gapPs() : t.startPs();
        for (int d : t.after()) {
            Flow f = flows[d];
            if (f == null || !f.isDelivered()) return; // not a dependency of its flows after all: keep the first start
            ready = Math.max(ready, f.deliveredPs() + t.gapPs());
        }
        groupStartPs[group] = Math.min(groupStartPs[group], ready);
    }

    /** One delivery or ACK dependency of each of {@code deps} is met: the gap counts from the last one. */
    private void release(IntArrayList deps) {
        if (deps == null) return;
        long now = sim.now();
        for (int i = 0; i < deps.size(); i++) {
            int d = deps.getInt(i);
            if (--waitingFor[d] == 0) {
                earliestStartPs[d] = Math.max(earliestStartPs[d], now + specs.get(d).gapPs());
                if (unsentBefore[d] == 0) schedule(d);
            }
        }
    }

    private void schedule(int id) {
        sim.scheduleAt(earliestStartPs[id], this, START, id, null);
    }

    public boolean allDelivered() {
        return undelivered == 0;
    }

    public int undeliveredCount() {
        return undelivered;
    }

    /** Flow objects by spec id; null for flows that never started. */
    public Flow[] flows() {
        return flows;
    }

    public long lastDeliveryPs() {
        return lastDeliveryPs;
    }

    /**
     * Time during which at least one collective group was in progress: the length of the union
     * of every finished group's [issue, last delivery + tail] interval (Ethereal §4.2 Fig. 5/6:
     * "time spent in communication" over an iteration); -1 if some group has not finished.
     */
    public long communicationPs() {
        int n = groupEndPs.length;
        long[][] iv = new long[n][];
        int k = 0;
        for (int g = 0; g < n; g++) {
            if (groupStartPs[g] == Long.MAX_VALUE) continue;
            if (groupRemaining[g] != 0) return -1;
            iv[k++] = new long[] {groupStartPs[g], groupEndPs[g]};
        }
        java.util.Arrays.sort(iv, 0, k, (a, b) -> Long.compare(a[0], b[0]));
        long total = 0, curStart = -1, curEnd = -1;
        for (int i = 0; i < k; i++) {
            if (iv[i][0] > curEnd) {
                if (curEnd > curStart) total += curEnd - curStart;
                curStart = iv[i][0];
                curEnd = iv[i][1];
            } else {
                curEnd = Math.max(curEnd, iv[i][1]);
            }
        }
        if (curEnd > curStart) total += curEnd - curStart;
        return total;
    }

    /** Completion time of each group (last delivery plus tail minus issue), -1 if unfinished. */
    public long[] groupCompletionPs() {
        long[] out = new long[groupEndPs.length];
        for (int g = 0; g < out.length; g++) {
            out[g] = groupRemaining[g] == 0 && groupStartPs[g] != Long.MAX_VALUE ? groupEndPs[g] - groupStartPs[g] : -1;
        }
        return out;
    }
}

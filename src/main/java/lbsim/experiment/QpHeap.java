package lbsim.experiment;

import lbsim.BadInputException;
import lbsim.engine.Simulation;
import lbsim.topology.Topology;
import lbsim.transport.FlowSpec;
import lbsim.transport.PathPolicy;
import lbsim.workload.FlowGraph;

/**
 * A lower bound of the heap a run's flows and queue pairs take once it has started, checked before
 * the first event: the flows that wait for no other flow and start before any of them can have
 * finished (its bytes at its NIC's rate) are open together, each with the QPs its scheme opens for
 * it at least. A run that cannot fit is refused (exit 2) naming the keys that shrink it, instead of
 * simulating for minutes and then running out of memory.
 */
record QpHeap(long flows, long qps) {
    /**
     * Heap per open QP at least: the queue pair with its congestion control and loss recovery state
     * (512 B measured with a class histogram of a 256-host all-to-all with 8 QPs per pair, DCQCN and
     * go-back-N, 2026-11; again in session 20, docs/speed.md, with DCTCP: 248 B the QP, 80 B DCTCP,
     * 128 B of counters from its first retransmission; packets in flight, events and reorder bitmaps
     * not counted). Not counted either, as no bound before the run can know them: the QPs of flows
     * that start later (every QP stays until the end, for the results) and the packets a NIC's
     * receive pipeline holds behind context misses (56 B each, at most nic.rx_buffer_bytes of them;
     * with 0, unbounded: millions when the NICs miss on most packets).
     */
    static final long HEAP_BYTES_PER_QP = 480;
    /** Heap per flow at least: its description and its transport state (144 B measured the same way). */
    static final long HEAP_BYTES_PER_FLOW = 128;

    /** The flows of {@code graph} certainly open together at the start, and their QPs under {@code policy}. */
    static QpHeap atStart(FlowGraph graph, Topology topo, PathPolicy policy) {
        long firstEndPs = firstEndPs(graph, topo);
        long flows = 0, qps = 0;
        for (FlowSpec f : graph.flows()) {
            if (!openAtStart(f, topo, firstEndPs)) continue;
            flows++;
            qps += policy.qpsAtLeast(f);
        }
        return new QpHeap(flows, qps);
    }

    /** The same QPs per sending host: each host has at least this many open at once. */
    static long[] qpsByHost(FlowGraph graph, Topology topo, PathPolicy policy) {
        long firstEndPs = firstEndPs(graph, topo);
        long[] out = new long[topo.hostCount()];
        for (FlowSpec f : graph.flows()) if (openAtStart(f, topo, firstEndPs)) out[f.src()] += policy.qpsAtLeast(f);
        return out;
    }

    /** The earliest any flow that waits for nothing can end: its start plus its bytes at its NIC's rate. */
    private static long firstEndPs(FlowGraph graph, Topology topo) {
        long firstEndPs = Long.MAX_VALUE;
        for (FlowSpec f : graph.flows()) {
            if (!f.independent() || f.src() >= topo.hostCount()) continue;
            double wirePs = f.sizeBytes() * 8.0 / topo.hostRateBps(f.src()) * Simulation.PS_PER_S;
            firstEndPs = Math.min(firstEndPs, (long) Math.min(Long.MAX_VALUE / 2, f.startPs() + wirePs));
        }
        return firstEndPs;
    }

    /** Waits for nothing and starts before any such flow can have ended (so before its own end too). */
    private static boolean openAtStart(FlowSpec f, Topology topo, long firstEndPs) {
        return f.independent() && f.src() < topo.hostCount() && f.startPs() < firstEndPs;
    }

    long heapBytes() {
        return flows * HEAP_BYTES_PER_FLOW + qps * HEAP_BYTES_PER_QP;
    }

    /** Refuses the run when {@link #heapBytes()} passes {@code maxHeapBytes}, naming what shrinks it. */
    void check(String file, String scheme, long maxHeapBytes) {
        if (heapBytes() <= maxHeapBytes) return;
        String own = lbsim.lb.Schemes.ownQpCount(scheme);
        throw new BadInputException(file + ": " + flows + " flows start together with " + qps + " queue pairs, which need at least "
                + (heapBytes() >> 20) + " MiB of Java heap (about " + HEAP_BYTES_PER_QP + " B per QP and " + HEAP_BYTES_PER_FLOW
                + " B per flow), more than this JVM's " + (maxHeapBytes >> 20) + " MiB. Open fewer QPs ("
                + (own != null ? scheme + " decides them: " + own : "workload.qps_per_connection")
                + "), shrink the workload (fewer ranks or hosts), or give Java a larger heap (LBSIM_JAVA_OPTS=\"-Xmx20g\" ./lbsim ...)");
    }
}

package lbsim.experiment;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.IdealTime;

/**
 * summary.json {@code ideal_cct_ns}: a lower bound, with no queueing or loss, on the same quantity
 * {@code cct_ns} (or, without it, the last flow's finish) measures, so {@code normalised} is at
 * least 1 by construction.
 */
final class IdealBound {
    private IdealBound() {}

    /**
     * Collectives: the largest of each collective's bound ({@link #collectivePs}), as {@code cct_ns}
     * is the largest collective's completion.
     * Training and snapshots ({@code cct_ns} the largest flow group's span): the largest of each
     * group's busiest-host bound. Other workloads ({@code normalised} over the last finish): the arrivals'
     * bound ({@link #arrivalsPs}), which includes the busiest-host bound of all flows.
     */
    static long idealNs(Scenario sc, Topology topo, FlowGraph graph) {
        List<CollectiveSpec> specs = sc.workload().collectives();
        List<Integer> groups = sc.workload().collectiveGroups();
        if (sc.workload().isCollective() && !specs.isEmpty() && groups.size() == specs.size()) {
            List<List<FlowSpec>> byGroup = byGroup(graph);
            double worst = 0;
            for (int i = 0; i < specs.size(); i++) worst = Math.max(worst, collectivePs(topo, specs.get(i), byGroup.get(groups.get(i))));
            return Math.round(worst / 1000.0);
        }
        if (sc.workload().isCollective() && !graph.groups().isEmpty()) {
            double worst = 0;
            for (List<FlowSpec> group : byGroup(graph)) worst = Math.max(worst, busiestHostPs(sc, topo, group));
            return Math.round(worst / 1000.0);
        }
        return Math.round(arrivalsPs(sc, topo, graph.flows()) / 1000.0);   // never below busiestHostPs: its earliest start is >= 0
    }

    /**
     * The last finish can be no earlier than any flow's start plus the wire time of every flow of
     * the same NIC (sending or receiving) that starts at or after it, plus the shortest one-way
     * latency: those bytes cannot cross the NIC before they start. Open-loop arrivals (and
     * start_ns, jitter) thus count; with every flow starting at 0 it equals busiestHostPs.
     */
    static double arrivalsPs(Scenario sc, Topology topo, List<FlowSpec> flows) {
        if (flows.isEmpty()) return 0;
        java.util.Map<Integer, List<long[]>> byNic = new java.util.HashMap<>(); // 2·host (+1 receiving) -> {start, wire}
        long oneWayPs = Long.MAX_VALUE;
        for (FlowSpec f : flows) {
            long wire = wireBytes(sc, f);
            byNic.computeIfAbsent(2 * f.src(), k -> new ArrayList<>()).add(new long[] {f.startPs(), wire});
            byNic.computeIfAbsent(2 * f.dst() + 1, k -> new ArrayList<>()).add(new long[] {f.startPs(), wire});
            oneWayPs = Math.min(oneWayPs, topo.minLatencyPs(f.src(), f.dst()));
        }
        double worst = 0;
        for (var e : byNic.entrySet()) {
            List<long[]> l = e.getValue();
            l.sort((a, b) -> Long.compare(a[0], b[0]));
            long rate = topo.hostRateBps(e.getKey() / 2);
            long later = 0; // wire bytes of the flows from index i on
            for (int i = l.size() - 1; i >= 0; i--) {
                later += l.get(i)[1];
                if (i == 0 || l.get(i - 1)[0] != l.get(i)[0]) worst = Math.max(worst, l.get(i)[0] + later * 8.0 / rate * Simulation.PS_PER_S);
            }
        }
        return worst + oneWayPs;
    }

    /**
     * One collective's lower bound, with the shortest one-way latency between its hosts (a ring
     * inside one rack never crosses the spine, so the fabric's longest path would overstate it) and
     * each NIC at its own rate: the closed form ({@link IdealTime}) at the fastest of its NICs (no
     * transfer is faster than that), and each of its NICs' payload bytes (sent or received) in
     * {@code flows}, the collective's own, over that NIC's rate, plus the time no fabric flow covers
     * (a hierarchical collective's intra-server phases, before and after every fabric flow).
     */
    static double collectivePs(Topology topo, CollectiveSpec c, List<FlowSpec> flows) {
        long oneWay = minOneWayPs(topo, c.rankToHost());
        long fastest = 0;
        for (int h : c.rankToHost()) fastest = Math.max(fastest, topo.hostRateBps(h));
        double closed = IdealTime.lowerBoundPs(c, fastest / 1e9, oneWay);
        java.util.Map<Integer, long[]> bytes = new java.util.HashMap<>(); // host -> {sent, received}
        for (FlowSpec f : flows) {
            bytes.computeIfAbsent(f.src(), h -> new long[2])[0] += f.sizeBytes();
            bytes.computeIfAbsent(f.dst(), h -> new long[2])[1] += f.sizeBytes();
        }
        double nic = 0;
        for (var e : bytes.entrySet()) {
            double bits = Math.max(e.getValue()[0], e.getValue()[1]) * 8.0;
            nic = Math.max(nic, bits / topo.hostRateBps(e.getKey()) * Simulation.PS_PER_S);
        }
        return bytes.isEmpty() ? closed : Math.max(closed, IdealTime.offFabricPs(c) + nic + oneWay);
    }

    /** A flow's bytes on the wire: payload plus one header per MTU-sized packet. */
    private static long wireBytes(Scenario sc, FlowSpec f) {
        int mtu = sc.topology().mtuBytes();
        return f.sizeBytes() + ((f.sizeBytes() + mtu - 1) / mtu) * sc.transport().headerBytes();
    }

    static List<List<FlowSpec>> byGroup(FlowGraph graph) {
        List<List<FlowSpec>> out = new ArrayList<>();
        for (int g = 0; g < graph.groups().size(); g++) out.add(new ArrayList<>());
        for (FlowSpec f : graph.flows()) if (f.group() >= 0) out.get(f.group()).add(f);
        return out;
    }

    /**
     * The busiest host's wire bytes (sent or received) of {@code flows} over its NIC rate, plus the
     * shortest one-way path latency of any of them: the span from the first of them starting to the
     * last delivered can be no shorter (every byte crosses that NIC, and the last one still has to
     * arrive). 0 for no flows.
     */
    static double busiestHostPs(Scenario sc, Topology topo, List<FlowSpec> flows) {
        if (flows.isEmpty()) return 0;
        long oneWayPs = Long.MAX_VALUE;
        for (FlowSpec f : flows) oneWayPs = Math.min(oneWayPs, topo.minLatencyPs(f.src(), f.dst()));
        java.util.Map<Integer, long[]> bytes = new java.util.HashMap<>(); // host -> {sent, received}
        for (FlowSpec f : flows) {
            long wire = wireBytes(sc, f);
            bytes.computeIfAbsent(f.src(), h -> new long[2])[0] += wire;
            bytes.computeIfAbsent(f.dst(), h -> new long[2])[1] += wire;
        }
        double worst = 0;
        for (var e : bytes.entrySet()) {
            double bits = Math.max(e.getValue()[0], e.getValue()[1]) * 8.0;
            worst = Math.max(worst, bits / topo.hostRateBps(e.getKey()) * Simulation.PS_PER_S);
        }
        return worst + oneWayPs;
    }

    /**
     * The shortest one-way propagation between two distinct hosts of a collective: a lower bound
     * on every transfer's latency (the fabric-wide longest path is not: a ring inside one rack
     * never crosses the spine). Ranks sharing a host exchange data off the fabric and are skipped.
     */
    static long minOneWayPs(Topology topo, int[] hosts) {
        java.util.Map<Integer, Integer> byTor = new java.util.LinkedHashMap<>();
        int sameTorPair = -1;
        for (int h : hosts) {
            Integer prev = byTor.putIfAbsent(topo.hostTor(h), h);
            if (prev != null && prev != h && sameTorPair < 0) sameTorPair = h;
        }
        long best = Long.MAX_VALUE;
        if (sameTorPair >= 0) best = topo.minLatencyPs(byTor.get(topo.hostTor(sameTorPair)), sameTorPair);
        Integer[] reps = byTor.values().toArray(new Integer[0]);
        for (int i = 0; i < reps.length; i++) {
            for (int j = i + 1; j < reps.length; j++) best = Math.min(best, topo.minLatencyPs(reps[i], reps[j]));
        }
        return best == Long.MAX_VALUE ? 0 : best;
    }
}

package lbsim.workload.chakra;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import lbsim.workload.FlowGraph;
import lbsim.workload.collective.AlgorithmChoice;
import lbsim.workload.collective.CollectiveHandle;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.Collectives;
import lbsim.workload.collective.Completion;
import lbsim.workload.collective.FlowEmitter;
import lbsim.workload.training.CollectiveOptions;

/**
 * Turns the per-rank execution traces of one job into a flow graph (docs/chakra.md):
 * <ul>
 *   <li>a compute node (and a memory or other non-communication node) is a delay of its
 *       {@code duration_micros} after its dependencies;</li>
 *   <li>the k-th collective node of every rank (per {@code pg_name} when set) is one lbsim
 *       collective over those ranks, of {@code comm_type} and {@code comm_size}, issued when every
 *       member's dependencies are met;</li>
 *   <li>the k-th send from rank a to b with tag t and the k-th receive at b from a with tag t are
 *       one flow, started when the send's dependencies are met; the send finishes when the data
 *       has arrived, the receive when it has arrived and its own dependencies are met.</li>
 * </ul>
 * Data and control dependencies both order nodes. A node waiting for several branches waits for
 * their flows plus the largest compute delay pending after them ({@link Completion#join}): exact
 * when those branches end in equal compute, or when a branch without flows (compute from the
 * start) provably ends before the flows do; otherwise it may start late, never early.
 */
public final class ChakraWorkload {
    /** Message size a point-to-point transfer is cut into on QPs when NCCL splits them (NCCL_P2P_NET_CHUNKSIZE, 128 KiB). */
    private static final long P2P_MESSAGE = 128L << 10;

    /** What {@link #append} added: the collectives (in issue order), their group ids, and the warnings. */
    public record Result(List<CollectiveSpec> collectives, List<Integer> groups, List<String> warnings) {}

    private final FlowGraph graph;
    private final List<RankTrace> traces;
    private final int[] rankToHost;
    private final String algorithm;
    private final CollectiveOptions options;
    private final Warnings warnings = new Warnings();
    private final List<CollectiveSpec> collectives = new ArrayList<>();
    private final List<Integer> groups = new ArrayList<>();
    private FlowEmitter p2p;

    private ChakraWorkload(FlowGraph graph, List<RankTrace> traces, int[] rankToHost, String algorithm, CollectiveOptions options) {
        this.graph = graph;
        this.traces = traces;
        this.rankToHost = rankToHost;
        this.algorithm = algorithm;
        this.options = options;
    }

    /**
     * Appends the job whose rank r runs {@code traces.get(r)} on host {@code rankToHost[r]};
     * collectives use {@code algorithm} where it runs the op (else NCCL's fallback, {@link AlgorithmChoice}).
     */
    public static Result append(FlowGraph graph, List<RankTrace> traces, int[] rankToHost, String algorithm,
                                CollectiveOptions options) throws TraceFormatException {
        if (rankToHost.length != traces.size()) throw new IllegalArgumentException(traces.size() + " traces but " + rankToHost.length + " hosts");
        return new ChakraWorkload(graph, traces, rankToHost, algorithm, options).run();
    }

    /**
     * A unit of simulation: one delay node, one collective (a node per member rank), one send (its
     * receive is {@code partner}) or one receive (it also waits for its send's unit).
     */
    private static final class Unit {
        final List<TraceOp> ops = new ArrayList<>();
        TraceOp partner;
        final List<Integer> waitsFor = new ArrayList<>();
        int pending;
        final List<Integer> dependents = new ArrayList<>();
    }

    /** A completion token and a lower bound on the absolute time it is met (ps). */
    private record Timed(Completion token, long earliestPs) {
        static final Timed NOW = new Timed(Completion.NOW, 0);

        Timed plus(long ps) {
            return new Timed(token.plus(ps), earliestPs + ps);
        }

        /**
         * Waits for all parts. A part without flows is met at an absolute time (its gap from the start):
         * when the flow-bearing parts cannot be met before it, it is dropped instead of adding its gap.
         */
        static Timed join(List<Timed> parts) {
            if (parts.isEmpty()) return NOW;
            long earliest = 0, free = 0, flowEarliest = -1;
            List<Completion> withFlows = new ArrayList<>();
            for (Timed t : parts) {
                earliest = Math.max(earliest, t.earliestPs);
                if (t.token.flowIds().length == 0) {
                    free = Math.max(free, t.token.extraGapPs());
                } else {
                    withFlows.add(t.token);
                    flowEarliest = Math.max(flowEarliest, t.earliestPs);
                }
            }
            if (withFlows.isEmpty()) return new Timed(new Completion(null, free), earliest);
            if (free > flowEarliest) withFlows.add(new Completion(null, free)); // cannot tell which ends last: wait for both (late, never early)
            return new Timed(Completion.join(withFlows), earliest);
        }
    }

    private Result run() throws TraceFormatException {
        int ranks = traces.size();
        TraceOp[][] ops = new TraceOp[ranks][];
        int[][] unitOf = new int[ranks][];
        List<Unit> units = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            RankTrace t = traces.get(r);
            ops[r] = new TraceOp[t.nodes().size()];
            unitOf[r] = new int[t.nodes().size()];
            for (int i = 0; i < ops[r].length; i++) ops[r][i] = TraceOp.of(t, i, ranks, warnings);
        }
        matchCollectives(ops, unitOf, units);
        matchPointToPoint(ops, unitOf, units);
        for (int r = 0; r < ranks; r++) {
            for (int i = 0; i < ops[r].length; i++) {
                if (ops[r][i].kind() == TraceOp.Kind.DELAY) {
                    Unit u = new Unit();
                    u.ops.add(ops[r][i]);
                    unitOf[r][i] = units.size();
                    units.add(u);
                }
            }
        }
        linkDependencies(ops, unitOf, units);
        emit(units);
        return new Result(List.copyOf(collectives), List.copyOf(groups), warnings.messages());
    }

    /** The k-th collective node of each rank of a process group (pg_name; none = one group) form collective k. */
    private void matchCollectives(TraceOp[][] ops, int[][] unitOf, List<Unit> units) throws TraceFormatException {
        Map<String, Map<Integer, List<TraceOp>>> byGroup = new LinkedHashMap<>();
        for (TraceOp[] rank : ops) {
            for (TraceOp op : rank) {
                if (op.kind() != TraceOp.Kind.COLLECTIVE) continue;
                byGroup.computeIfAbsent(op.group(), g -> new LinkedHashMap<>()).computeIfAbsent(op.trace().rank(), r -> new ArrayList<>()).add(op);
            }
        }
        for (var e : byGroup.entrySet()) {
            Map<Integer, List<TraceOp>> members = e.getValue();
            String name = e.getKey().isEmpty() ? "collectives" : "collectives of process group '" + e.getKey() + "'";
            if (members.size() < 2) {
                TraceOp first = members.values().iterator().next().get(0);
                throw new TraceFormatException(first.where() + ": only rank " + first.trace().rank() + " has " + name
                        + "; a collective needs at least 2 ranks");
            }
            List<TraceOp> reference = members.values().iterator().next();
            for (List<TraceOp> list : members.values()) {
                if (list.size() != reference.size()) {
                    throw new TraceFormatException(list.get(0).trace().file() + ": has " + list.size() + " " + name + " but "
                            + reference.get(0).trace().file() + " has " + reference.size() + "; every member rank must issue the same collectives in the same order");
                }
            }
            for (int k = 0; k < reference.size(); k++) {
                Unit u = new Unit();
                TraceOp ref = reference.get(k);
                for (List<TraceOp> list : members.values()) {
                    TraceOp op = list.get(k);
                    if (!op.op().equals(ref.op()) || op.sizeBytes() != ref.sizeBytes()) {
                        throw new TraceFormatException(op.where() + ": collective " + k + " of its " + name + " is " + op.op() + " of "
                                + op.sizeBytes() + " B but on rank " + ref.trace().rank() + " (" + ref.where() + ") it is " + ref.op()
                                + " of " + ref.sizeBytes() + " B; ranks must agree");
                    }
                    u.ops.add(op);
                    unitOf[op.trace().rank()][op.index()] = units.size();
                }
                units.add(u);
            }
        }
    }

    /** The k-th send a->b with tag t pairs with the k-th receive at b from a with tag t. */
    private void matchPointToPoint(TraceOp[][] ops, int[][] unitOf, List<Unit> units) throws TraceFormatException {
        Map<List<Long>, ArrayDeque<TraceOp>> receives = new HashMap<>();
        for (TraceOp[] rank : ops) {
            for (TraceOp op : rank) {
                if (op.kind() == TraceOp.Kind.RECV) {
                    receives.computeIfAbsent(List.of((long) op.peer(), (long) op.trace().rank(), op.tag()), k -> new ArrayDeque<>()).add(op);
                }
            }
        }
        for (TraceOp[] rank : ops) {
            for (TraceOp send : rank) {
                if (send.kind() != TraceOp.Kind.SEND) continue;
                ArrayDeque<TraceOp> q = receives.get(List.of((long) send.trace().rank(), (long) send.peer(), send.tag()));
                TraceOp recv = q == null ? null : q.poll();
                if (recv == null) {
                    throw new TraceFormatException(send.where() + ": send to rank " + send.peer() + " with comm_tag " + send.tag()
                            + " has no matching receive (a COMM_RECV_NODE with comm_src " + send.trace().rank() + " and that tag in "
                            + traces.get(send.peer()).file() + ")");
                }
                if (recv.sizeBytes() != send.sizeBytes()) {
                    throw new TraceFormatException(recv.where() + ": receives " + recv.sizeBytes() + " B but the matching send ("
                            + send.where() + ") sends " + send.sizeBytes() + " B");
                }
                Unit out = new Unit();
                out.ops.add(send);
                out.partner = recv;
                unitOf[send.trace().rank()][send.index()] = units.size();
                units.add(out);
                Unit in = new Unit();
                in.ops.add(recv);
                in.waitsFor.add(units.size() - 1); // the data must have arrived
                unitOf[recv.trace().rank()][recv.index()] = units.size();
                units.add(in);
            }
        }
        for (ArrayDeque<TraceOp> q : receives.values()) {
            if (!q.isEmpty()) {
                TraceOp recv = q.peek();
                throw new TraceFormatException(recv.where() + ": receive from rank " + recv.peer() + " with comm_tag " + recv.tag()
                        + " has no matching send in " + traces.get(recv.peer()).file());
            }
        }
    }

    /** Resolves every node's data and control dependencies (ids within its own file) to units. */
    private void linkDependencies(TraceOp[][] ops, int[][] unitOf, List<Unit> units) throws TraceFormatException {
        for (int r = 0; r < ops.length; r++) {
            Map<Long, Integer> byId = new HashMap<>();
            for (int i = 0; i < ops[r].length; i++) {
                Integer old = byId.put(ops[r][i].node().getId(), i);
                if (old != null) {
                    throw new TraceFormatException(ops[r][i].where() + ": node id " + Long.toUnsignedString(ops[r][i].node().getId())
                            + " is also record " + (old + 1) + "'s; ids must be unique within a file");
                }
            }
            for (int i = 0; i < ops[r].length; i++) {
                TraceOp op = ops[r][i];
                int self = unitOf[r][i];
                for (List<Long> deps : List.of(op.node().getDataDepsList(), op.node().getCtrlDepsList())) {
                    for (long d : deps) {
                        Integer at = byId.get(d);
                        if (at == null) {
                            throw new TraceFormatException(op.where() + ": depends on node " + Long.toUnsignedString(d)
                                    + ", which " + traces.get(r).file().getFileName() + " does not have");
                        }
                        int u = unitOf[r][at];
                        if (u == self) {
                            throw new TraceFormatException(op.where() + ": depends on " + (at == i ? "itself"
                                    : "node " + Long.toUnsignedString(d) + ", a member of the same collective"));
                        }
                        units.get(self).waitsFor.add(u);
                    }
                }
            }
        }
        for (int u = 0; u < units.size(); u++) {
            Unit unit = units.get(u);
            unit.pending = unit.waitsFor.size();
            for (int d : unit.waitsFor) units.get(d).dependents.add(u);
        }
    }

    /** Emits the units in dependency order (ties by creation order, so the graph is the same run to run). */
    private void emit(List<Unit> units) throws TraceFormatException {
        Timed[] done = new Timed[units.size()];
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int u = 0; u < units.size(); u++) if (units.get(u).pending == 0) ready.add(u);
        int emitted = 0;
        while (!ready.isEmpty()) {
            int u = ready.poll();
            done[u] = emit(units.get(u), done);
            emitted++;
            for (int d : units.get(u).dependents) if (--units.get(d).pending == 0) ready.add(d);
        }
        if (emitted < units.size()) {
            for (Unit unit : units) {
                if (unit.pending > 0) {
                    throw new TraceFormatException(unit.ops.get(0).where() + ": the trace deadlocks: " + (units.size() - emitted)
                            + " operations wait for each other in a cycle (through dependencies, collectives or send/receive pairs),"
                            + " this one among them or behind them");
                }
            }
        }
    }

    private Timed emit(Unit unit, Timed[] done) {
        TraceOp first = unit.ops.get(0);
        return switch (first.kind()) {
            case DELAY -> depsOf(unit, done).plus(first.durationPs());
            case COLLECTIVE -> collective(unit, depsOf(unit, done));
            case SEND -> send(first, unit.partner, depsOf(unit, done));
            case RECV -> depsOf(unit, done);
        };
    }

    private static Timed depsOf(Unit unit, Timed[] done) {
        List<Timed> parts = new ArrayList<>();
        for (int d : unit.waitsFor) parts.add(done[d]);
        return Timed.join(parts);
    }

    private Timed collective(Unit unit, Timed ready) {
        TraceOp first = unit.ops.get(0);
        if (first.sizeBytes() == 0) return ready;
        int[] ranks = new int[unit.ops.size()];
        int[] hosts = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = unit.ops.get(i).trace().rank();
            hosts[i] = rankToHost[ranks[i]];
        }
        int perServer = AlgorithmChoice.ranksPerServerOf(ranks, options.ranksPerServer());
        String alg = AlgorithmChoice.resolve(algorithm, first.op(), ranks.length, perServer);
        String label = (first.node().getName().isEmpty() ? first.op() : first.node().getName()) + " (" + first.op() + " " + alg + " "
                + first.sizeBytes() + "B x" + ranks.length + ")";
        CollectiveSpec spec = options.applyTo(CollectiveSpec.builder(first.op(), alg, first.sizeBytes(), hosts))
                .ranksPerServer(perServer).after(ready.token()).label(label).build();
        CollectiveHandle h = Collectives.emit(graph, spec);
        collectives.add(spec);
        groups.add(h.group());
        return new Timed(h.done(), ready.earliestPs());
    }

    /** The flow of a send: it starts when the send's dependencies are met; the token is met when the data has arrived. */
    private Timed send(TraceOp send, TraceOp recv, Timed start) {
        if (p2p == null) {
            p2p = new FlowEmitter(graph, graph.addGroup("chakra send/recv"), 0, options.qpsPerConnection(), options.splitDataOnQps(),
                    options.chunkBytes() > 0 ? options.chunkBytes() : P2P_MESSAGE, options.intraServerGBps());
        }
        String label = "chakra " + send.trace().rank() + ">" + recv.trace().rank() + " tag " + send.tag() + " "
                + (send.node().getName().isEmpty() ? "node " + Long.toUnsignedString(send.node().getId()) : send.node().getName());
        if (send.sizeBytes() == 0) return start;
        Completion arrived = p2p.send(rankToHost[send.trace().rank()], rankToHost[recv.trace().rank()], send.sizeBytes(), 0, 0, label,
                start.token());
        return new Timed(arrived, start.earliestPs());
    }
}

package lbsim.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.lb.Ethereal;
import lbsim.lb.EtherealAssignment;
import lbsim.topology.PathControl;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Ethereal's deployable path plan (paper 000 §3): for every batch of concurrent sends (flows
 * of one source with the same start time and the same dependencies, i.e. one collective
 * step), the divide-and-conquer assignment per destination ToR over all equal-cost paths,
 * with each piece's path ID (one byte per choosing switch, low byte at the source ToR), its bytes, and the QPs each NIC needs. Rack-local flows
 * keep one QP and no source route. Paths through links down from the start ({@link Context#linkDown}) are
 * left out; every other path is assumed good.
 */
public final class EtherealPlan implements Plan {
    static final String SOURCE = "Addanki et al., \"Ethereal: Divide and Conquer Network Load Balancing in Large-Scale Distributed Training\", Sec. 3, Algorithm 1";

    /** One QP of the plan. */
    public record Row(int flow, int src, int dst, int qp, long bytes, Integer pathId, int uplink) {}

    /**
     * What the plan was made from and what it cannot follow: the inputs (JSON {@code inputs}, e.g.
     * the scenario file and its resolved topology and workload), warnings about scenario keys the
     * plan does not follow, notes on those it does, and the links down from the start (null: none),
     * which the plan's paths avoid.
     */
    public record Context(ObjectNode inputs, List<String> warnings, List<String> notes, boolean[] linkDown,
                          PathControl pathControl) {
        public Context {
            warnings = List.copyOf(warnings);
            notes = List.copyOf(notes);
        }

        /** No inputs to report, nothing ignored, every link up, the scheme's default path_control port (programmatic use). */
        public static Context none() {
            return none(PathControl.PORT);
        }

        /** No inputs to report, nothing ignored, every link up, path IDs under {@code control}. */
        public static Context none(PathControl control) {
            return new Context(PlanRendering.object(), List.of(), List.of(), null, control);
        }
    }

    /** What the bytes of a path ID name under each path_control (notes). */
    static final String PORT_BYTES = "path ID bytes (path_control port): the low byte is the uplink index at the source ToR, the next byte the"
            + " uplink index at the next switch going up with a choice (Sec. 3.2); an uplink index numbers the equal-cost egress"
            + " ports bundle by bundle, member by member (0x0105 with 4-link bundles: ToR uplink 5 = member 1 to the second"
            + " next hop, then uplink 1); going down, a bundle's member is the one the path went up on at that tier (the bytes"
            + " read back in reverse order, byte mod the bundle's members); the UDP source port carries the ID (Sec. 3)";
    static final String LAG_BYTES = "path ID bytes (path_control lag): the low byte is read at the source ToR, the next byte at the next switch"
            + " with a choice, each naming a next-hop switch (0x0100: next hop 0, then 1); the switch hashes the member of a link"
            + " bundle (a LAG); the UDP source port carries the ID (Sec. 3)";

    private static final List<String> NOTES = List.of(
            "QPs per NIC are counted per batch; a run can hold more at once when a step starts before the"
                    + " previous step's last ACKs return (summary.json max_qps_per_nic)");

    private final List<Row> rows;
    private final int maxQpsPerNic;
    private final int flows;
    private final Context context;
    private final List<String> warnings;
    private final String batchNote;

    /** How the static plan batches (notes). */
    static final String STATIC_BATCHES = "batches are a source's flows with the same start time and dependencies; the flows"
            + " all start at their start times (no dependencies), so these are the batches a run's scheme sees";
    /** How a plan from a run batches (notes). */
    static final String RUN_BATCHES = "batches, QPs and path IDs are what the ethereal scheme assigned in a run of the scenario"
            + " (flows wait on others, so they start when the network lets them): a batch is a source's flows that"
            + " started at the same instant";

    private EtherealPlan(List<Row> rows, int maxQpsPerNic, int flows, Context context, List<String> warnings, String batchNote) {
        this.rows = rows;
        this.maxQpsPerNic = maxQpsPerNic;
        this.flows = flows;
        this.context = context;
        this.warnings = List.copyOf(warnings);
        this.batchNote = batchNote;
    }

    public List<Row> rows() { return rows; }
    public int maxQpsPerNic() { return maxQpsPerNic; }

    public static EtherealPlan compute(Topology topo, FlowGraph graph) {
        return compute(topo, graph, Context.none());
    }

    /**
     * The static plan, for workloads whose flows all start at their scheduled times (no
     * dependencies): a batch is a source's flows with the same start time, as the scheme's
     * interceptor sees them in a run. Flows that wait on others start when the network lets
     * them, so for those use {@link #fromRun}; here they are batched by start time and
     * dependencies, a guess.
     */
    public static EtherealPlan compute(Topology topo, FlowGraph graph, Context context) {
        PathControl control = context.pathControl();
        Map<String, List<FlowSpec>> batches = new LinkedHashMap<>();
        for (FlowSpec f : graph.flows()) {
            String key = f.src() + "|" + f.startPs() + "|" + java.util.Arrays.toString(f.after()) + "|" + java.util.Arrays.toString(f.afterAcked())
                    + "|" + java.util.Arrays.toString(f.afterSent());
            batches.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        List<Recorded> recorded = new ArrayList<>();
        int batchNo = 0;
        for (List<FlowSpec> batch : batches.values()) {
            int b = batchNo++;
            int src = batch.get(0).src();
            Map<Integer, List<FlowSpec>> byTor = new LinkedHashMap<>();
            for (FlowSpec f : batch) byTor.computeIfAbsent(topo.hostTor(f.dst()), k -> new ArrayList<>()).add(f);
            int qps = 0;
            for (Map.Entry<Integer, List<FlowSpec>> e : byTor.entrySet()) {
                List<FlowSpec> fl = e.getValue();
                if (e.getKey() == topo.hostTor(src)) {
                    for (FlowSpec f : fl) recorded.add(new Recorded(b, f, qps++, f.sizeBytes(), -1));
                    continue;
                }
                int[] ids = Ethereal.pathsAvoiding(topo, src, fl.get(0).dst(), context.linkDown(), control);
                if (ids.length == 0) ids = topo.routing().pathIds(src, fl.get(0).dst(), control); // as the scheme does when no path is good
                long[] sizes = fl.stream().mapToLong(FlowSpec::sizeBytes).toArray();
                List<List<EtherealAssignment.Piece>> a = EtherealAssignment.assign(sizes, ids.length);
                for (int i = 0; i < sizes.length; i++) {
                    for (EtherealAssignment.Piece p : a.get(i)) recorded.add(new Recorded(b, fl.get(i), qps++, p.bytes(), ids[p.path()]));
                }
            }
        }
        return of(topo, graph.size(), recorded, context, List.of(), STATIC_BATCHES);
    }

    /** One QP as the scheme opened it ({@link Ethereal.Recorder}): its batch, flow, index in the batch, bytes and path ID (-1: rack-local). */
    public record Recorded(int batch, FlowSpec flow, int qp, long bytes, int pathId) {}

    /**
     * The plan of what the {@code ethereal} scheme assigned in a run ({@link Ethereal#recordTo}),
     * in the order it opened the QPs; {@code extraWarnings} add to the context's.
     */
    public static EtherealPlan fromRun(Topology topo, int flows, List<Recorded> recorded, Context context, List<String> extraWarnings) {
        return of(topo, flows, recorded, context, extraWarnings, RUN_BATCHES);
    }

    private static EtherealPlan of(Topology topo, int flows, List<Recorded> recorded, Context context, List<String> extraWarnings,
                                   String batchNote) {
        List<Row> rows = new ArrayList<>();
        Map<Integer, Integer> qpsOfBatch = new java.util.HashMap<>();
        java.util.Set<Long> cutOff = new java.util.HashSet<>(); // (batch, destination ToR) with no path avoiding the links down
        boolean[] down = context.linkDown();
        PathControl control = context.pathControl();
        Map<Long, Boolean> noPath = new java.util.HashMap<>();
        for (Recorded r : recorded) {
            FlowSpec f = r.flow();
            qpsOfBatch.merge(r.batch(), 1, Integer::sum);
            boolean cut;
            if (r.pathId() < 0) {
                rows.add(new Row(f.id(), f.src(), f.dst(), r.qp(), r.bytes(), null, -1));
                cut = down != null && (down[topo.portLink(topo.hostPort(f.src()))] || down[topo.portLink(topo.hostPort(f.dst()))]);
            } else {
                int[] ports = topo.routing().pathPorts(f.src(), f.dst(), r.pathId(), control);
                rows.add(new Row(f.id(), f.src(), f.dst(), r.qp(), r.bytes(), r.pathId(), topo.localIndex(ports[0])));
                // without links down every path is good; otherwise once per source and destination ToR
                cut = down != null && noPath.computeIfAbsent(((long) f.src() << 32) | topo.hostTor(f.dst()),
                        k -> Ethereal.pathsAvoiding(topo, f.src(), f.dst(), down, control).length == 0);
            }
            if (cut) cutOff.add(((long) r.batch() << 32) | topo.hostTor(f.dst()));
        }
        int maxQps = qpsOfBatch.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<String> warnings = new ArrayList<>(context.warnings());
        warnings.addAll(extraWarnings);
        if (!cutOff.isEmpty()) {
            warnings.add(cutOff.size() + " batches (a source's flows to one ToR) have no path avoiding the links down at t = 0;"
                    + " they are planned over all paths, as the scheme does when none is good, and cannot be delivered");
        }
        return new EtherealPlan(rows, maxQps, flows, context, warnings, batchNote);
    }

    @Override
    public String kind() {
        return "ethereal";
    }

    @Override
    public List<String> warnings() {
        return warnings;
    }

    public List<String> notes() {
        List<String> notes = new ArrayList<>(NOTES);
        notes.add(0, context.pathControl() == PathControl.PORT ? PORT_BYTES : LAG_BYTES);
        notes.add(1, batchNote);
        notes.addAll(context.notes());
        return notes;
    }

    private static String hex(Integer id) {
        return id == null ? "" : String.format("0x%04x", id);
    }

    @Override
    public String render(PlanFormat format) {
        return switch (format) {
            case TEXT -> {
                StringBuilder sb = new StringBuilder();
                sb.append("lbsim plan ethereal (").append(SOURCE).append(")\n");
                sb.append("flows: ").append(flows).append(", QPs: ").append(rows.size())
                        .append(", max QPs per NIC in one batch: ").append(maxQpsPerNic).append('\n');
                for (String w : warnings()) sb.append("WARNING: ").append(w).append('\n');
                sb.append("flow  src  dst  qp  bytes  path_id  tor_uplink\n");
                for (Row r : rows) {
                    sb.append(r.flow()).append("  ").append(r.src()).append("  ").append(r.dst()).append("  ").append(r.qp())
                            .append("  ").append(r.bytes()).append("  ").append(r.pathId() == null ? "local" : hex(r.pathId()))
                            .append("  ").append(r.uplink() < 0 ? "-" : Integer.toString(r.uplink())).append('\n');
                }
                PlanRendering.appendNotes(sb, notes());
                yield sb.toString();
            }
            case JSON -> {
                ObjectNode root = PlanRendering.root(kind(), SOURCE);
                root.set("inputs", context.inputs());
                root.put("flows", flows);
                root.put("qps", rows.size());
                root.put("max_qps_per_nic", maxQpsPerNic);
                ArrayNode arr = root.putArray("rows");
                for (Row r : rows) {
                    ObjectNode o = arr.addObject();
                    o.put("flow", r.flow());
                    o.put("src", r.src());
                    o.put("dst", r.dst());
                    o.put("qp", r.qp());
                    o.put("bytes", r.bytes());
                    o.put("path_id", hex(r.pathId()));
                    o.put("tor_uplink", r.uplink());
                }
                PlanRendering.putStrings(root, "warnings", warnings());
                PlanRendering.putStrings(root, "notes", notes());
                yield PlanRendering.json(root);
            }
            case CSV -> {
                List<List<String>> out = new ArrayList<>();
                for (Row r : rows) {
                    out.add(List.of(Integer.toString(r.flow()), Integer.toString(r.src()), Integer.toString(r.dst()),
                            Integer.toString(r.qp()), Long.toString(r.bytes()), hex(r.pathId()), Integer.toString(r.uplink())));
                }
                yield PlanRendering.csv(List.of("flow", "src", "dst", "qp", "bytes", "path_id", "tor_uplink"), out);
            }
        };
    }
}

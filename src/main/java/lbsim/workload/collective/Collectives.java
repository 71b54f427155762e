package lbsim.workload.collective;

import static lbsim.workload.collective.Algorithm.DIRECT;
import static lbsim.workload.collective.Algorithm.DOUBLE_BINARY_TREE;
import static lbsim.workload.collective.Algorithm.HALVING_DOUBLING;
import static lbsim.workload.collective.Algorithm.HIERARCHICAL;
import static lbsim.workload.collective.Algorithm.RECURSIVE_DOUBLING;
import static lbsim.workload.collective.Algorithm.RING;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import lbsim.workload.FlowGraph;

/**
 * Registry and single entry point of the collective generators: appends a collective's flow
 * DAG to a {@link FlowGraph} under a new group.
 */
public final class Collectives {
    /** Op names accepted in scenario files. */
    public static final List<String> OPS = Op.names();
    /** Algorithm names accepted in scenario files. */
    public static final List<String> ALGORITHMS = Algorithm.names();

    private static final Map<Op, List<Algorithm>> SUPPORTED = new EnumMap<>(Op.class);

    static {
        SUPPORTED.put(Op.ALL_REDUCE, List.of(RING, DOUBLE_BINARY_TREE, HALVING_DOUBLING, RECURSIVE_DOUBLING, DIRECT, HIERARCHICAL));
        SUPPORTED.put(Op.REDUCE_SCATTER, List.of(RING, HALVING_DOUBLING, RECURSIVE_DOUBLING, DIRECT, HIERARCHICAL));
        SUPPORTED.put(Op.ALL_GATHER, List.of(RING, HALVING_DOUBLING, RECURSIVE_DOUBLING, DIRECT, HIERARCHICAL));
        SUPPORTED.put(Op.ALL_TO_ALL, List.of(DIRECT));
        SUPPORTED.put(Op.BROADCAST, List.of(RING, DIRECT));
        SUPPORTED.put(Op.REDUCE, List.of(RING, DIRECT));
        SUPPORTED.put(Op.SEND_RECV, List.of(DIRECT));
    }

    private Collectives() {}

    /** Algorithm names allowed for an op name. */
    public static List<String> algorithmsFor(String op) {
        return SUPPORTED.get(Op.of(op)).stream().map(Algorithm::scenarioName).toList();
    }

    public static boolean supports(String op, String algorithm) {
        return SUPPORTED.get(Op.of(op)).contains(Algorithm.of(algorithm));
    }

    /** Appends the collective and returns its group id. */
    public static int append(FlowGraph g, CollectiveSpec spec) {
        return emit(g, spec).group();
    }

    /** Appends the collective and returns its group, flow range, last flows and trailing time. */
    public static CollectiveHandle emit(FlowGraph g, CollectiveSpec spec) {
        Op op = Op.of(spec.op());
        Algorithm alg = checkedAlgorithm(op, spec.algorithm());
        for (int d : spec.after()) {
            if (d < 0 || d >= g.nextId()) throw new IllegalArgumentException("dependency " + d + " is not an existing flow");
        }
        Completion start = Completion.after(spec.after(), spec.afterGapPs());
        CollectiveContext ctx = new CollectiveContext(op, spec.rankToHost().clone(), spec.sizeBytes(), spec.root(),
                spec.channels(), ChunkDefaults.pipelineBytes(pipelineAlgorithm(alg, spec), op, spec.chunkBytes()),
                spec.reduceGBps(), (ch, k, slices) -> start, op.scenarioName() + "/" + alg.scenarioName(), 0,
                java.util.stream.IntStream.range(0, spec.rankToHost().length).toArray());
        CollectiveAlgorithm impl = implementation(alg, spec);
        impl.validate(ctx);

        int group = g.addGroup(spec.label().isEmpty() ? defaultName(spec) : spec.label());
        long message = ChunkDefaults.messageBytes(pipelineAlgorithm(alg, spec), op, spec.chunkBytes());
        FlowEmitter out = new FlowEmitter(g, group, spec.startPs(), spec.qpsPerConnection(), spec.splitDataOnQps(),
                message, spec.intraServerGBps());
        Completion done = impl.emit(ctx, out);
        int[] sinks = out.sinks();
        // the CCT counts from the issue, not the first flow (a hierarchical one starts inside the server) to the tail's end
        g.setTiming(group, new FlowGraph.GroupTiming(spec.startPs(), start.flowIds(), start.extraGapPs(), done.extraGapPs()));
        return new CollectiveHandle(group, out.firstId(), g.nextId(), sinks.length > 0 ? sinks : done.flowIds(),
                done.extraGapPs());
    }

    /** Resolves an algorithm name for an op, refusing unsupported pairs with the allowed list. */
    static Algorithm checkedAlgorithm(Op op, String algorithm) {
        Algorithm alg = Algorithm.of(algorithm);
        if (!SUPPORTED.get(op).contains(alg)) {
            throw new IllegalArgumentException("algorithm '" + algorithm + "' does not support op '" + op.scenarioName()
                    + "'; allowed algorithms for " + op.scenarioName() + ": " + String.join(", ", algorithmsFor(op.scenarioName())));
        }
        return alg;
    }

    static CollectiveAlgorithm implementation(Algorithm alg, CollectiveSpec spec) {
        return switch (alg) {
            case RING -> new RingAlgorithm();
            case DOUBLE_BINARY_TREE -> new DoubleBinaryTreeAlgorithm();
            case HALVING_DOUBLING -> new ButterflyAlgorithm(ButterflyAlgorithm.Order.FARTHEST_FIRST);
            case RECURSIVE_DOUBLING -> new ButterflyAlgorithm(ButterflyAlgorithm.Order.NEAREST_FIRST);
            case DIRECT -> new DirectAlgorithm();
            case HIERARCHICAL -> new HierarchicalAlgorithm(spec);
        };
    }

    /** Hierarchical collectives pipeline and deal QP messages like their inter-server algorithm. */
    private static Algorithm pipelineAlgorithm(Algorithm alg, CollectiveSpec spec) {
        return alg == HIERARCHICAL ? Algorithm.of(spec.innerAlgorithm()) : alg;
    }

    private static String defaultName(CollectiveSpec s) {
        return s.op() + " " + s.algorithm() + " " + s.sizeBytes() + "B x" + s.ranks();
    }
}

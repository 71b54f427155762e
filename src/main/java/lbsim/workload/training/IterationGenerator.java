package lbsim.workload.training;

import java.util.ArrayList;
import java.util.List;
import lbsim.workload.FlowGraph;
import lbsim.workload.collective.AlgorithmChoice;
import lbsim.workload.collective.ByteSplit;
import lbsim.workload.collective.CollectiveHandle;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.Collectives;
import lbsim.workload.collective.Completion;
import lbsim.workload.collective.FlowEmitter;

/**
 * Appends one training iteration under (DP, TP, PP) to a flow graph: per micro-batch and layer
 * the tensor-parallel collectives with compute gaps between them, pipeline transfers between
 * stages (GPipe order: every forward, then every backward in reverse micro-batch order), and
 * the data-parallel gradient all-reduce in buckets overlapping the last backward pass.
 * Everything is chained through dependencies (docs/collectives.md, "Training iterations").
 *
 * <p>Per layer, forward (backward mirrors it, compute x2): with sequence parallelism
 * AG, attention, RS, AG, MLP, RS (Megatron-LM SP); without it attention, AR, MLP, AR. Each of
 * these collectives moves the micro-batch activation b x s x h x activationBytes.
 */
public final class IterationGenerator {
    private static final long P2P_MESSAGE = 128L << 10;

    private final FlowGraph graph;
    private final TrainingSpec spec;
    private final Parallelism par;
    private final ComputeModel compute;
    private final long activation;
    private final List<CollectiveRecord> records = new ArrayList<>();
    private FlowEmitter pipeline;

    private IterationGenerator(FlowGraph graph, TrainingSpec spec) {
        this.graph = graph;
        this.spec = spec;
        this.par = spec.parallelism();
        this.compute = spec.compute();
        this.activation = spec.activationTensorBytes();
    }

    public static Iteration append(FlowGraph graph, TrainingSpec spec) {
        return new IterationGenerator(graph, spec).run();
    }

    private Iteration run() {
        int stages = par.pp();
        int replicas = par.dp();
        int micro = spec.microBatches();
        Completion[][] clock = new Completion[stages][replicas];
        for (Completion[] row : clock) java.util.Arrays.fill(row, Completion.NOW);
        Completion[][][] inbox = new Completion[stages][replicas][micro];
        for (int m = 0; m < micro; m++) {
            for (int p = 0; p < stages; p++) {
                for (int d = 0; d < replicas; d++) {
                    Completion ready = p == 0 ? clock[p][d] : Completion.join(clock[p][d], inbox[p][d][m]);
                    for (int l = firstLayer(p); l < firstLayer(p) + layers(p); l++) ready = forwardLayer(p, d, m, l, ready);
                    if (p == stages - 1) ready = ready.plus(compute.logitsForwardPs());
                    clock[p][d] = ready;
                    if (p < stages - 1) inbox[p + 1][d][m] = stageTransfer("pp-fwd", p, p + 1, d, m, ready);
                }
            }
        }
        List<List<List<Completion>>> units = new ArrayList<>();
        for (int p = 0; p < stages; p++) {
            List<List<Completion>> perReplica = new ArrayList<>();
            for (int d = 0; d < replicas; d++) perReplica.add(new ArrayList<>());
            units.add(perReplica);
        }
        Completion[][][] gradInbox = new Completion[stages][replicas][micro];
        for (int m = micro - 1; m >= 0; m--) {
            for (int p = stages - 1; p >= 0; p--) {
                for (int d = 0; d < replicas; d++) {
                    List<Completion> done = units.get(p).get(d);
                    Completion ready = p == stages - 1 ? clock[p][d] : Completion.join(clock[p][d], gradInbox[p][d][m]);
                    if (p == stages - 1) {
                        ready = ready.plus(compute.logitsBackwardPs());
                        if (m == 0 && spec.model().headParams() > 0) done.add(ready);
                    }
                    for (int l = firstLayer(p) + layers(p) - 1; l >= firstLayer(p); l--) {
                        ready = backwardLayer(p, d, m, l, ready);
                        if (m == 0) done.add(ready);
                    }
                    if (p == 0 && m == 0) done.add(ready);
                    clock[p][d] = ready;
                    if (p > 0) gradInbox[p - 1][d][m] = stageTransfer("pp-bwd", p, p - 1, d, m, ready);
                }
            }
        }
        List<Completion> ends = new ArrayList<>();
        for (Completion[] row : clock) ends.addAll(List.of(row));
        for (int p = 0; p < stages; p++) {
            for (int j = 0; j < par.tp(); j++) ends.add(gradientBuckets(p, j, units.get(p)));
        }
        return new Iteration(List.copyOf(records), Completion.join(ends), micro);
    }

    private int firstLayer(int stage) {
        int first = 0;
        for (int p = 0; p < stage; p++) first += layers(p);
        return first;
    }

    private int layers(int stage) {
        return (int) ByteSplit.part(spec.model().layers(), par.pp(), stage);
    }

    private Completion forwardLayer(int p, int d, int m, int l, Completion ready) {
        if (par.tp() == 1) return ready.plus(compute.attentionForwardPs() + compute.mlpForwardPs());
        String phase = "tp-fwd";
        if (spec.sequenceParallel()) {
            ready = tensor(phase, "all-gather", p, d, m, l, ready);
            ready = tensor(phase, "reduce-scatter", p, d, m, l, ready.plus(compute.attentionForwardPs()));
            ready = tensor(phase, "all-gather", p, d, m, l, ready);
            return tensor(phase, "reduce-scatter", p, d, m, l, ready.plus(compute.mlpForwardPs()));
        }
        ready = tensor(phase, "all-reduce", p, d, m, l, ready.plus(compute.attentionForwardPs()));
        return tensor(phase, "all-reduce", p, d, m, l, ready.plus(compute.mlpForwardPs()));
    }

    private Completion backwardLayer(int p, int d, int m, int l, Completion ready) {
        if (par.tp() == 1) return ready.plus(compute.mlpBackwardPs() + compute.attentionBackwardPs());
        String phase = "tp-bwd";
        if (spec.sequenceParallel()) {
            ready = tensor(phase, "all-gather", p, d, m, l, ready);
            ready = tensor(phase, "reduce-scatter", p, d, m, l, ready.plus(compute.mlpBackwardPs()));
            ready = tensor(phase, "all-gather", p, d, m, l, ready);
            return tensor(phase, "reduce-scatter", p, d, m, l, ready.plus(compute.attentionBackwardPs()));
        }
        ready = tensor(phase, "all-reduce", p, d, m, l, ready.plus(compute.mlpBackwardPs()));
        return tensor(phase, "all-reduce", p, d, m, l, ready.plus(compute.attentionBackwardPs()));
    }

    private Completion tensor(String phase, String op, int p, int d, int m, int l, Completion ready) {
        int[] ranks = par.tensorGroup(p, d);
        String label = phase + " " + op + " stage " + p + " replica " + d + " mb " + m + " layer " + l;
        return collective(phase, op, activation, ranks, ready, label, p, d, m, l);
    }

    private Completion collective(String phase, String op, long size, int[] ranks, Completion ready, String label,
                                  int stage, int index, int m, int layer) {
        int perServer = AlgorithmChoice.ranksPerServerOf(ranks, spec.options().ranksPerServer());
        String alg = AlgorithmChoice.resolve(spec.algorithm(), op, ranks.length, perServer);
        CollectiveSpec cs = spec.options().applyTo(CollectiveSpec.builder(op, alg, size, hostsOf(ranks)))
                .ranksPerServer(perServer).startPs(spec.startPs()).after(ready).label(label).build();
        CollectiveHandle h = Collectives.emit(graph, cs);
        records.add(new CollectiveRecord(phase, op, alg, size, stage, index, m, layer, ranks, h));
        return h.done();
    }

    /** Activations (or their gradients) of micro-batch m from stage `from` to `to`: tensor rank j sends its 1/tp shard to rank j. */
    private Completion stageTransfer(String phase, int from, int to, int d, int m, Completion ready) {
        if (pipeline == null) {
            CollectiveOptions o = spec.options();
            pipeline = new FlowEmitter(graph, graph.addGroup("pipeline p2p"), spec.startPs(), o.qpsPerConnection(),
                    o.splitDataOnQps(), o.chunkBytes() > 0 ? o.chunkBytes() : P2P_MESSAGE, o.intraServerGBps());
        }
        int first = graph.nextId();
        List<Completion> arrived = new ArrayList<>();
        int[] ranks = new int[2 * par.tp()];
        for (int j = 0; j < par.tp(); j++) {
            int src = par.rank(from, d, j);
            int dst = par.rank(to, d, j);
            ranks[2 * j] = src;
            ranks[2 * j + 1] = dst;
            String label = phase + " stage " + from + ">" + to + " replica " + d + " mb " + m + " tp " + j;
            arrived.add(pipeline.send(spec.rankToHost()[src], spec.rankToHost()[dst], ByteSplit.part(activation, par.tp(), j), 0, 0, label, ready));
        }
        Completion done = Completion.join(arrived);
        CollectiveHandle h = new CollectiveHandle(pipeline.group(), first, graph.nextId(), done.flowIds(), done.extraGapPs());
        records.add(new CollectiveRecord(phase, "send-recv", "direct", activation / par.tp(), from, d, m, -1, ranks, h));
        return done;
    }

    /**
     * Gradient all-reduce of stage p's shard j over its data-parallel group, in buckets of bucketBytes
     * filled in backward order (head, last layer ... first layer, embedding). A bucket starts when
     * the layer completing it has finished its last backward pass on every replica and the
     * previous bucket is done (one NCCL stream per communicator).
     */
    private Completion gradientBuckets(int p, int j, List<List<Completion>> unitDone) {
        long[] unitParams = unitParams(p);
        long stageParams = 0;
        for (long u : unitParams) stageParams += u;
        long bytes = ByteSplit.part(stageParams * spec.gradBytesPerParam(), par.tp(), j);
        if (par.dp() == 1 || bytes == 0) return Completion.NOW;
        int buckets = ByteSplit.piecesOf(bytes, spec.bucketBytes());
        Completion previous = Completion.NOW;
        int unit = 0;
        long cumulative = unitParams[0];
        for (int b = 0; b < buckets; b++) {
            long end = b == buckets - 1 ? bytes : (b + 1) * spec.bucketBytes();
            long size = end - (long) b * spec.bucketBytes();
            while (unit < unitParams.length - 1 && (double) cumulative / stageParams < (double) end / bytes - 1e-12) {
                cumulative += unitParams[++unit];
            }
            if (b == buckets - 1) unit = unitParams.length - 1;
            List<Completion> deps = new ArrayList<>();
            deps.add(previous);
            for (List<Completion> replica : unitDone) deps.add(replica.get(unit));
            String label = "dp-grad all-reduce stage " + p + " shard " + j + " bucket " + b;
            previous = collective("dp-grad", "all-reduce", size, par.dataGroup(p, j), Completion.join(deps), label, p, j, -1, b);
        }
        return previous;
    }

    /** Parameters of stage p in the order backward produces their gradients. */
    private long[] unitParams(int p) {
        ModelConfig model = spec.model();
        List<Long> out = new ArrayList<>();
        if (p == par.pp() - 1 && model.headParams() > 0) out.add(model.headParams());
        for (int l = 0; l < layers(p); l++) out.add(model.paramsPerLayer());
        if (p == 0) out.add(model.embeddingParams());
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    private int[] hostsOf(int[] ranks) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) out[i] = spec.rankToHost()[ranks[i]];
        return out;
    }
}

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
 * Appends one training iteration under (DP, TP, PP, EP) to a flow graph: per micro-batch and layer
 * the tensor-parallel collectives with compute gaps between them, pipeline transfers between
 * stages (GPipe order: every forward, then every backward in reverse micro-batch order), the
 * expert-parallel all-to-alls of a mixture of experts, and the data-parallel gradient all-reduce
 * in buckets overlapping the last backward pass (expert gradients over their own groups after it).
 * Everything is chained through dependencies (docs/collectives.md, "Training iterations").
 *
 * <p>Per layer, forward (backward mirrors it, compute x2): with sequence parallelism
 * AG, attention, RS, AG, MLP, RS (Megatron-LM SP); without it attention, AR, MLP, AR. Each of
 * these collectives moves the micro-batch activation b x s x h x activationBytes. In a mixture of
 * experts over ep > 1 replicas the MLP is framed by two all-to-alls (dispatch, combine), as is its
 * backward pass.
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

    /** Replicas whose layers are generated together: an expert-parallel block when tokens cross replicas, else one replica. */
    private int block() {
        return spec.model().isMixtureOfExperts() ? par.ep() : 1;
    }

    private Iteration run() {
        int stages = par.pp();
        int replicas = par.dp();
        int micro = spec.microBatches();
        int block = block();
        Completion[][] clock = new Completion[stages][replicas];
        for (Completion[] row : clock) java.util.Arrays.fill(row, Completion.NOW);
        Completion[][][] inbox = new Completion[stages][replicas][micro];
        for (int m = 0; m < micro; m++) {
            for (int p = 0; p < stages; p++) {
                for (int b = 0; b < replicas / block; b++) {
                    Completion[] ready = new Completion[block];
                    for (int i = 0; i < block; i++) {
                        int d = b * block + i;
                        ready[i] = p == 0 ? clock[p][d] : Completion.join(clock[p][d], inbox[p][d][m]);
                    }
                    for (int l = firstLayer(p); l < firstLayer(p) + layers(p); l++) forwardLayer(p, b, m, l, ready);
                    for (int i = 0; i < block; i++) {
                        int d = b * block + i;
                        if (p == stages - 1) ready[i] = ready[i].plus(compute.logitsForwardPs());
                        clock[p][d] = ready[i];
                        if (p < stages - 1) inbox[p + 1][d][m] = stageTransfer("pp-fwd", p, p + 1, d, m, ready[i]);
                    }
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
                for (int b = 0; b < replicas / block; b++) {
                    Completion[] ready = new Completion[block];
                    for (int i = 0; i < block; i++) {
                        int d = b * block + i;
                        ready[i] = p == stages - 1 ? clock[p][d] : Completion.join(clock[p][d], gradInbox[p][d][m]);
                        if (p == stages - 1) {
                            ready[i] = ready[i].plus(compute.logitsBackwardPs());
                            if (m == 0 && spec.model().headParams() > 0) units.get(p).get(d).add(ready[i]);
                        }
                    }
                    for (int l = firstLayer(p) + layers(p) - 1; l >= firstLayer(p); l--) {
                        backwardLayer(p, b, m, l, ready);
                        for (int i = 0; i < block; i++) if (m == 0) units.get(p).get(b * block + i).add(ready[i]);
                    }
                    for (int i = 0; i < block; i++) {
                        int d = b * block + i;
                        if (p == 0 && m == 0) units.get(p).get(d).add(ready[i]);
                        clock[p][d] = ready[i];
                        if (p > 0) gradInbox[p - 1][d][m] = stageTransfer("pp-bwd", p, p - 1, d, m, ready[i]);
                    }
                }
            }
        }
        List<Completion> ends = new ArrayList<>();
        for (Completion[] row : clock) ends.addAll(List.of(row));
        for (int p = 0; p < stages; p++) {
            for (int j = 0; j < par.tp(); j++) ends.add(gradientBuckets(p, j, units.get(p)));
        }
        if (spec.model().isMixtureOfExperts()) {
            for (int p = 0; p < stages; p++) {
                for (int j = 0; j < par.tp(); j++) {
                    for (int e = 0; e < par.ep(); e++) ends.add(expertGradients(p, j, e, units.get(p)));
                }
            }
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

    /**
     * One layer's forward pass for the replicas of expert-parallel block b ({@code ready} by position
     * in the block): attention with its tensor-parallel collectives, then the MLP, whose tokens go to
     * their experts and back by all-to-all in a mixture of experts spread over replicas.
     */
    private void forwardLayer(int p, int b, int m, int l, Completion[] ready) {
        String phase = "tp-fwd";
        boolean sp = spec.sequenceParallel();
        for (int i = 0; i < ready.length; i++) {
            int d = b * ready.length + i;
            if (par.tp() == 1) {
                ready[i] = ready[i].plus(compute.attentionForwardPs());
            } else if (sp) {
                ready[i] = tensor(phase, "all-gather", p, d, m, l, ready[i]);
                ready[i] = tensor(phase, "reduce-scatter", p, d, m, l, ready[i].plus(compute.attentionForwardPs()));
                ready[i] = tensor(phase, "all-gather", p, d, m, l, ready[i]);
            } else {
                ready[i] = tensor(phase, "all-reduce", p, d, m, l, ready[i].plus(compute.attentionForwardPs()));
            }
        }
        expertExchange("ep-fwd", p, b, m, l, ready); // dispatch
        for (int i = 0; i < ready.length; i++) ready[i] = ready[i].plus(compute.mlpForwardPs());
        expertExchange("ep-fwd", p, b, m, l, ready); // combine
        if (par.tp() == 1) return;
        for (int i = 0; i < ready.length; i++) {
            ready[i] = tensor(phase, sp ? "reduce-scatter" : "all-reduce", p, b * ready.length + i, m, l, ready[i]);
        }
    }

    /** The backward pass of {@link #forwardLayer}: the MLP (and its all-to-alls) first, then attention, compute x2. */
    private void backwardLayer(int p, int b, int m, int l, Completion[] ready) {
        String phase = "tp-bwd";
        boolean sp = spec.sequenceParallel();
        if (par.tp() > 1 && sp) {
            for (int i = 0; i < ready.length; i++) ready[i] = tensor(phase, "all-gather", p, b * ready.length + i, m, l, ready[i]);
        }
        expertExchange("ep-bwd", p, b, m, l, ready); // gradients of the combine
        for (int i = 0; i < ready.length; i++) ready[i] = ready[i].plus(compute.mlpBackwardPs());
        expertExchange("ep-bwd", p, b, m, l, ready); // gradients of the dispatch
        for (int i = 0; i < ready.length; i++) {
            int d = b * ready.length + i;
            if (par.tp() == 1) {
                ready[i] = ready[i].plus(compute.attentionBackwardPs());
            } else if (sp) {
                ready[i] = tensor(phase, "reduce-scatter", p, d, m, l, ready[i]);
                ready[i] = tensor(phase, "all-gather", p, d, m, l, ready[i]);
                ready[i] = tensor(phase, "reduce-scatter", p, d, m, l, ready[i].plus(compute.attentionBackwardPs()));
            } else {
                ready[i] = tensor(phase, "all-reduce", p, d, m, l, ready[i]);
                ready[i] = tensor(phase, "all-reduce", p, d, m, l, ready[i].plus(compute.attentionBackwardPs()));
            }
        }
    }

    /**
     * Expert-parallel all-to-all of block b (nothing when the experts are all local): tensor rank j of
     * every replica of the block exchanges with tensor rank j of the others. Each rank sends the
     * micro-batch's tokens once per routed expert, b x s x h x topK x activationBytes (NCCL-tests S:
     * its send buffer), assuming routing spreads tokens evenly over the experts; every replica of
     * the block waits for all of it.
     */
    private void expertExchange(String phase, int p, int b, int m, int l, Completion[] ready) {
        if (!spec.model().isMixtureOfExperts() || par.ep() == 1) return;
        Completion start = Completion.join(List.of(ready));
        long size = activation * spec.model().topK();
        List<Completion> done = new ArrayList<>();
        for (int j = 0; j < par.tp(); j++) {
            int[] ranks = par.expertGroup(p, b, j);
            String label = phase + " all-to-all stage " + p + " block " + b + " tp " + j + " mb " + m + " layer " + l;
            done.add(collective(phase, "all-to-all", size, ranks, start, label, p, b, m, l));
        }
        java.util.Arrays.fill(ready, Completion.join(done));
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

    /**
     * Expert gradients of stage p, tensor shard j, at position e of the expert-parallel blocks: the
     * experts / ep experts of each of its layers, all-reduced over the replicas holding the same
     * experts (one per block) in buckets once their backward pass has ended on all of them.
     */
    private Completion expertGradients(int p, int j, int e, List<List<Completion>> unitDone) {
        ModelConfig model = spec.model();
        int[] group = par.expertDataGroup(p, e, j);
        long params = layers(p) * model.expertParamsPerLayer() / par.ep();
        long bytes = ByteSplit.part(params * spec.gradBytesPerParam(), par.tp(), j);
        if (group.length == 1 || bytes == 0) return Completion.NOW;
        List<Completion> deps = new ArrayList<>();
        for (int b = 0; b < group.length; b++) {
            List<Completion> replica = unitDone.get(b * par.ep() + e);
            deps.add(replica.get(replica.size() - 1));
        }
        Completion previous = Completion.join(deps);
        int buckets = ByteSplit.piecesOf(bytes, spec.bucketBytes());
        for (int k = 0; k < buckets; k++) {
            long size = Math.min(spec.bucketBytes(), bytes - (long) k * spec.bucketBytes());
            String label = "ep-grad all-reduce stage " + p + " shard " + j + " experts " + e + " bucket " + k;
            previous = collective("ep-grad", "all-reduce", size, group, previous, label, p, j, -1, k);
        }
        return previous;
    }

    /** Parameters of stage p in the order backward produces their gradients. */
    private long[] unitParams(int p) {
        ModelConfig model = spec.model();
        List<Long> out = new ArrayList<>();
        if (p == par.pp() - 1 && model.headParams() > 0) out.add(model.headParams());
        for (int l = 0; l < layers(p); l++) out.add(model.denseParamsPerLayer());
        if (p == 0) out.add(model.embeddingParams());
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    private int[] hostsOf(int[] ranks) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) out[i] = spec.rankToHost()[ranks[i]];
        return out;
    }
}

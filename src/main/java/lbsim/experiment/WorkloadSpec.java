package lbsim.experiment;

import lbsim.BadInputException;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.workload.FlowSizeDistribution;
import lbsim.transport.FlowSpec;
import lbsim.workload.HtsimConnectionMatrix;
import lbsim.workload.OpenLoop;
import lbsim.workload.Permutation;
import lbsim.workload.StartJitter;
import lbsim.workload.collective.CollectiveSpec;
import lbsim.workload.collective.Collectives;
import lbsim.workload.collective.MultiJob;
import lbsim.workload.collective.Placement;
import lbsim.workload.chakra.ChakraTraces;
import lbsim.workload.chakra.ChakraWorkload;
import lbsim.workload.chakra.RankTrace;
import lbsim.workload.chakra.TraceFormatException;
import lbsim.workload.training.CollectiveOptions;
import lbsim.workload.training.IterationGenerator;
import lbsim.workload.training.TrainingPresets;

/**
 * The scenario's {@code workload} section, bound per kind. {@link #build} makes the flow
 * DAG for a fabric of a given size, drawing randomness from the workload stream only.
 */
public final class WorkloadSpec {
    public static final List<String> KINDS = List.of("flows", "permutation", "htsim-cm", "collective", "training", "open-loop",
            "ns3-flows", "chakra");
    public static final List<String> MODELS = List.of("ethereal-gpt2", "ctccl-llama2-7b", "llama3-8b", "llama3-70b", "mixtral-8x7b");
    /** Models whose parallelism and batch the scenario sets (the paper presets fix theirs). */
    static final List<String> CONFIGURABLE_MODELS = List.of("llama3-8b", "llama3-70b", "mixtral-8x7b");
    private static final List<String> MODEL_KEYS = List.of("tp", "pp", "ep", "micro_batch", "micro_batches", "seq_len", "sequence_parallel");
    public static final List<String> PLACEMENTS = List.of("contiguous", "random");
    /** Collective placements: {@link #PLACEMENTS} plus rail-optimised servers. */
    public static final List<String> COLLECTIVE_PLACEMENTS = List.of("contiguous", "single-rail", "random", "rail");
    public static final List<String> PAIRS = List.of("any", "inter-rack");

    /** A flow's start_ns and the start jitter each, so that their sum fits in a long of picoseconds (~53 days each). */
    static final long MAX_START_NS = Long.MAX_VALUE / 2000;

    /** Builds a flow graph for {@code hosts} hosts. */
    interface Builder {
        FlowGraph build(int hosts, SplittableRandom rnd);

        /** Builders that need more of the fabric than its host count override this. */
        default FlowGraph build(Topology topo, SplittableRandom rnd) {
            return build(topo.hostCount(), rnd);
        }
    }

    /** A builder that needs the fabric itself (NIC rates, host names), not only its host count: it refuses the latter. */
    private abstract static class FabricBuilder implements Builder {
        private final String refusal;

        FabricBuilder(String refusal) {
            this.refusal = refusal;
        }

        @Override
        public FlowGraph build(int hosts, SplittableRandom rnd) {
            throw new BadInputException(refusal);
        }

        @Override
        public abstract FlowGraph build(Topology topo, SplittableRandom rnd);
    }

    /** A builder whose ranks {@link RankPlacement} places on the fabric, which needs the hosts per leaf when it knows them. */
    private abstract static class PlacedBuilder implements Builder {
        private final RankPlacement placement;

        PlacedBuilder(RankPlacement placement) {
            this.placement = placement;
        }

        @Override
        public FlowGraph build(int hosts, SplittableRandom rnd) {
            return build(hosts, 0, rnd);
        }

        @Override
        public FlowGraph build(Topology topo, SplittableRandom rnd) {
            return build(topo.hostCount(), placement.hostsPerLeafFor(topo), rnd);
        }

        /** The graph for {@code hosts} hosts, {@code hostsPerLeaf} per leaf (0: unknown). */
        abstract FlowGraph build(int hosts, int hostsPerLeaf, SplittableRandom rnd);
    }

    private final String kind;
    private final Builder builder;
    private final String file;
    private final List<CollectiveSpec> collectives;
    private List<Integer> collectiveGroups = List.of();
    private long startJitterPs;
    private int qpsPerFlow;
    private List<String> warnings = List.of();

    private WorkloadSpec(String kind, Builder builder, String file) {
        this(kind, builder, file, new ArrayList<>());
    }

    /** {@code collectives} is filled by the builder when it runs. */
    private WorkloadSpec(String kind, Builder builder, String file, List<CollectiveSpec> collectives) {
        this.kind = kind;
        this.builder = builder;
        this.file = file;
        this.collectives = collectives;
    }

    /**
     * One training iteration (docs/collectives.md, "Training iterations"): a paper preset, or a
     * current model (docs/models.md) with its parallel degrees from the scenario; the model's
     * collectives chained with compute gaps over {@code ranks} hosts.
     */
    private static Builder training(Section s) {
        String model = s.choice("model", "ethereal-gpt2", MODELS);
        String alg = s.choice("algorithm", "ring", List.of("ring", "double-binary-tree", "halving-doubling", "recursive-doubling", "direct"));
        String placement = s.choice("placement", "contiguous", PLACEMENTS);
        int ranks = s.intValue("ranks", 0, 0, 1 << 24);
        String file = s.file();
        if (!CONFIGURABLE_MODELS.contains(model)) {
            for (String k : MODEL_KEYS) {
                if (s.has(k)) {
                    throw s.error(k, "is read for models " + String.join(", ", CONFIGURABLE_MODELS) + " only; the paper preset "
                            + model + " fixes its parallelism and batch");
                }
            }
        }
        ModelShape shape = CONFIGURABLE_MODELS.contains(model) ? ModelShape.read(s, model) : null;
        return (hosts, rnd) -> {
            int n = ranks == 0 ? hosts : ranks;
            if (n > hosts) throw new BadInputException(file + ": workload.ranks: " + n + " ranks but the fabric has " + hosts + " hosts");
            int[] map = placement.equals("random") ? Placement.random(n, hosts, rnd) : Placement.contiguous(n);
            FlowGraph g = new FlowGraph();
            try {
                var spec = switch (model) {
                    case "ethereal-gpt2" -> TrainingPresets.etherealGpt2(map, alg);
                    case "ctccl-llama2-7b" -> TrainingPresets.ctcclLlama2_7b(map, alg);
                    default -> shape.spec(map, alg);
                };
                IterationGenerator.append(g, spec);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(file + ": workload: " + e.getMessage(), e);
            }
            return g;
        };
    }

    /**
     * One collective over {@code ranks} hosts (default: all), placed contiguously, at random or
     * rail-optimised; with {@code jobs} > 1, that many copies run at once on disjoint hosts
     * ({@code ranks} per job, default hosts / jobs), each its own group (CTCCL §4.2's concurrent jobs).
     */
    private static Builder collective(Section s, List<CollectiveSpec> out, List<Integer> groups, List<String> warnings) {
        String op = s.choice("op", "all-reduce", Collectives.OPS);
        String alg = s.choice("algorithm", "ring", Collectives.algorithmsFor(op));
        long size = s.longValue("size_bytes", 16L << 20, 1, Long.MAX_VALUE / 16);
        RankPlacement placement = RankPlacement.read(s);
        int ranks = s.intValue("ranks", 0, 0, 1 << 24);
        int jobs = s.intValue("jobs", 1, 1, 1 << 20);
        // CTCCL §4.2: two concurrent NCCL-tests jobs on the same servers and NICs
        boolean sharedHosts = s.choice("job_hosts", "disjoint", List.of("disjoint", "shared")).equals("shared");
        int channels = s.intValue("channels", 1, 1, 64);
        long chunk = s.longValue("chunk_bytes", 0, 0, Long.MAX_VALUE / 16);
        int qps = qpsPerConnection(s);
        boolean split = splitDataOnQps(s);
        double reduce = s.doubleValue("reduce_gbps", 0, 0, 1e9); // GB/s (bytes), unlike the Gbit/s *_gbps keys: documented, not renamed
        // reducing the whole size_bytes must take a time the clock can hold (ps in a long, with room for the run after it)
        double minReduce = size / 1e15; // size bytes at this rate take 1e6 s = 1e18 ps
        if (reduce > 0 && reduce < minReduce) {
            throw s.error("reduce_gbps", reduce + " GB/s is too slow: reducing size_bytes " + size + " would take over 10^6 s of"
                    + " simulated time; use 0 (reduction not modelled) or at least " + minReduce + " GB/s");
        }
        int root = s.intValue("root", 0, 0, 1 << 24);
        boolean snapshot = s.bool("snapshot", false); // ParaLet §6: the collective's pairs at once (Snapshot)
        String file = s.file();
        return new PlacedBuilder(placement) {
            @Override
            FlowGraph build(int hosts, int hostsPerLeaf, SplittableRandom rnd) {
                int hostJobs = sharedHosts ? 1 : jobs; // jobs that need hosts of their own
                int n = ranks == 0 ? hosts / hostJobs : ranks;
                String what = hostJobs > 1 ? "workload.ranks: " + jobs + " jobs x " + n + " ranks" : "workload.ranks: " + n + " ranks";
                if ((long) n * hostJobs > hosts) throw new BadInputException(file + ": " + what + " but the fabric has " + hosts + " hosts");
                if (n < 2) throw new BadInputException(file + ": workload.ranks: a collective needs at least 2 ranks" + (jobs > 1 ? " per job" : ""));
                // checked here to say it in scenario terms: no key sets the server size, CollectiveSpec's default applies
                int gpus = CollectiveSpec.DEFAULT_RANKS_PER_SERVER;
                if (alg.equals("hierarchical") && (n % gpus != 0 || n < 2 * gpus)) {
                    throw new BadInputException(file + ": workload.ranks: algorithm hierarchical groups consecutive ranks into servers of "
                            + gpus + " GPUs (fixed, no scenario key), so it needs a multiple of " + gpus + " ranks and at least 2 servers ("
                            + 2 * gpus + " ranks); got " + n + (jobs > 1 ? " per job" : ""));
                }
                int total = n * hostJobs;
                warnings.clear();
                if (ranks == 0 && total < hosts) {
                    // floor(hosts / jobs) ranks per job: the rest wait, which is easy to miss
                    warnings.add("workload.jobs: " + jobs + " jobs x " + n + " ranks (ranks: 0 = the hosts split evenly) use "
                            + total + " of the " + hosts + " hosts; " + (hosts - total) + " hosts stay idle");
                }
                int[] map = placement.place(total, hosts, hostsPerLeaf, rnd);
                FlowGraph g = new FlowGraph();
                out.clear();
                groups.clear();
                try {
                    CollectiveSpec template = CollectiveSpec.builder(op, alg, size, map).channels(channels).chunkBytes(chunk)
                            .qpsPerConnection(qps).splitDataOnQps(split).reduceGBps(reduce).root(root).build();
                    List<CollectiveSpec> specs = jobs == 1 ? List.of(template)
                            : MultiJob.specs(template, sharedHosts ? MultiJob.sameHosts(map, jobs) : MultiJob.splitBlocks(map, jobs));
                    for (CollectiveSpec spec : specs) {
                        groups.add(Collectives.append(g, spec));
                        out.add(spec);
                    }
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(file + ": workload: " + e.getMessage(), e);
                }
                if (snapshot) {
                    out.clear(); // no longer the collective: no per-collective bound or busbw; cct_ns = the snapshot's end
                    return lbsim.workload.collective.Snapshot.of(g, size);
                }
                return g;
            }
        };
    }

    /**
     * A Chakra execution trace (docs/chakra.md): PREFIX.N.et per rank, or a folder holding one trace;
     * ranks placed as a collective's, collectives run with {@code algorithm} (NCCL's fallback where it
     * does not run the op) and the collective keys' NCCL knobs.
     */
    private static Builder chakra(Section s, Path baseDir, List<CollectiveSpec> out, List<Integer> groups, List<String> warnings) {
        String name = s.requiredString("trace");
        Path p = Path.of(name);
        if (!p.isAbsolute() && baseDir != null && !ChakraTraces.exists(p) && ChakraTraces.exists(baseDir.resolve(p))) p = baseDir.resolve(p);
        List<RankTrace> traces;
        try {
            traces = ChakraTraces.read(p);
        } catch (TraceFormatException e) {
            throw s.error("trace", e.getMessage());
        }
        if (traces.size() < 2) throw s.error("trace", p + ": has " + traces.size() + " rank; lbsim needs at least 2 ranks that communicate");
        String alg = s.choice("algorithm", "ring", Collectives.ALGORITHMS);
        RankPlacement placement = RankPlacement.read(s);
        CollectiveOptions knobs = new CollectiveOptions(s.intValue("channels", 1, 1, 64), s.longValue("chunk_bytes", 0, 0, Long.MAX_VALUE / 16),
                qpsPerConnection(s), splitDataOnQps(s), s.doubleValue("reduce_gbps", 0, 0, 1e9),
                CollectiveSpec.DEFAULT_INTRA_SERVER_GBPS, CollectiveSpec.DEFAULT_RANKS_PER_SERVER);
        String file = s.file();
        return new PlacedBuilder(placement) {
            @Override
            FlowGraph build(int hosts, int hostsPerLeaf, SplittableRandom rnd) {
                int n = traces.size();
                if (n > hosts) throw new BadInputException(file + ": workload.trace: the trace has " + n + " ranks but the fabric has " + hosts + " hosts");
                int[] map = placement.place(n, hosts, hostsPerLeaf, rnd);
                FlowGraph g = new FlowGraph();
                out.clear();
                groups.clear();
                warnings.clear();
                try {
                    ChakraWorkload.Result r = ChakraWorkload.append(g, traces, map, alg, knobs);
                    out.addAll(r.collectives());
                    groups.addAll(r.groups());
                    warnings.addAll(r.warnings());
                } catch (TraceFormatException e) {
                    throw new BadInputException(file + ": workload.trace: " + e.getMessage(), e);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(file + ": workload: " + e.getMessage(), e);
                }
                return g;
            }
        };
    }

    /**
     * Open-loop traffic (docs/workloads.md): Poisson flow arrivals per host at {@code load} x
     * the host's NIC rate, sizes from an empirical CDF, random distinct pairs.
     */
    private static Builder openLoop(Section s, Path baseDir) {
        String name = s.string("distribution", "hadoop");
        FlowSizeDistribution dist;
        if (FlowSizeDistribution.BUILT_IN.contains(name)) {
            dist = FlowSizeDistribution.builtIn(name);
        } else {
            Path p = Path.of(name);
            if (!p.isAbsolute() && baseDir != null && !Files.exists(p) && Files.exists(baseDir.resolve(p))) p = baseDir.resolve(p);
            if (!Files.isReadable(p)) {
                throw s.error("distribution", "'" + name + "' is neither a built-in distribution (" + String.join(", ",
                        FlowSizeDistribution.BUILT_IN) + ") nor a readable table file: CSV size_bytes,cdf or ns-3 SIZE CDF_PERCENT (looked in the working directory"
                        + (baseDir != null ? " and " + baseDir : "") + ")");
            }
            try {
                dist = FlowSizeDistribution.file(p);
            } catch (IOException e) {
                throw s.error("distribution", p + ": " + e.getMessage());
            } catch (FlowSizeDistribution.FormatException e) {
                throw s.error("distribution", e.getMessage());
            }
        }
        double load = s.doubleValue("load", 0.5, 1e-6, 10);
        long durationUs = s.longValue("duration_us", 1000, 1, Long.MAX_VALUE / 1_000_000);
        boolean interRack = s.choice("pairs", "any", PAIRS).equals("inter-rack");
        String file = s.file();
        FlowSizeDistribution d = dist;
        return new FabricBuilder(file + ": workload.kind: open-loop needs the topology's NIC rates") {
            @Override
            public FlowGraph build(Topology topo, SplittableRandom rnd) {
                int n = topo.hostCount();
                long[] rates = new long[n];
                int[] rack = new int[n];
                for (int h = 0; h < n; h++) {
                    rates[h] = topo.hostRateBps(h);
                    rack[h] = topo.hostTor(h);
                }
                try {
                    return new OpenLoop(d, load, durationUs * 1_000_000L, rates, interRack ? rack : null).build(rnd);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(file + ": workload: " + e.getMessage(), e);
                }
            }
        };
    }

    public String kind() {
        return kind;
    }

    public boolean isCollective() {
        return kind.equals("collective") || kind.equals("training") || kind.equals("chakra");
    }

    /** The collectives of the last {@link #build}, for their ideal completion times. */
    public List<CollectiveSpec> collectives() {
        return collectives;
    }

    /** The group id of each of {@link #collectives()} after the last build (kind collective; empty otherwise). */
    public List<Integer> collectiveGroups() {
        return collectiveGroups;
    }

    /** Remarks about the last {@link #build} for the run's warnings (e.g. hosts a job split leaves idle). */
    public List<String> warnings() {
        return warnings;
    }

    public boolean isOpenLoop() {
        return kind.equals("open-loop");
    }

    /** NCCL_IB_QPS_PER_CONNECTION of a collective: 0 leaves it to the scheme. */
    private static int qpsPerConnection(Section s) {
        return s.intValue("qps_per_connection", 0, 0, 128);
    }

    /** NCCL_IB_SPLIT_DATA_ON_QPS: one flow over the QPs (true) or one flow per QP (false). */
    private static boolean splitDataOnQps(Section s) {
        return s.bool("split_data_on_qps", true);
    }

    /**
     * The QP count this workload asks every flow to be split over ({@code FlowSpec.qps}): a collective's
     * {@code qps_per_connection} with {@code split_data_on_qps}; 0 when the scheme decides.
     */
    public int qpsPerFlow() {
        return qpsPerFlow;
    }

    static WorkloadSpec from(Section s, Path baseDir) {
        String kind = s.choice("kind", null, KINDS);
        Builder b = switch (kind) {
            case "flows" -> explicitFlows(s);
            case "permutation" -> permutation(s);
            case "collective" -> null;
            case "training" -> training(s);
            case "open-loop" -> openLoop(s, baseDir);
            case "ns3-flows" -> null;
            case "chakra" -> null;
            default -> htsim(s, baseDir);
        };
        // McClure et al.: flows that wait for nothing start up to this much late (permutation reads its own key)
        long jitterNs = kind.equals("collective") || kind.equals("flows")
                ? s.longValue("start_jitter_ns", 0, 0, MAX_START_NS) : 0;
        WorkloadSpec w;
        if (kind.equals("ns3-flows")) {
            List<String> warnings = new ArrayList<>();
            Builder nb = ns3Flows(s, baseDir, warnings);
            s.finish();
            w = new WorkloadSpec(kind, nb, s.file());
            w.warnings = warnings;
        } else if (kind.equals("chakra")) {
            List<CollectiveSpec> built = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            List<String> warnings = new ArrayList<>();
            Builder cb = chakra(s, baseDir, built, groups, warnings);
            int qpsPerFlow = splitDataOnQps(s) ? qpsPerConnection(s) : 0;
            s.finish();
            w = new WorkloadSpec(kind, cb, s.file(), built);
            w.collectiveGroups = groups;
            w.warnings = warnings;
            w.qpsPerFlow = qpsPerFlow;
        } else if (b == null) {
            List<CollectiveSpec> built = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            List<String> warnings = new ArrayList<>();
            Builder cb = collective(s, built, groups, warnings);
            int qpsPerFlow = splitDataOnQps(s) ? qpsPerConnection(s) : 0;
            s.finish();
            w = new WorkloadSpec(kind, cb, s.file(), built);
            w.collectiveGroups = groups;
            w.warnings = warnings;
            w.qpsPerFlow = qpsPerFlow;
        } else {
            s.finish();
            w = new WorkloadSpec(kind, b, s.file());
        }
        w.startJitterPs = jitterNs * 1000;
        return w;
    }

    private static Builder explicitFlows(Section s) {
        List<Section> list = s.sections("flows");
        if (list.isEmpty()) throw s.error("flows", "needs at least one flow {src, dst, size_bytes, start_ns}");
        List<long[]> rows = new ArrayList<>();
        List<long[]> deps = new ArrayList<>();
        for (Section f : list) {
            long src = f.requiredLong("src", 0, Integer.MAX_VALUE);
            long dst = f.requiredLong("dst", 0, Integer.MAX_VALUE);
            long size = f.requiredLong("size_bytes", 1, Long.MAX_VALUE / 16);
            long start = f.longValue("start_ns", 0, 0, MAX_START_NS);
            long[] after = f.longList("after");
            // a transfer tag, numbered from 0: flows of one group between the same hosts are one connection (lb Connection)
            long group = f.has("group") ? f.longValue("group", 0, 0, list.size() - 1) : -1;
            for (long a : after) {
                if (rows.isEmpty()) throw f.error("after", "the first flow cannot wait for any flow (after may name earlier flows only)");
                if (a < 0 || a >= rows.size()) throw f.error("after", "flow index " + a + " must name an earlier flow (0.." + (rows.size() - 1) + ")");
            }
            if (src == dst) throw f.error("dst", "equals src (" + src + ")");
            f.finish();
            rows.add(new long[] {src, dst, size, start, group});
            deps.add(after);
        }
        String file = s.file();
        return (hosts, rnd) -> {
            FlowGraph g = new FlowGraph();
            long groups = rows.stream().mapToLong(r -> r[4] + 1).max().orElse(0);
            for (int k = 0; k < groups; k++) g.addGroup("flows group " + k);
            for (int i = 0; i < rows.size(); i++) {
                long[] r = rows.get(i);
                for (int e = 0; e < 2; e++) {
                    if (r[e] >= hosts) {
                        throw new BadInputException(file + ": workload.flows[" + i + "]." + (e == 0 ? "src" : "dst") + ": host "
                                + r[e] + " does not exist (the fabric has hosts 0.." + (hosts - 1) + ")");
                    }
                }
                int[] after = new int[deps.get(i).length];
                for (int j = 0; j < after.length; j++) after[j] = (int) deps.get(i)[j];
                g.add(new FlowSpec(i, (int) r[0], (int) r[1], r[2], r[3] * 1000, after, after.length, 0, (int) r[4], 0, ""));
            }
            return g;
        };
    }

    private static Builder permutation(Section s) {
        long size = s.longValue("size_bytes", 2_000_000, 1, Long.MAX_VALUE / 16);
        int concurrent = s.intValue("concurrent", 1, 1, 100_000);
        long jitterNs = s.longValue("start_jitter_ns", 0, 0, Long.MAX_VALUE / 1000);
        String file = s.file();
        return (hosts, rnd) -> {
            try {
                return Permutation.build(hosts, size, concurrent, jitterNs * 1000, rnd);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(file + ": workload: " + e.getMessage(), e);
            }
        };
    }

    public static final List<String> TIME_ORIGINS = List.of("file", "first-flow");

    /**
     * ns-3 HPCC / ConWeave flow.txt (docs/inputs.md): node ids become hosts by name ({@code h<ID>}, as
     * generated fabrics and {@code topology.kind: ns3} name them), start times as written or moved so
     * that the first flow starts at 0 (ConWeave's generator starts flows at 2 s).
     */
    private static Builder ns3Flows(Section s, Path baseDir, List<String> warnings) {
        Path path = InputFiles.resolve(s, "file", baseDir);
        boolean shift = s.choice("time_origin", "file", TIME_ORIGINS).equals("first-flow");
        String file = s.file();
        lbsim.workload.Ns3FlowFile flows;
        try (Reader r = Files.newBufferedReader(path)) {
            flows = lbsim.workload.Ns3FlowFile.read(r);
        } catch (IOException e) {
            throw s.error("file", "cannot read " + path + " (" + e.getMessage() + ")");
        } catch (lbsim.workload.Ns3FlowFile.FormatException e) {
            throw new BadInputException(path + ": " + e.getMessage());
        }
        if (flows.linesAfter() > 0) {
            warnings.add("workload.file: " + path + " declares " + flows.entries().size() + " flows on its first line; the "
                    + flows.linesAfter() + " non-blank lines after them are not read (as ns-3 does not read them)");
        }
        long origin = shift ? flows.entries().stream().mapToLong(lbsim.workload.Ns3FlowFile.Entry::startPs).min().orElse(0) : 0;
        return new FabricBuilder(file + ": workload.kind: ns3-flows needs the topology's host names") {
            @Override
            public FlowGraph build(Topology topo, SplittableRandom rnd) {
                FlowGraph g = new FlowGraph();
                for (lbsim.workload.Ns3FlowFile.Entry e : flows.entries()) {
                    int src = host(topo, e.src(), e), dst = host(topo, e.dst(), e);
                    g.add(FlowSpec.simple(g.nextId(), src, dst, e.sizeBytes(), e.startPs() - origin));
                }
                return g;
            }

            private int host(Topology topo, int id, lbsim.workload.Ns3FlowFile.Entry e) {
                int node = topo.nodeId("h" + id);
                if (node < 0 || !topo.isHost(node)) {
                    throw new BadInputException(path + ": line " + e.line() + ": node " + id + " is not a host of the fabric (ns-3"
                            + " node ids are matched to host names h<ID>; the fabric's hosts are " + topo.nodeName(0) + " .. "
                            + topo.nodeName(topo.hostCount() - 1) + ")");
                }
                return node;
            }
        };
    }

    private static Builder htsim(Section s, Path baseDir) {
        String name = s.requiredString("file");
        Path p = Path.of(name);
        if (!p.isAbsolute() && baseDir != null && !Files.exists(p) && Files.exists(baseDir.resolve(p))) p = baseDir.resolve(p);
        if (!Files.isReadable(p)) throw s.error("file", "cannot read '" + name + "' (looked in the working directory"
                + (baseDir != null ? " and " + baseDir : "") + ")");
        Path path = p;
        String file = s.file();
        return (hosts, rnd) -> {
            FlowGraph g;
            try (Reader r = Files.newBufferedReader(path)) {
                g = HtsimConnectionMatrix.read(r);
            } catch (IOException e) {
                throw new BadInputException(file + ": workload.file: cannot read " + path + " (" + e.getMessage() + ")", e);
            } catch (HtsimConnectionMatrix.FormatException e) {
                throw new BadInputException(file + ": workload.file: " + path + ": " + e.getMessage(), e);
            }
            if (g.maxHost() >= hosts) {
                throw new BadInputException(file + ": workload.file: " + path + " uses host " + g.maxHost()
                        + " but the fabric has only " + hosts + " hosts");
            }
            return g;
        };
    }

    public FlowGraph build(int hosts, SplittableRandom rnd) {
        return finish(() -> builder.build(hosts, rnd), rnd);
    }

    /** As {@link #build(int, SplittableRandom)}, for workloads that need the fabric (open-loop, rail placement). */
    public FlowGraph build(Topology topo, SplittableRandom rnd) {
        FlowGraph g = finish(() -> builder.build(topo, rnd), rnd);
        requireReachable(topo, g);
        return g;
    }

    /** A fabric in pieces (planes, rails without spines) carries only flows inside one piece. */
    private void requireReachable(Topology topo, FlowGraph g) {
        for (FlowSpec f : g.flows()) {
            if (f.src() < topo.hostCount() && f.dst() < topo.hostCount() && !topo.routing().reachable(f.src(), f.dst())) {
                throw new BadInputException(file + ": workload: flow " + f.id() + " from host " + topo.nodeName(f.src()) + " to host "
                        + topo.nodeName(f.dst()) + " has no path: the fabric is in pieces (their ToRs "
                        + topo.nodeName(topo.hostTor(f.src())) + " and " + topo.nodeName(topo.hostTor(f.dst()))
                        + " are not connected), so traffic must stay inside one piece; place the ranks or flows accordingly");
            }
        }
    }

    private FlowGraph finish(java.util.function.Supplier<FlowGraph> build, SplittableRandom rnd) {
        FlowGraph g;
        try {
            g = build.get();
        } catch (FlowGraph.TooManyFlows e) {
            throw new BadInputException(file + ": workload: " + e.getMessage(), e);
        }
        if (g.size() == 0) throw new BadInputException(file + ": workload: produces no flows");
        return startJitterPs > 0 ? StartJitter.apply(g, startJitterPs, rnd.split()) : g;
    }
}

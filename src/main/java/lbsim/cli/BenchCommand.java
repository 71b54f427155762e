package lbsim.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Simulator speed on fixed reference scenarios: events/s and packet-hops/s (link traversals per wall second).")
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--format", defaultValue = "text", description = "text or json.")
    String format;

    @Option(names = "--long", description = "Also run the 8192-host k=32 fat-tree tier.")
    boolean longTier;

    @Option(names = "--only", description = "Run only the scenarios whose name contains this text.")
    String only;

    @Option(names = "--traffic", description = "An htsim connection-matrix file (.cm) to run on the fat-tree that fits its host count instead of lbsim's own permutation.")
    Path traffic;

    @Option(names = "--scenario", description = "Time this scenario file (as written, its own seed) instead of the reference scenarios.")
    Path scenario;

    @Option(names = "--repeat", defaultValue = "1", description = "Run each scenario N times and report the best wall and the best CPU time.")
    int repeat;

    @Option(names = "--warmup-ms", defaultValue = "3000",
            description = "CPU milliseconds of unreported runs of the first scenario before timing (at least one run), so the JIT has compiled and settled the hot path: a 75 ms run is still being recompiled after one run. Default ${DEFAULT-VALUE}.")
    long warmupMs;

    @Option(names = "--forks", defaultValue = "1",
            description = "Run the whole benchmark in N fresh JVMs one after another and report min, median and max packet-hops per CPU-second over them (one JVM's speed varies from launch to launch).")
    int forks;

    /** A reference scenario (name and YAML) or a user's scenario file. */
    record Case(String name, String yaml, Path file) {
        Case(String name, String yaml) {
            this(name, yaml, null);
        }

        Scenario scenario() {
            return file != null ? ScenarioLoader.load(file, List.of(), null)
                    : ScenarioLoader.parse("(bench " + name + ")", yaml, null, List.of(), null);
        }
    }

    static List<Case> cases(boolean longTier, Path traffic) {
        List<Case> out = new ArrayList<>();
        String wl = traffic == null ? "{kind: permutation, size_bytes: 2000000}"
                : "{kind: htsim-cm, file: \"" + traffic.toAbsolutePath() + "\"}";
        int[] ks = longTier ? new int[] {8, 16, 32} : new int[] {8, 16};
        if (traffic != null) ks = new int[] {fatTreeKFor(traffic)};
        for (int k : ks) {
            int hosts = k * k * k / 4;
            out.add(new Case("fat-tree k=" + k + " (" + hosts + " hosts) " + (traffic == null ? "permutation 2 MB" : traffic.getFileName()),
                    "name: bench-ft" + k + "\nseed: 1\ntopology: {kind: fat-tree, k: " + k + ", link_gbps: 100, link_latency_ns: 1000}\n"
                            + "transport: {cc: dctcp, pfc: true}\nload_balancer: {scheme: ecmp}\nworkload: " + wl + "\n"));
        }
        if (traffic == null) {
            out.add(new Case("leaf-spine 16x16 (256 hosts, 400G) all-to-all 16 MB",
                    "name: bench-a2a\nseed: 1\ntopology: {kind: leaf-spine, leaves: 16, spines: 16, hosts_per_leaf: 16, link_gbps: 400, link_latency_ns: 500}\n"
                            + "transport: {cc: dctcp, pfc: true}\nload_balancer: {scheme: ecmp}\n"
                            + "workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 16777216}\n"));
        }
        return out;
    }

    private static Case fileCase(Path file) {
        return new Case(file.toString(), null, file);
    }

    /** The k of the k-ary fat-tree whose k^3/4 hosts match the file's "Nodes N" header. */
    static int fatTreeKFor(Path cm) {
        try (var lines = java.nio.file.Files.lines(cm)) {
            String header = lines.filter(l -> l.startsWith("Nodes")).findFirst()
                    .orElseThrow(() -> new BadInputException(cm + ": no 'Nodes N' header"));
            int nodes = Integer.parseInt(header.substring(5).trim());
            for (int k = 2; k <= 256; k += 2) {
                if (k * k * k / 4 == nodes) return k;
            }
            throw new BadInputException(cm + ": Nodes " + nodes + " is not the host count of a k-ary fat-tree (k^3/4)");
        } catch (java.io.IOException | NumberFormatException e) {
            throw new BadInputException("--traffic " + cm + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    @Override
    public Integer call() {
        if (!format.equals("text") && !format.equals("json")) {
            throw new BadInputException("--format: '" + format + "' is not allowed; allowed values: text, json");
        }
        if (repeat < 1) throw new BadInputException("--repeat: must be at least 1, got " + repeat);
        if (forks < 1) throw new BadInputException("--forks: must be at least 1, got " + forks);
        if (warmupMs < 0) throw new BadInputException("--warmup-ms: must be at least 0, got " + warmupMs);
        List<Map<String, Object>> rows = new ArrayList<>();
        if (scenario != null && (traffic != null || longTier)) {
            throw new BadInputException("--scenario: cannot be combined with --traffic or --long");
        }
        List<Case> cases = scenario != null ? List.of(fileCase(scenario)) : cases(longTier, traffic);
        if (only != null && cases.stream().noneMatch(c -> c.name().contains(only))) {
            throw new BadInputException("--only: '" + only + "' matches no scenario; scenarios: "
                    + String.join(", ", cases.stream().map(Case::name).toList()));
        }
        // a user's scenario: the keys its settings do not read, once, as run says (the reference scenarios set none)
        if (scenario != null) for (String w : cases.get(0).scenario().warnings()) System.err.println("lbsim: warning: " + w);
        if (forks > 1) {
            for (Case c : cases) c.scenario();   // bad input fails here, with exit code 2, not in a fork
            BenchForks.run(forks, childArgs(), format.equals("json"));
            return 0;
        }
        warmUp(cases.get(0).scenario());
        for (Case c : cases) {
            if (only != null && !c.name().contains(only)) continue;
            Scenario sc = c.scenario();
            if (format.equals("text")) System.err.println("running " + c.name() + " ...");
            resetPeaks();
            // best of --repeat runs, separately for wall and CPU time (other processes only ever add time)
            RunResult r = null;
            long wallMs = Long.MAX_VALUE;
            long cpuNs = Long.MAX_VALUE;
            for (int i = 0; i < repeat; i++) {
                long cpuStart = CPU.getCurrentThreadCpuTime();
                r = Runner.run(sc, ProgressBar.forTerminal(c.name()));
                cpuNs = Math.min(cpuNs, Math.max(1, CPU.getCurrentThreadCpuTime() - cpuStart));
                wallMs = Math.min(wallMs, r.wallMs());
            }
            double sec = Math.max(1, wallMs) / 1000.0;
            // rates from the CPU time in ns: a k=8 run takes about 75 ms, so whole milliseconds moved its rate in steps of 1.3 %
            double cpuSec = cpuNs / 1e9;
            long cpuMs = Math.max(1, Math.round(cpuNs / 1e6));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", c.name());
            row.put("events", r.events());
            row.put("packet_hops", r.packetHops());
            row.put("wall_ms", wallMs);
            row.put("events_per_sec", Math.round(r.events() / sec));
            row.put("packet_hops_per_sec", Math.round(r.packetHops() / sec));
            // CPU time of the simulating thread: what a run costs when other processes compete for the cores
            row.put("cpu_ms", cpuMs);
            row.put("events_per_cpu_sec", Math.round(r.events() / cpuSec));
            row.put("packet_hops_per_cpu_sec", Math.round(r.packetHops() / cpuSec));
            row.put("peak_heap_mb", peakHeapMb());
            row.put("flows", r.flows().size());
            row.put("sim_time_us", Math.round(r.simTimeNs() / 1000));
            rows.add(row);
            if (format.equals("text")) {
                System.out.printf(Locale.ROOT, "%-52s %10.2f M events/s %8.2f M packet-hops/s  wall %6.1f s  cpu %7.3f s (%5.2f M packet-hops/cpu-s)  peak heap %5d MB  flows %d%n",
                        c.name(), r.events() / sec / 1e6, r.packetHops() / sec / 1e6, sec, cpuSec, r.packetHops() / cpuSec / 1e6,
                        peakHeapMb(), r.flows().size());
            }
        }
        if (format.equals("json")) {
            System.out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                    .writeValueAsString(Map.of("scenarios", rows)));
        }
        return 0;
    }

    /**
     * Unreported runs of {@code sc} until {@link #warmupMs} of CPU time have passed (at least one):
     * speed is measured on compiled, settled code, as in a long simulation, not while the JIT is
     * still compiling and recompiling the event loop (the first runs of the k=8 case take 1.5-2.5x
     * as long as the tenth).
     */
    private void warmUp(Scenario sc) {
        long start = CPU.getCurrentThreadCpuTime();
        do {
            Runner.run(sc, Runner.Progress.NONE);
        } while (CPU.getCurrentThreadCpuTime() - start < warmupMs * 1_000_000);
    }

    /** This command's options for a fork (everything but --forks and --format). */
    private List<String> childArgs() {
        List<String> a = new ArrayList<>(List.of("--repeat", Integer.toString(repeat), "--warmup-ms", Long.toString(warmupMs)));
        if (longTier) a.add("--long");
        if (only != null) a.addAll(List.of("--only", only));
        if (traffic != null) a.addAll(List.of("--traffic", traffic.toAbsolutePath().toString()));
        if (scenario != null) a.addAll(List.of("--scenario", scenario.toAbsolutePath().toString()));
        return a;
    }

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) p.resetPeakUsage();
    }

    private static long peakHeapMb() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
        }
        return sum >> 20;
    }
}

package lbsim.cli;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lbsim.experiment.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.lb.Schemes;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Run one scenario under several schemes; prints a table, writes compare.csv, report.html (charts in plots/) and one run folder per scheme.")
public final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "Scenario YAML (default: the embedded 128-GPU leaf-spine all-reduce).")
    Path file;

    @Mixin
    ScenarioOptions options = new ScenarioOptions();

    @Option(names = "--schemes", split = ",", description = "Schemes to compare (default: every available scheme).")
    List<String> schemes;

    @Option(names = "--out", description = "Output directory (default: out/compare-<scenario name>).")
    Path out;

    @Option(names = "--jobs", description = "Schemes simulated at once (default: all cores). Results do not depend on it.")
    Integer jobs;

    @Override
    public Integer call() throws Exception {
        List<String> names = schemes == null ? Schemes.available() : schemes;
        for (int i = 0; i < names.size(); i++) {
            String s = names.get(i);
            if (!Schemes.isAvailable(s)) {
                throw new BadInputException("--schemes: '" + s + "' is not a scheme; allowed values: "
                        + String.join(", ", Schemes.available()));
            }
            // each scheme is a run folder, a table row and a chart series: a repeat would only collide after simulating
            if (names.subList(0, i).contains(s)) throw new BadInputException("--schemes: '" + s + "' is given twice; name each scheme once");
        }
        int j = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (j < 1) throw new BadInputException("--jobs: must be at least 1, got " + j);
        List<Scenario> scenarios = new ArrayList<>();
        for (String s : names) {
            List<String> ov = new ArrayList<>(options.overrides);
            ov.add("load_balancer.scheme=" + s);
            try {
                scenarios.add(file == null ? ScenarioLoader.loadResource("default-compare.yaml", ov, options.seed)
                        : ScenarioLoader.load(file, ov, options.seed));
            } catch (BadInputException e) {
                // a load_balancer key that only the file's own scheme reads: say that compare replaced the scheme
                if (!e.getMessage().contains("load_balancer.")) throw e;
                throw new BadInputException(e.getMessage() + " (under scheme " + s + ": compare runs the scenario with load_balancer.scheme="
                        + s + ", so keys of one scheme cannot be compared across schemes; drop them or compare that scheme alone)");
            }
        }
        // the scenario's own warnings (keys its settings do not read) are the same under every scheme: once each
        java.util.Set<String> warnings = new java.util.LinkedHashSet<>();
        for (Scenario sc : scenarios) warnings.addAll(sc.warnings());
        for (String w : warnings) System.err.println("lbsim: warning: " + w);
        Path dir = out != null ? out : Path.of("out", "compare-" + scenarios.get(0).name());
        System.err.println("running " + scenarios.get(0).name() + " under " + names.size() + " schemes, " + Math.min(j, names.size())
                + " at a time ...");
        RunResult[] results = new RunResult[names.size()];
        if (j == 1) {
            for (int i = 0; i < names.size(); i++) {
                // later schemes expect about the simulated time the first one needed
                Runner.Progress progress = ProgressBar.forTerminal(names.get(i), i == 0 ? 0 : (long) (results[0].simTimeNs() * 1000));
                results[i] = Runner.run(scenarios.get(i), progress);
                if (progress instanceof ProgressBar pb) pb.clear();
            }
        } else {
            runInParallel(scenarios, results, j);
        }
        for (int i = 0; i < results.length; i++) {
            ResultWriter.write(results[i], dir.resolve(names.get(i)));
            ScenarioLoader.writeResolved(scenarios.get(i), dir.resolve(names.get(i)));   // each scheme's folder re-runs on its own
        }
        List<RunResult> list = List.of(results);
        System.out.print(Tables.compare(list));
        writeCsv(list, dir.resolve("compare.csv"));
        Report.compare(list, dir);
        System.out.println("results in " + dir + " (compare.csv, report.html)");
        return 0;
    }

    /** Each run is independent (its own Simulation); results land in scheme order whatever finishes first. */
    private static void runInParallel(List<Scenario> scenarios, RunResult[] results, int jobs) throws Exception {
        ProgressBar pb = ProgressBar.forRuns("compare");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(jobs);
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
            for (int i = 0; i < scenarios.size(); i++) {
                int k = i;
                futures.add(pool.submit(() -> {
                    results[k] = Runner.run(scenarios.get(k), Runner.Progress.NONE);
                    if (pb != null) pb.runsDone(done.incrementAndGet(), scenarios.size());
                }));
            }
            for (var f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw e;
                }
            }
        } finally {
            pool.shutdownNow();
            if (pb != null) pb.clear();
        }
    }

    /** One row per scheme: {@code seed} and every scalar summary.json field, flattened with dots as in a sweep's results.csv. */
    static void writeCsv(List<RunResult> results, Path path) throws java.io.IOException {
        List<java.util.Map<String, String>> rows = new ArrayList<>();
        java.util.LinkedHashSet<String> columns = new java.util.LinkedHashSet<>();
        columns.add("scheme");
        columns.add("seed");
        for (RunResult r : results) {
            java.util.Map<String, String> row = new java.util.LinkedHashMap<>();
            row.put("seed", Long.toString(r.seed()));
            row.putAll(lbsim.experiment.Sweep.flatten(ScenarioLoader.yaml().readTree(ResultWriter.summaryJson(r))));
            columns.addAll(row.keySet());
            rows.add(row);
        }
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(path)) {
            csv.writeRecord(columns);
            for (var row : rows) {
                List<String> cells = new ArrayList<>();
                for (String c : columns) cells.add(row.getOrDefault(c, ""));
                csv.writeRecord(cells);
            }
        }
    }
}

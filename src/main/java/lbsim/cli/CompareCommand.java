package lbsim.cli;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lbsim.BadInputException;
import lbsim.experiment.RunSize;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.lb.Schemes;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.metrics.SeedComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Run one scenario under several schemes and seeds; prints a table (means over the seeds, the completion's sd, which schemes are within the noise of the best), writes compare.csv, report.html (charts in plots/) and one run folder per scheme (per scheme and seed with several seeds).")
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

    @Mixin
    ProgressOption progressOption = new ProgressOption();

    @Mixin
    ReportOption reportOption = new ReportOption();

    @Mixin
    OverwriteOption overwriteOption = new OverwriteOption();

    @Option(names = "--jobs", description = "Runs simulated at once (default: all cores). Results do not depend on it.")
    Integer jobs;

    @Option(names = "--seeds", paramLabel = "N", description = "Seeds per scheme: the scenario's seed (or --seed) s, s+1, ..., s+N-1. "
            + "Default: " + RunSize.SMALL_RUN_SEEDS + " when one run is small (at most " + RunSize.SMALL_RUN_PACKET_HOPS
            + " packet-hops of data on shortest paths, estimated from the workload), else 1.")
    Integer seeds;

    @Override
    public Integer call() throws Exception {
        OutDir.check(out);
        progressOption.mode(); // a bad --progress is refused before anything runs
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
        if (seeds != null && seeds < 1) throw new BadInputException("--seeds: must be at least 1, got " + seeds);
        List<Scenario> base = new ArrayList<>();
        for (String s : names) base.add(load(s, options.seed));
        long first = base.get(0).seed();
        int n = seeds != null ? seeds : RunSize.defaultSeeds(base.get(0));
        if (n > 1 && first > Long.MAX_VALUE - (n - 1)) throw new BadInputException("--seeds: " + n + " seeds from seed " + first + " pass the largest seed");
        // per scheme, its runs under seeds first, first+1, ...: the first seed's scenario is the one loaded above
        List<List<Scenario>> scenarios = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            List<Scenario> perSeed = new ArrayList<>(List.of(base.get(i)));
            for (int k = 1; k < n; k++) perSeed.add(load(names.get(i), first + k));
            scenarios.add(perSeed);
        }
        // the scenario's own warnings (keys its settings do not read) are the same under every scheme: once each
        java.util.Set<String> warnings = new java.util.LinkedHashSet<>();
        for (Scenario sc : base) warnings.addAll(sc.warnings());
        for (String w : warnings) System.err.println("lbsim: warning: " + w);
        Path dir = OutDir.usable(out != null ? out : Path.of("out", "compare-" + base.get(0).name()), overwriteOption.overwrite);
        int runs = names.size() * n;
        System.err.println("running " + base.get(0).name() + " under " + names.size() + " schemes"
                + (n > 1 ? " x " + n + " seeds (" + first + "-" + (first + n - 1) + ")" : "") + ", " + Math.min(j, runs)
                + " at a time ...");
        List<Scenario> flat = new ArrayList<>();
        for (List<Scenario> perSeed : scenarios) flat.addAll(perSeed);
        RunResult[] results = new RunResult[flat.size()];
        Throwable[] failures = new Throwable[flat.size()];
        // each run's folder is written as soon as the run finishes: a later failure keeps it
        java.util.function.IntConsumer write = i -> {
            Path runDir = n == 1 ? dir.resolve(flat.get(i).scheme()) : dir.resolve(flat.get(i).scheme()).resolve("seed-" + flat.get(i).seed());
            ResultWriter.write(results[i], runDir);
            try {
                ScenarioLoader.writeResolved(flat.get(i), runDir);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        if (j == 1) {
            for (int i = 0; i < flat.size(); i++) {
                // later runs expect about the simulated time the first one needed
                String label = n > 1 ? flat.get(i).scheme() + " seed " + flat.get(i).seed() : flat.get(i).scheme();
                Runner.Progress progress = ProgressBar.forRun(label, i == 0 || results[0] == null ? 0 : (long) (results[0].simTimeNs() * 1000),
                        progressOption.mode());
                try {
                    results[i] = runner.apply(flat.get(i), progress);
                    write.accept(i);
                } catch (RuntimeException e) {
                    results[i] = null;
                    failures[i] = e;
                } finally {
                    if (progress instanceof ProgressBar pb) pb.clear();
                }
            }
        } else {
            runInParallel(flat, results, failures, write, j, progressOption.mode());
        }
        for (Throwable f : failures) if (f instanceof Error e) throw e;   // out of memory: Main says what to change
        List<String> finished = new ArrayList<>();
        List<List<RunResult>> perScheme = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        boolean internal = false;
        for (int i = 0; i < names.size(); i++) {
            boolean ok = true;
            for (int k = 0; k < n; k++) {
                Throwable f = failures[i * n + k];
                if (f == null) continue;
                ok = false;
                String run = n == 1 ? names.get(i) : names.get(i) + " seed " + flat.get(i * n + k).seed();
                failed.add(run);
                if (f instanceof BadInputException) {
                    System.err.println("lbsim: " + run + ": " + f.getMessage());
                } else {
                    internal = true;
                    System.err.println("lbsim: " + run + ": internal error: " + f);
                    f.printStackTrace(System.err);
                }
            }
            if (ok) {
                finished.add(names.get(i));
                perScheme.add(List.of(java.util.Arrays.copyOfRange(results, i * n, (i + 1) * n)));
            }
        }
        List<Scenario> finishedBase = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) if (finished.contains(names.get(i))) finishedBase.add(base.get(i));
        SeedComparison c = perScheme.isEmpty() ? null : SeedComparison.of(perScheme, base.get(0).workload().isCollective(), transport(finishedBase));
        if (c != null) System.out.print(Tables.compare(c));
        for (String w : incompleteRuns(names, flat, results, warnings)) System.err.println("lbsim: warning: " + w);
        if (!failed.isEmpty()) {
            System.err.println("lbsim: compare: " + failed.size() + " of " + flat.size() + " runs failed (" + String.join(", ", failed) + ")"
                    + (finished.isEmpty() ? "; no scheme finished" : "; the table has the schemes that finished (" + String.join(", ", finished)
                    + "), their folders are in " + dir) + "; compare.csv and report.html are not written");
            return internal ? 1 : 2;
        }
        writeCsv(c, dir.resolve("compare.csv"));
        if (!reportOption.wanted()) {
            System.out.println("results in " + dir + " (compare.csv)");
            return 0;
        }
        Report.compare(c, dir);
        System.out.println("results in " + dir + " (compare.csv, report.html)");
        return 0;
    }

    /**
     * Per scheme with a run that did not complete, why: the first such run's own warnings (the scenario's were
     * printed before the runs) and the other seeds that did not complete, so a blank row is never left unexplained.
     */
    static List<String> incompleteRuns(List<String> names, List<Scenario> flat, RunResult[] results, java.util.Set<String> scenarioWarnings) {
        List<String> out = new ArrayList<>();
        int n = flat.size() / names.size();
        for (int i = 0; i < names.size(); i++) {
            List<RunResult> incomplete = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                RunResult r = results[i * n + k];
                if (r != null && !r.completed()) incomplete.add(r);
            }
            if (incomplete.isEmpty()) continue;
            RunResult first = incomplete.get(0);
            List<String> why = first.warnings().stream().filter(w -> !scenarioWarnings.contains(w)).toList();
            String more = incomplete.size() == 1 ? "" : " (also incomplete: seed" + (incomplete.size() > 2 ? "s " : " ")
                    + String.join(", ", incomplete.subList(1, incomplete.size()).stream().map(r -> Long.toString(r.seed())).toList()) + ")";
            out.add(names.get(i) + (n > 1 ? " seed " + first.seed() : "") + " did not complete" + more
                    + (why.isEmpty() ? "" : ": " + String.join("; ", why)));
        }
        return out;
    }

    /** How a run is simulated: tests replace it to make one scheme fail. */
    static java.util.function.BiFunction<Scenario, Runner.Progress, RunResult> runner = Runner::run;

    /** The scenario under {@code scheme} and {@code seed} (null: the scenario's own seed). */
    private Scenario load(String scheme, Long seed) {
        List<String> ov = new ArrayList<>(options.overrides);
        ov.add("load_balancer.scheme=" + scheme);
        try {
            return file == null ? ScenarioLoader.loadResource("default-compare.yaml", ov, seed) : ScenarioLoader.load(file, ov, seed);
        } catch (BadInputException e) {
            // a load_balancer key that only the file's own scheme reads: say that compare replaced the scheme
            if (!e.getMessage().contains("load_balancer.")) throw e;
            throw new BadInputException(e.getMessage() + " (under scheme " + scheme + ": compare runs the scenario with load_balancer.scheme="
                    + scheme + ", so keys of one scheme cannot be compared across schemes; drop them or compare that scheme alone)");
        }
    }

    /** "cc dctcp, loss recovery go-back-n, PFC on", per scheme when the schemes' transports differ. */
    static String transport(List<Scenario> scenarios) {
        java.util.Map<String, List<String>> by = new java.util.LinkedHashMap<>();
        for (Scenario sc : scenarios) {
            var t = sc.transport();
            String d = "cc " + t.cc() + ", loss recovery " + t.lossRecovery() + ", PFC " + (t.pfc() ? "on" : "off");
            by.computeIfAbsent(d, k -> new ArrayList<>()).add(sc.scheme());
        }
        if (by.size() == 1) return by.keySet().iterator().next();
        List<String> parts = new ArrayList<>();
        by.forEach((d, s) -> parts.add(String.join(", ", s) + ": " + d));
        return String.join("; ", parts);
    }

    /**
     * Each run is independent (its own Simulation); results land in their slot whatever finishes
     * first, and each is written as it finishes. A failed run leaves its failure in its slot and the
     * others go on; after an Error (out of memory) no further run starts.
     */
    private static void runInParallel(List<Scenario> scenarios, RunResult[] results, Throwable[] failures,
            java.util.function.IntConsumer write, int jobs, ProgressBar.Mode mode) throws InterruptedException {
        ProgressBar pb = ProgressBar.forRuns("compare", mode);
        if (pb != null) pb.runsDone(0, scenarios.size()); // the starting count, as a sweep reports its resumed runs
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(jobs);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
            for (int i = 0; i < scenarios.size(); i++) {
                int k = i;
                futures.add(pool.submit(() -> {
                    if (stop.get()) {
                        failures[k] = new IllegalStateException("not run: an earlier run failed with an error");
                        return;
                    }
                    try {
                        results[k] = runner.apply(scenarios.get(k), Runner.Progress.NONE);
                        write.accept(k);
                    } catch (RuntimeException e) {
                        results[k] = null;
                        failures[k] = e;
                    } catch (Error e) {
                        results[k] = null;
                        failures[k] = e;
                        stop.set(true);
                    }
                    if (pb != null) pb.runsDone(done.incrementAndGet(), scenarios.size());
                }));
            }
            for (var f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause());   // the task catches everything
                }
            }
        } finally {
            pool.shutdownNow();
            if (pb != null) pb.clear();
        }
    }

    /**
     * One row per scheme: {@code seed} (the first seed) and every scalar summary.json field,
     * flattened with dots as in a sweep's results.csv, then {@code seeds}, the completion's sd
     * ({@code cct_sd_ns} or {@code completion_sd_ns}) and {@code within_noise_of_best}. With one
     * seed the fields are that run's, and the last two cells are empty; with several, each field
     * is combined over the seeds by {@link #combine}.
     */
    static void writeCsv(SeedComparison c, Path path) throws java.io.IOException {
        List<java.util.Map<String, String>> rows = new ArrayList<>();
        java.util.LinkedHashSet<String> columns = new java.util.LinkedHashSet<>();
        columns.add("scheme");
        columns.add("seed");
        for (SeedComparison.Row r : c.rows()) {
            List<java.util.Map<String, String>> perSeed = new ArrayList<>();
            for (RunResult run : r.runs()) {
                java.util.Map<String, String> row = new java.util.LinkedHashMap<>();
                row.put("seed", Long.toString(run.seed()));
                row.putAll(lbsim.experiment.Sweep.flatten(ScenarioLoader.yaml().readTree(ResultWriter.summaryJson(run))));
                columns.addAll(row.keySet());
                perSeed.add(row);
            }
            rows.add(combineRows(perSeed));
        }
        String sdColumn = c.sdColumn();
        for (String extra : List.of("seeds", sdColumn, "within_noise_of_best")) {
            if (columns.contains(extra)) throw new IllegalStateException("compare.csv: summary field " + extra + " collides with an added column");
        }
        columns.add("seeds");
        columns.add(sdColumn);
        columns.add("within_noise_of_best");
        for (int i = 0; i < rows.size(); i++) {
            SeedComparison.Row r = c.rows().get(i);
            rows.get(i).put("seeds", Integer.toString(r.runs().size()));
            rows.get(i).put(sdColumn, Double.isNaN(r.completionSdNs()) ? "" : number(r.completionSdNs()));
            rows.get(i).put("within_noise_of_best", r.verdict().csv());
        }
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(path)) {
            csv.writeRecord(columns);
            for (var row : rows) {
                List<String> cells = new ArrayList<>();
                for (String col : columns) cells.add(row.getOrDefault(col, ""));
                csv.writeRecord(cells);
            }
        }
    }

    /** The seeds' rows as one: the first seed in {@code seed}, each other field combined over the seeds ({@link #combine}). */
    private static java.util.Map<String, String> combineRows(List<java.util.Map<String, String>> perSeed) {
        if (perSeed.size() == 1) return perSeed.get(0);
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        for (var m : perSeed) keys.addAll(m.keySet());
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String k : keys) {
            List<String> values = new ArrayList<>();
            for (var m : perSeed) values.add(m.getOrDefault(k, ""));
            out.put(k, k.equals("seed") ? values.get(0) : combine(values));
        }
        return out;
    }

    /**
     * One compare.csv cell from the seeds' values of a field: the value when every seed has the
     * same; the mean when every seed has a number; empty when some seeds have a number and others
     * none (a missing value is never averaged as 0 or left out); {@code true} only when every seed
     * has {@code true}; else the distinct values joined by {@code " | "}.
     */
    static String combine(List<String> values) {
        List<String> present = values.stream().filter(v -> !v.isEmpty()).toList();
        boolean numeric = !present.isEmpty() && present.stream().allMatch(CompareCommand::isNumber);
        // a mean is a decimal even when the seeds agree: one number format per column (an integer column's means are not integers)
        if (numeric && present.size() == values.size() && values.size() > 1) return number(present.stream().mapToDouble(Double::parseDouble).sum() / present.size());
        if (values.stream().distinct().count() == 1) return values.get(0);
        if (present.size() < values.size()) return numeric ? "" : String.join(" | ", present.stream().distinct().toList());
        if (present.stream().allMatch(v -> v.equals("true") || v.equals("false"))) return Boolean.toString(!present.contains("false"));
        return String.join(" | ", present.stream().distinct().toList());
    }

    private static boolean isNumber(String v) {
        return v.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
    }

    /** A mean or sd for compare.csv: 9 significant digits, no trailing zeros but at least one decimal, no exponent. */
    static String number(double x) {
        String s = new java.math.BigDecimal(x).round(new java.math.MathContext(9)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }
}

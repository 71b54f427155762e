package lbsim.experiment;

import lbsim.BadInputException;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import lbsim.metrics.AtomicFiles;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a sweep in parallel, resumably: each finished run is written atomically to
 * {@code D/runs/<run key>/summary.json} and skipped on restart (an empty or unparsable one is run again); {@code D/results.csv} is
 * rebuilt from the finished runs in grid order x seed, whatever the completion order.
 * {@code D/sweep.json} lists every run of the whole sweep so shards can be merged.
 */
public final class Sweep {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    public static final String RESULTS = "results.csv";
    public static final String MANIFEST = "sweep.json";

    /** Progress: runs done (including those found finished) out of the runs this invocation owns. */
    public interface Listener {
        void runsDone(int done, int total);

        Listener NONE = (d, t) -> { };
    }

    /** A shard: the runs whose index mod count == index. */
    public record Shard(int index, int count) {
        public static final Shard ALL = new Shard(0, 1);

        public static Shard parse(String text) {
            String[] p = text.split("/");
            try {
                if (p.length == 2) {
                    int i = Integer.parseInt(p[0].trim()), n = Integer.parseInt(p[1].trim());
                    if (n >= 1 && i >= 0 && i < n) return new Shard(i, n);
                }
            } catch (NumberFormatException e) {
                // fall through
            }
            throw new BadInputException("--shard " + text + ": expected I/N with 0 <= I < N");
        }

        boolean owns(int runIndex) {
            return runIndex % count == index;
        }

        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    /** What an invocation did. */
    public record Outcome(int total, int ran, int skipped, Path results) {}

    private Sweep() {}

    /** Validates the grid, runs the shard's unfinished runs on {@code jobs} threads, writes results.csv. */
    public static Outcome run(SweepSpec spec, Path out, int jobs, Shard shard, Listener listener) {
        spec.validate();
        List<SweepSpec.Run> all = spec.runs();
        List<SweepSpec.Run> mine = new ArrayList<>();
        for (SweepSpec.Run r : all) if (shard.owns(r.index())) mine.add(r);
        checkSameSweep(out, all);
        try {
            Files.createDirectories(out.resolve("runs"));
            writeManifest(spec, all, out.resolve(MANIFEST));
        } catch (IOException e) {
            throw new BadInputException("--out " + out + ": cannot write (" + e.getMessage() + ")");
        }
        List<SweepSpec.Run> todo = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (SweepSpec.Run r : mine) {
            String why = unusable(summaryPath(out, r.key()));
            if (why == null) {
                // a finished run made with other settings (a default changed since) is not this sweep's result
                String other = staleness(summaryPath(out, r.key()), spec.scenario(r).resolvedSha256());
                if (other == null) continue;
                stale.add(out.resolve("runs").resolve(r.key()) + ": summary.json " + other);
                todo.add(r);
                continue;
            }
            // a summary.json that is empty or cut short (a crash, a full disk) is an unfinished run, not a finished one
            if (!why.equals(MISSING)) System.err.println("lbsim: sweep: " + out.resolve("runs").resolve(r.key()) + ": summary.json " + why + "; running it again");
            todo.add(r);
        }
        if (!stale.isEmpty()) {
            System.err.println("lbsim: sweep: " + stale.size() + " finished run" + (stale.size() == 1 ? " was" : "s were")
                    + " made with other settings than this sweep's and run again, e.g. " + stale.get(0));
        }
        int skipped = mine.size() - todo.size();
        AtomicInteger done = new AtomicInteger(skipped);
        listener.runsDone(skipped, mine.size());
        AtomicBoolean failed = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, Math.max(1, todo.size()))), r -> {
            Thread t = new Thread(r, "lbsim-sweep");
            t.setDaemon(true);
            return t;
        });
        List<Future<?>> futures = new ArrayList<>();
        for (SweepSpec.Run r : todo) {
            futures.add(pool.submit(() -> {
                if (failed.get()) return null;
                try {
                    Scenario sc = spec.scenario(r);
                    RunResult res = Runner.run(sc, Runner.Progress.NONE);
                    writeAtomically(out.resolve("runs").resolve(r.key()), res, sc);
                } catch (RuntimeException | Error e) {   // out of memory too: the other runs stop
                    failed.set(true);
                    throw e;
                }
                listener.runsDone(done.incrementAndGet(), mine.size());
                return null;
            }));
        }
        pool.shutdown();
        RuntimeException first = null;
        for (int i = 0; i < futures.size(); i++) {
            try {
                futures.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                pool.shutdownNow();
                throw new IllegalStateException("sweep interrupted", e);
            } catch (java.util.concurrent.ExecutionException e) {
                if (first == null) {
                    Throwable c = e.getCause();
                    SweepSpec.Run r = todo.get(i);
                    first = c instanceof BadInputException b
                            ? new BadInputException("run " + r.key() + ": " + b.getMessage(), b)
                            : new IllegalStateException("run " + r.key() + " failed: " + c, c);
                }
            }
        }
        if (first != null) throw first;
        Path results = out.resolve(RESULTS);
        writeResults(spec.columns(), mine, out, results, true);
        return new Outcome(mine.size(), todo.size(), skipped, results);
    }

    static Path summaryPath(Path out, String key) {
        return out.resolve("runs").resolve(key).resolve("summary.json");
    }

    static final String MISSING = "is missing";

    /**
     * Why a run's summary.json does not make it a finished run ({@link #MISSING}, empty, does not
     * parse, ...), or null when it is a whole summary.
     */
    static String unusable(Path summary) {
        if (!Files.exists(summary)) return MISSING;
        String text;
        try {
            text = Files.readString(summary);
        } catch (IOException e) {
            return "cannot be read (" + e.getMessage() + ")";
        }
        if (text.isBlank()) return "is empty";
        try {
            JsonNode n = JSON.readTree(text);
            if (n == null || !n.isObject() || n.isEmpty()) return "does not hold a summary (not a JSON object)";
        } catch (RuntimeException e) {
            return "does not parse (cut short?): " + firstLine(e.getMessage());
        }
        return null;
    }

    /**
     * Why a finished run's summary.json is not a result of the scenario whose resolved hash is
     * {@code sha256} (it records another hash, or none: an lbsim before 2026-11-27 made it), or null.
     */
    public static String staleness(Path summary, String sha256) {
        try {
            JsonNode h = JSON.readTree(Files.readString(summary)).path("scenario_sha256");
            if (h.isMissingNode() || h.isNull()) return "records no scenario hash (an older lbsim made it)";
            return h.asString().equals(sha256) ? null : "was made from another resolved scenario (a default or the grid point changed since)";
        } catch (IOException | RuntimeException e) {
            return "cannot be read (" + e.getMessage() + ")";
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /** summary.json, scenario.resolved.yaml and throughput.csv of a run, the summary moved into place last. */
    private static void writeAtomically(Path dir, RunResult r, Scenario sc) {
        try {
            ScenarioLoader.writeResolved(sc, dir);
            ResultWriter.writeThroughput(r.throughput(), dir.resolve("throughput.csv")); // TT over time (ParaLet Fig. 4)
            AtomicFiles.writeString(dir.resolve("summary.json"), ResultWriter.summaryJson(r) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A folder that already holds a sweep is resumed (or extended) only by a sweep that includes all
     * of its runs: another sweep or preset would leave its runs, plots and report beside the new
     * ones (the run keys hash the scenario, the grid point and the seed, so they name the sweep).
     */
    static void checkSameSweep(Path out, List<SweepSpec.Run> runs) {
        Path file = out.resolve(MANIFEST);
        if (!Files.exists(file)) return;
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (SweepSpec.Run r : runs) keys.add(r.key());
        List<String> foreign = new ArrayList<>();
        try {
            for (JsonNode r : JSON.readTree(Files.readString(file)).path("runs")) {
                String k = r.path("key").asString();
                if (!keys.contains(k)) foreign.add(k);
            }
        } catch (IOException | RuntimeException e) {
            throw new BadInputException("--out " + out + ": cannot read its " + MANIFEST + " (" + e.getMessage() + ")");
        }
        if (!foreign.isEmpty()) {
            throw new BadInputException("--out " + out + ": holds another sweep or preset (its " + MANIFEST + " lists " + foreign.size()
                    + " runs that are not in this one, e.g. " + foreign.get(0) + "); use another --out, or remove the folder to start over");
        }
    }

    private static void writeManifest(SweepSpec spec, List<SweepSpec.Run> runs, Path file) throws IOException {
        ObjectNode m = JSON.createObjectNode();
        ArrayNode cols = m.putArray("columns");
        for (String c : spec.columns()) cols.add(c);
        ArrayNode arr = m.putArray("runs");
        for (SweepSpec.Run r : runs) {
            ObjectNode o = arr.addObject();
            o.put("key", r.key());
            ArrayNode l = o.putArray("labels");
            for (String s : r.labels()) l.add(s);
            o.put("seed", r.seed());
        }
        String text = JSON.writeValueAsString(m) + "\n";
        if (Files.exists(file) && Files.readString(file).equals(text)) return;
        AtomicFiles.writeString(file, text);
    }

    /** The flattened scalar fields of a summary, wall-clock fields left out (they differ between identical runs). */
    public static Map<String, String> flatten(JsonNode summary) {
        Map<String, String> out = new LinkedHashMap<>();
        flatten("", summary, out);
        return out;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String k = prefix + e.getKey();
            JsonNode v = e.getValue();
            if (k.equals("seed") || k.contains("wall") || k.contains("per_sec")) continue;
            if (v.isObject()) {
                flatten(k + ".", v, out);
            } else if (v.isNull()) {
                out.put(k, "");
            } else if (v.isFloatingPointNumber()) {
                out.put(k, decimal(v.doubleValue()));
            } else if (v.isValueNode()) {
                out.put(k, v.asString());
            } else if (v.isArray()) {
                flattenList(k, v, out);
            }
        }
    }

    /**
     * A summary's floating-point value as results.csv writes it: plain digits with a decimal point,
     * never an exponent (JSON writes 1.0E7), so a column reads as one type in every row.
     */
    static String decimal(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        String s = java.math.BigDecimal.valueOf(x).toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    /** Lists of objects longer than this stay out of results.csv (e.g. a training iteration's collectives). */
    static final int MAX_LISTED = 16;

    /**
     * A short list of objects ({@code link_classes}, {@code flows.slowdown_bins}, one job's
     * {@code collectives}) is flattened element by element, each named by its first field's value:
     * {@code link_classes.leaf->spine 1G.mean_utilisation}, {@code flows.slowdown_bins.10000.p99}.
     * Lists of plain values (warnings) and longer lists are left out.
     */
    private static void flattenList(String k, JsonNode list, Map<String, String> out) {
        if (list.isEmpty() || list.size() > MAX_LISTED) return;
        for (JsonNode e : list) if (!e.isObject() || e.isEmpty() || !e.properties().iterator().next().getValue().isValueNode()) return;
        for (JsonNode e : list) {
            ObjectNode rest = ((ObjectNode) e).deepCopy();
            String name = rest.properties().iterator().next().getKey();
            String label = rest.remove(name).asString();
            flatten(k + "." + label + ".", rest, out);
        }
    }

    public static JsonNode readSummary(Path file) {
        try {
            return JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One row per finished run of {@code runs}, in their order; with requireAll, a missing run is an error. */
    static void writeResults(List<String> gridColumns, List<SweepSpec.Run> runs, Path runsRoot, Path file, boolean requireAll) {
        List<Map<String, String>> rows = new ArrayList<>();
        List<SweepSpec.Run> present = new ArrayList<>();
        Set<String> fields = new LinkedHashSet<>();
        List<String> missing = new ArrayList<>();
        for (SweepSpec.Run r : runs) {
            Path s = summaryPath(runsRoot, r.key());
            String why = unusable(s);
            if (MISSING.equals(why)) {
                missing.add(r.key());
                continue;
            }
            if (why != null) throw new BadInputException(s + ": " + why + "; run the sweep again to rerun it");
            Map<String, String> f = flatten(readSummary(s));
            fields.addAll(f.keySet());
            rows.add(f);
            present.add(r);
        }
        if (requireAll && !missing.isEmpty()) {
            throw new IllegalStateException(missing.size() + " runs have no summary.json, e.g. " + missing.get(0));
        }
        try {
            AtomicFiles.write(file, w -> writeRows(w, gridColumns, present, rows, fields));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeRows(java.io.Writer w, List<String> gridColumns, List<SweepSpec.Run> present, List<Map<String, String>> rows,
            Set<String> fields) throws IOException {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(w)) {
            List<String> header = new ArrayList<>(gridColumns);
            header.add("seed");
            header.addAll(fields);
            csv.writeRecord(header);
            boolean[] decimalColumn = decimalGridColumns(gridColumns.size(), present);
            for (int i = 0; i < present.size(); i++) {
                List<String> row = new ArrayList<>(present.get(i).labels());
                for (int c = 0; c < row.size(); c++) if (decimalColumn[c] && !row.get(c).contains(".")) row.set(c, row.get(c) + ".0");
                row.add(Long.toString(present.get(i).seed()));
                for (String f : fields) row.add(rows.get(i).getOrDefault(f, ""));
                csv.writeRecord(row);
            }
        }
    }

    /**
     * Grid columns whose values are all numbers and not all whole (a grid of 0.001 and 5): their
     * whole values are written with a decimal point (5.0), so the column reads as one type.
     */
    private static boolean[] decimalGridColumns(int columns, List<SweepSpec.Run> runs) {
        boolean[] out = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            boolean numbers = !runs.isEmpty(), fraction = false;
            for (SweepSpec.Run r : runs) {
                String v = r.labels().get(c);
                numbers &= v.matches("-?\\d+(\\.\\d+)?");
                fraction |= v.contains(".");
            }
            out[c] = numbers && fraction;
        }
        return out;
    }

    /**
     * Joins shard folders: every input must hold the same sweep (same sweep.json); the
     * finished runs are copied into {@code out/runs} and results.csv is written over the
     * whole sweep in its order. A run missing from every input is an error naming it.
     */
    public static Path merge(List<Path> inputs, Path out) {
        if (inputs.isEmpty()) throw new BadInputException("merge: no input folders");
        String manifest = null;
        for (Path in : inputs) {
            Path m = in.resolve(MANIFEST);
            if (!Files.exists(m)) throw new BadInputException(in + ": not a sweep output folder (no " + MANIFEST + ")");
            String text;
            try {
                text = Files.readString(m);
            } catch (IOException e) {
                throw new BadInputException(m + ": cannot read (" + e.getMessage() + ")");
            }
            if (manifest == null) {
                manifest = text;
            } else if (!manifest.equals(text)) {
                throw new BadInputException(in + ": " + MANIFEST + " differs from " + inputs.get(0) + "'s: not shards of the same sweep");
            }
        }
        JsonNode m;
        try {
            m = JSON.readTree(manifest);
            if (m == null || !m.path("columns").isArray() || !m.path("runs").isArray()) throw new IllegalArgumentException("no columns or runs");
        } catch (RuntimeException e) {
            throw new BadInputException(inputs.get(0).resolve(MANIFEST) + ": cannot use (" + firstLine(e.getMessage()) + ")");
        }
        List<String> cols = new ArrayList<>();
        for (JsonNode c : m.get("columns")) cols.add(c.asString());
        List<SweepSpec.Run> runs = new ArrayList<>();
        for (JsonNode r : m.get("runs")) {
            List<String> labels = new ArrayList<>();
            for (JsonNode l : r.get("labels")) labels.add(l.asString());
            runs.add(new SweepSpec.Run(runs.size(), r.get("key").asString(), labels, List.of(), r.get("seed").asLong()));
        }
        // as sweep: a folder holding another sweep's runs is not replaced by this one's
        checkSameSweep(out, runs);
        try {
            Files.createDirectories(out.resolve("runs"));
            List<String> missing = new ArrayList<>();
            for (SweepSpec.Run r : runs) {
                Path target = out.resolve("runs").resolve(r.key());
                if (unusable(target.resolve("summary.json")) == null) continue;
                Path src = null;
                String bad = null;
                for (Path in : inputs) {
                    Path d = in.resolve("runs").resolve(r.key());
                    String why = unusable(d.resolve("summary.json"));
                    if (why == null) {
                        src = d;
                        break;
                    }
                    if (bad == null && !why.equals(MISSING)) bad = d.resolve("summary.json") + ": " + why;
                }
                if (src == null && bad != null) {
                    throw new BadInputException("merge: cannot use " + bad + "; run that shard's sweep again (it reruns the run), then merge");
                }
                if (src == null) {
                    missing.add(r.key());
                    continue;
                }
                Files.createDirectories(target);
                try (var files = Files.list(src)) {
                    for (Path f : files.filter(p -> !p.getFileName().toString().endsWith(".tmp")).toList()) {
                        if (!f.getFileName().toString().equals("summary.json")) {
                            Files.copy(f, target.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
                AtomicFiles.copy(src.resolve("summary.json"), target.resolve("summary.json"));
            }
            if (!missing.isEmpty()) {
                throw new BadInputException("merge: " + missing.size() + " of " + runs.size()
                        + " runs are in none of the inputs (a shard missing or unfinished?), e.g. " + missing.get(0));
            }
            AtomicFiles.writeString(out.resolve(MANIFEST), manifest);
        } catch (IOException e) {
            throw new BadInputException("merge --out " + out + ": cannot write (" + e.getMessage() + ")");
        }
        Path results = out.resolve(RESULTS);
        writeResults(cols, runs, out, results, true);
        return results;
    }
}

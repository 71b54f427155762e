package lbsim.experiment.reproduce;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lbsim.BadInputException;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepSpec;

/**
 * Runs a preset through the sweep machinery, then compares its cells with the paper:
 * {@code comparison.csv} (cell, ours mean and SD over seeds, paper, difference) and
 * {@code report.html}.
 */
public final class Reproduce {
    private Reproduce() {}

    /**
     * One compared cell; ours is NaN when the scale does not run the cell's grid points.
     * {@code baselineUsed} names the chosen baseline when the cell has several candidates.
     */
    public record Row(Cell cell, double mean, double sd, int n, double paper, String baselineUsed, String metric) {
        public Row(Cell cell, double mean, double sd, int n, double paper) {
            this(cell, mean, sd, n, paper, null, cell.metricOr("normalised"));
        }

        /** The verdict by the one rule of {@link Verdict}. */
        public Verdict verdict() {
            return Verdict.of(cell.kind(), Verdict.reference(cell.kind(), metric), mean, sd, n, paper, cell.bound());
        }

        /** Why ours differs ("model", "scale", "unstated-setting", "paper" or "unexplained"); empty when it reproduces or did not run. */
        public String causeKind() {
            Verdict v = verdict();
            if (v == Verdict.REPRODUCES || v == Verdict.NOT_RUN) return "";
            return cell.cause() == null ? "unexplained" : cell.cause().kind().label();
        }

        /** The analysis behind {@link #causeKind()}; empty when there is none. */
        public String causeDetail() {
            return causeKind().isEmpty() || cell.cause() == null ? "" : cell.cause().detail();
        }

        public boolean ran() {
            return n > 0;
        }

        public double difference() {
            return mean - paper;
        }

        /** The cell's note, plus which baseline was the strongest when there were several. */
        public String note() {
            if (baselineUsed == null) return cell.note();
            return cell.note() + (cell.isUpTo() ? " [largest at " : " [strongest baseline: ") + baselineUsed + "]";
        }
    }

    public record Outcome(Sweep.Outcome sweep, List<Row> rows, Path dir) {}

    /** One cell at one value of an unstated setting. */
    public record SensitivityRow(String key, String value, Row row) {}

    public static final String SENSITIVITY_CSV = "sensitivity.csv";

    /**
     * Runs the preset once per value of each of its {@link Sensitivities} into {@code out/sensitivity/<key>=<value>/}
     * (each a resumable reproduction with that {@code --set}), writes {@code out/sensitivity.csv} and returns its rows.
     */
    public static List<SensitivityRow> runSensitivity(Preset p, String scale, Path out, int jobs, List<String> overrides,
                                                      Sweep.Listener listener) {
        return runSensitivity(p, Sensitivities.of(p.id()), scale, out, jobs, overrides, listener);
    }

    /** As above over the given settings. */
    static List<SensitivityRow> runSensitivity(Preset p, List<Sensitivity> settings, String scale, Path out, int jobs,
                                               List<String> overrides, Sweep.Listener listener) {
        List<SensitivityRow> rows = new ArrayList<>();
        for (Sensitivity s : settings) {
            for (String v : s.values()) {
                Sensitivity.Applied a = s.apply(p, v, overrides);
                Path dir = out.resolve("sensitivity").resolve(Sensitivity.folder(s.name(), v));
                if (s.onlyAt() != null) reuseUnchangedRuns(spec(p, scale, overrides), spec(a.preset(), scale, a.overrides()), out, dir);
                Outcome o = run(a.preset(), scale, dir, jobs, a.overrides(), listener);
                for (Row r : o.rows()) rows.add(new SensitivityRow(s.name(), v, r));
            }
        }
        try {
            writeSensitivityCsv(rows, out.resolve(SENSITIVITY_CSV));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /**
     * A setting of one grid value leaves the other grid points' runs as they were (same scenario, same run key): their
     * finished runs in {@code mainOut} are copied into {@code dir} instead of being run again.
     */
    static void reuseUnchangedRuns(SweepSpec main, SweepSpec changed, Path mainOut, Path dir) {
        java.util.Set<String> mainKeys = new java.util.HashSet<>();
        for (SweepSpec.Run r : main.runs()) mainKeys.add(r.key());
        try {
            for (SweepSpec.Run r : changed.runs()) {
                Path from = mainOut.resolve("runs").resolve(r.key());
                Path to = dir.resolve("runs").resolve(r.key());
                if (!mainKeys.contains(r.key()) || !Files.exists(from.resolve("summary.json")) || Files.exists(to)) continue;
                try (var files = Files.walk(from)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        Path t = to.resolve(from.relativize(f).toString());
                        if (Files.isDirectory(f)) Files.createDirectories(t);
                        else Files.copy(f, t);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The cells of the reproduction in {@code out} as comparison.csv reports them: {@link #compare}, with the cause
     * of a differing cell that has no analysed one taken from its sensitivity runs when any value reproduces it.
     */
    public static List<Row> comparison(Preset p, String scale, Path out, List<String> overrides) {
        return withSensitivityCauses(compare(p, spec(p, scale, overrides), out), storedSensitivity(p, scale, out, overrides));
    }

    /** Rewrites comparison.csv and report.html with the sensitivity runs now in {@code out} (after {@link #runSensitivity}). */
    public static List<Row> refresh(Preset p, String scale, Path out, List<String> overrides) {
        SweepSpec spec = spec(p, scale, overrides);
        List<SensitivityRow> sens = storedSensitivity(p, scale, out, overrides);
        List<Row> rows = withSensitivityCauses(compare(p, spec, out), sens);
        try {
            writeCsv(rows, out.resolve("comparison.csv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ReproduceReport.write(p, scale, spec, rows, sens, out);
        return rows;
    }

    /**
     * A cell that does not reproduce with the preset's defaults, has no analysed cause, and reproduces at some value
     * of an unstated setting gets the cause "unstated-setting", naming the values at which it reproduces.
     */
    static List<Row> withSensitivityCauses(List<Row> rows, List<SensitivityRow> sens) {
        if (sens.isEmpty()) return rows;
        List<Row> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            Verdict v = r.verdict();
            if (r.cell().cause() != null || v == Verdict.REPRODUCES || v == Verdict.NOT_RUN) {
                out.add(r);
                continue;
            }
            List<String> at = new ArrayList<>();
            for (SensitivityRow s : sens) {
                if (s.row().cell().name().equals(r.cell().name()) && s.row().verdict() == Verdict.REPRODUCES) at.add(s.key() + "=" + s.value());
            }
            out.add(at.isEmpty() ? r : new Row(r.cell().because(Cell.Cause.Kind.UNSTATED_SETTING, "reproduces with " + String.join(
                    " or ", at) + " (sensitivity run)"), r.mean(), r.sd(), r.n(), r.paper(), r.baselineUsed(), r.metric()));
        }
        return out;
    }

    /** The rows of every sensitivity run already in {@code out} (none: empty), without running anything. */
    public static List<SensitivityRow> storedSensitivity(Preset p, String scale, Path out, List<String> overrides) {
        List<SensitivityRow> rows = new ArrayList<>();
        for (Sensitivity s : Sensitivities.of(p.id())) {
            for (String v : s.values()) {
                Path dir = out.resolve("sensitivity").resolve(Sensitivity.folder(s.name(), v));
                if (!Files.isDirectory(dir)) continue;
                Sensitivity.Applied a = s.apply(p, v, overrides);
                for (Row r : compare(a.preset(), spec(a.preset(), scale, a.overrides()), dir)) rows.add(new SensitivityRow(s.name(), v, r));
            }
        }
        return rows;
    }

    static void writeSensitivityCsv(List<SensitivityRow> rows, Path file) throws IOException {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(file)) {
            csv.writeRecord("setting", "value", "cell", "ours_mean", "ours_sd", "seeds", "paper", "verdict");
            for (SensitivityRow s : rows) {
                Row r = s.row();
                csv.writeRecord(s.key(), s.value(), r.cell().name(), fmt(r.mean()), fmt(r.sd()), Integer.toString(r.n()), fmt(r.paper()),
                        r.verdict().label());
            }
        }
    }

    public static SweepSpec spec(Preset p, String scale, List<String> overrides) {
        String text = p.scales().get(scale);
        if (text == null) throw new BadInputException("--scale " + scale + ": not a scale of " + p.id() + "; allowed values: "
                + String.join(", ", Preset.SCALES));
        return SweepSpec.parse("(preset " + p.id() + " --scale " + scale + ")", text, null, overrides);
    }

    public static Outcome run(Preset p, String scale, Path out, int jobs, List<String> overrides, Sweep.Listener listener) {
        SweepSpec spec = spec(p, scale, overrides);
        Provenance before = Provenance.read(out);
        Sweep.Outcome o = Sweep.run(spec, out, jobs, Sweep.Shard.ALL, listener);
        List<Row> rows = refresh(p, scale, out, overrides);
        try {
            List<tools.jackson.databind.JsonNode> summaries = new ArrayList<>();
            for (SweepSpec.Run r : spec.runs()) {
                Path s = out.resolve("runs").resolve(r.key()).resolve("summary.json");
                if (Files.exists(s)) summaries.add(Sweep.readSummary(s));
            }
            // a comparison re-made from stored runs keeps naming the build that made the runs
            boolean same = o.ran() == 0 && before != null && before.preset().equals(p.id()) && before.scale().equals(scale);
            new Provenance(p.id(), scale, Provenance.fingerprint(p, scale, overrides), same ? before.version() : lbsim.Build.version(),
                    same ? before.commit() : lbsim.Build.commit(), summaries.size(), Provenance.runSeconds(summaries)).write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Outcome(o, rows, out);
    }

    /**
     * Per cell, its metric (or the paired improvement / ratio against its baseline) over the
     * seeds of the selected grid point, or of each averaged point that ran ({@link Cell#averagedOver});
     * with several candidate baselines, the smallest mean, or the mean over all of them
     * ({@link Cell#againstTheMeanOfItsBaselines}).
     */
    public static List<Row> compare(Preset p, SweepSpec spec, Path out) {
        List<String> cols = spec.columns();
        Map<String, Map<Long, Map<String, String>>> byPoint = new HashMap<>();
        for (SweepSpec.Run r : spec.runs()) {
            Path s = out.resolve("runs").resolve(r.key()).resolve("summary.json");
            if (!Files.exists(s)) continue;
            byPoint.computeIfAbsent(String.join("\u0000", r.labels()), k -> new HashMap<>())
                    .put(r.seed(), Sweep.flatten(Sweep.readSummary(s)));
        }
        List<Row> rows = new ArrayList<>();
        for (Cell c : p.cells()) {
            String metric = c.metric() != null ? c.metric() : p.metric();
            List<Map<String, String>> candidates = c.hasBaseline() ? c.baselines() : java.util.Collections.singletonList(null);
            Row best = null;
            if (c.meanOfBaselines()) {
                List<Double> xs = new ArrayList<>();
                for (Map<String, String> b : candidates) xs.addAll(values(c, b, byPoint, cols, spec, metric));
                best = stats(c, xs, null, metric);
            } else {
                for (Map<String, String> b : candidates) {
                    String against = candidates.size() > 1 ? describe(b, c.select()) : null;
                    Row row = c.isUpTo() ? upTo(c, b, against, byPoint, cols, spec)
                            : stats(c, values(c, b, byPoint, cols, spec, metric), against, metric);
                    if (best == null || (row.ran() && (!best.ran() || row.mean() < best.mean()))) best = row;
                }
            }
            if (!best.ran()) best = new Row(c, Double.NaN, Double.NaN, 0, c.paper(), null, metric);
            rows.add(best);
        }
        return rows;
    }

    /** The cell's per-seed values against baseline {@code b} (null: none), at its point or at each averaged point that ran. */
    private static List<Double> values(Cell c, Map<String, String> b, Map<String, Map<Long, Map<String, String>>> byPoint,
                                       List<String> cols, SweepSpec spec, String metric) {
        List<Double> xs = new ArrayList<>();
        List<Map<String, String>> points = c.points(c.select());
        List<Map<String, String>> basePoints = b == null ? null : c.points(b);
        for (int i = 0; i < points.size(); i++) {
            xs.addAll(pointValues(c, points.get(i), b == null ? null : basePoints.get(i), byPoint, cols, spec, metric));
        }
        return xs;
    }

    /** The cell's per-seed values at one point against one baseline point (null: none); empty when either did not run. */
    private static List<Double> pointValues(Cell c, Map<String, String> point, Map<String, String> basePoint,
                                            Map<String, Map<Long, Map<String, String>>> byPoint, List<String> cols, SweepSpec spec,
                                            String metric) {
        List<Double> xs = new ArrayList<>();
        Map<Long, Map<String, String>> sel = byPoint.get(pointKey(cols, point));
        Map<Long, Map<String, String>> base = basePoint == null ? null : byPoint.get(pointKey(cols, basePoint));
        if (sel == null || (basePoint != null && base == null)) return xs;
        for (long seed : spec.seeds()) {
            Double a = value(sel.get(seed), metric);
            if (a == null) continue;
            if (basePoint == null) {
                xs.add(a);
                continue;
            }
            Double y = value(base.get(seed), metric);
            if (y != null) xs.add(c.combine(a, y));
        }
        return xs;
    }

    /**
     * An "up to" cell ({@link Cell#upTo}) against baseline {@code b}: the point and field whose mean over seeds is the
     * largest, with that point's SD and seeds; the row names where it is (and the baseline, {@code against}, if chosen).
     */
    private static Row upTo(Cell c, Map<String, String> b, String against, Map<String, Map<Long, Map<String, String>>> byPoint,
                            List<String> cols, SweepSpec spec) {
        List<Map<String, String>> points = c.points(c.select());
        List<Map<String, String>> basePoints = b == null ? null : c.points(b);
        Row best = null;
        for (int i = 0; i < points.size(); i++) {
            for (String field : c.upTo()) {
                List<Double> xs = pointValues(c, points.get(i), b == null ? null : basePoints.get(i), byPoint, cols, spec, field);
                if (xs.stream().anyMatch(x -> Double.isNaN(x))) continue; // a point whose field is empty (e.g. a bin without flows)
                String at = (c.overColumn() == null ? "" : c.overColumn() + "=" + points.get(i).get(c.overColumn()) + ", ") + field
                        + (against == null ? "" : "; strongest baseline: " + against);
                Row row = stats(c, xs, at, field);
                if (row.ran() && (best == null || row.mean() > best.mean())) best = row;
            }
        }
        return best != null ? best : stats(c, List.of(), null, c.upTo().get(0));
    }

    private static Double value(Map<String, String> flat, String metric) {
        if (flat == null) return null;
        String v = flat.get(metric);
        return v == null || v.isEmpty() ? Double.NaN : Double.parseDouble(v);
    }

    private static Row stats(Cell c, List<Double> xs, String baselineUsed, String metric) {
        double mean = Double.NaN, sd = Double.NaN;
        if (!xs.isEmpty()) {
            mean = 0;
            for (double x : xs) mean += x;
            mean /= xs.size();
            double ss = 0;
            for (double x : xs) ss += (x - mean) * (x - mean);
            sd = xs.size() > 1 ? Math.sqrt(ss / (xs.size() - 1)) : 0;
        }
        return new Row(c, mean, sd, xs.size(), c.paper(), baselineUsed, metric);
    }

    /** The baseline's labels that differ from the selection's, e.g. "load_balancer=letflow-50". */
    private static String describe(Map<String, String> baseline, Map<String, String> select) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(baseline).entrySet()) {
            if (!e.getValue().equals(select.get(e.getKey()))) parts.add(e.getKey() + "=" + e.getValue());
        }
        return String.join(", ", parts);
    }

    private static String pointKey(List<String> cols, Map<String, String> select) {
        List<String> labels = new ArrayList<>();
        for (String c : cols) {
            String l = select.get(c);
            if (l == null) return "\u0001missing " + c;
            labels.add(l);
        }
        return String.join("\u0000", labels);
    }

    /**
     * The paper's number as reports print it, "claim" for one it states without a number ({@link Cell#qualitative}),
     * "&gt;= x" for a lower bound ({@link Cell#asLowerBound}) and "&lt;= x" for an upper bound ({@link Cell#asUpperBound}).
     */
    public static String paperText(Row r) {
        if (r.cell().isQualitative()) return "claim";
        return (r.cell().atLeast() ? ">= " : r.cell().atMost() ? "<= " : "") + String.format(Locale.ROOT, "%.3f", r.paper());
    }

    static String fmt(double x) {
        return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%.4f", x);
    }

    static void writeCsv(List<Row> rows, Path file) throws IOException {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(file)) {
            csv.writeRecord("cell", "ours_mean", "ours_sd", "seeds", "paper", "difference", "verdict", "cause", "cause_detail", "note");
            for (Row r : rows) {
                csv.writeRecord(r.cell().name(), fmt(r.mean()), fmt(r.sd()), Integer.toString(r.n()), fmt(r.paper()),
                        r.ran() ? fmt(r.difference()) : "", r.verdict().label(), r.causeKind(), r.causeDetail(),
                        r.ran() ? r.note() : "not run at this scale; " + r.cell().note());
            }
        }
    }
}

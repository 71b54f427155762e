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
import lbsim.experiment.BadInputException;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepSpec;

/**
 * Runs a preset through the sweep machinery, then compares its cells with the paper:
 * {@code comparison.csv} (cell, ours mean and SD over seeds, paper, difference) and
 * {@code report.html}.
 */
public final class Reproduce {
    private Reproduce() {}

    /** One compared cell; ours is NaN when the scale does not run the cell's grid points. */
    public record Row(Cell cell, double mean, double sd, int n, double paper) {
        public boolean ran() {
            return n > 0;
        }

        public double difference() {
            return mean - paper;
        }
    }

    public record Outcome(Sweep.Outcome sweep, List<Row> rows, Path dir) {}

    public static SweepSpec spec(Preset p, String scale, List<String> overrides) {
        String text = p.scales().get(scale);
        if (text == null) throw new BadInputException("--scale " + scale + ": not a scale of " + p.id() + "; allowed values: "
                + String.join(", ", Preset.SCALES));
        return SweepSpec.parse("(preset " + p.id() + " --scale " + scale + ")", text, null, overrides);
    }

    public static Outcome run(Preset p, String scale, Path out, int jobs, List<String> overrides, Sweep.Listener listener) {
        SweepSpec spec = spec(p, scale, overrides);
        Sweep.Outcome o = Sweep.run(spec, out, jobs, Sweep.Shard.ALL, listener);
        List<Row> rows = compare(p, spec, out);
        try {
            writeCsv(rows, out.resolve("comparison.csv"));
            Files.writeString(out.resolve("report.html"), ReproduceReport.html(p, scale, spec, rows, List.of()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Outcome(o, rows, out);
    }

    /** Per cell, the metric (or the paired improvement) over the seeds of the selected grid point. */
    public static List<Row> compare(Preset p, SweepSpec spec, Path out) {
        List<String> cols = spec.columns();
        // metric -> grid point -> seed -> value (cells may compare another field than the preset's)
        Map<String, Map<String, Map<Long, Double>>> byMetric = new HashMap<>();
        byMetric.put(p.metric(), new HashMap<>());
        for (Cell c : p.cells()) byMetric.putIfAbsent(c.metricOr(p.metric()), new HashMap<>());
        for (SweepSpec.Run r : spec.runs()) {
            Path s = out.resolve("runs").resolve(r.key()).resolve("summary.json");
            if (!Files.exists(s)) continue;
            Map<String, String> flat = Sweep.flatten(Sweep.readSummary(s));
            for (var m : byMetric.entrySet()) {
                String v = flat.get(m.getKey());
                double x = v == null || v.isEmpty() ? Double.NaN : Double.parseDouble(v);
                m.getValue().computeIfAbsent(String.join("\u0000", r.labels()), k -> new HashMap<>()).put(r.seed(), x);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Cell c : p.cells()) {
            Map<String, Map<Long, Double>> byPoint = byMetric.get(c.metricOr(p.metric()));
            Map<Long, Double> sel = byPoint.get(pointKey(cols, c.select()));
            Map<Long, Double> base = c.isImprovement() ? byPoint.get(pointKey(cols, c.baseline())) : null;
            List<Double> xs = new ArrayList<>();
            if (sel != null && (!c.isImprovement() || base != null)) {
                for (long seed : spec.seeds()) {
                    Double a = sel.get(seed);
                    if (a == null) continue;
                    if (c.isImprovement()) {
                        Double b = base.get(seed);
                        if (b == null) continue;
                        xs.add(100.0 * (b - a) / b);
                    } else {
                        xs.add(a);
                    }
                }
            }
            double mean = Double.NaN, sd = Double.NaN;
            if (!xs.isEmpty()) {
                mean = 0;
                for (double x : xs) mean += x;
                mean /= xs.size();
                double ss = 0;
                for (double x : xs) ss += (x - mean) * (x - mean);
                sd = xs.size() > 1 ? Math.sqrt(ss / (xs.size() - 1)) : 0;
            }
            rows.add(new Row(c, mean, sd, xs.size(), c.paper()));
        }
        return rows;
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

    static String fmt(double x) {
        return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%.4f", x);
    }

    static void writeCsv(List<Row> rows, Path file) throws IOException {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(file)) {
            csv.writeRecord("cell", "ours_mean", "ours_sd", "seeds", "paper", "difference", "note");
            for (Row r : rows) {
                csv.writeRecord(r.cell().name(), fmt(r.mean()), fmt(r.sd()), Integer.toString(r.n()), fmt(r.paper()),
                        r.ran() ? fmt(r.difference()) : "", r.ran() ? r.cell().note() : "not run at this scale; " + r.cell().note());
            }
        }
    }
}

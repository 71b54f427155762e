package lbsim.experiment.reproduce;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lbsim.BadInputException;

/**
 * Verdict counts of a reproduction, and the table across every preset's stored results
 * ({@code lbsim reproduce --summary}, {@code docs/results/README.md}).
 */
public final class Verdicts {
    private Verdicts() {}

    /** The rule, once, as reports print it (the full statement is {@link Verdict}'s and docs/experiments.md's). */
    public static final String RULE = "Verdict rule: 'reproduces' = within 20 % of the paper's effect (at least 3 percentage "
            + "points, 0.05 of a ratio, 0.03 of a value against its reference; 15 % of a value without one), widened by two "
            + "standard errors over seeds; 'direction' = beyond that but a real effect the paper's way (a plain value: within "
            + "a factor of 2); 'contradicts' = no effect beyond the noise, the opposite one, or a difference where the paper "
            + "reports none; 'not-run' = not run at this scale. A claim stated without a number reproduces when the effect "
            + "goes its way beyond floor and noise. A differing cell names its cause (model, scale, "
            + "unstated-setting, paper) or says 'unexplained'.";

    public record Counts(int reproduces, int direction, int contradicts, int notRun) {
        public int total() {
            return reproduces + direction + contradicts + notRun;
        }

        Counts plus(Counts o) {
            return new Counts(reproduces + o.reproduces, direction + o.direction, contradicts + o.contradicts, notRun + o.notRun);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d cells: %d reproduce, %d in the paper's direction, %d contradict, %d not run",
                    total(), reproduces, direction, contradicts, notRun);
        }
    }

    static Counts count(List<Verdict> vs) {
        int[] n = new int[Verdict.values().length];
        for (Verdict v : vs) n[v.ordinal()]++;
        return new Counts(n[0], n[1], n[2], n[3]);
    }

    public static String counts(List<Reproduce.Row> rows) {
        return count(rows.stream().map(Reproduce.Row::verdict).toList()).toString();
    }

    /** The verdict counts of a stored comparison.csv (its {@code verdict} column). */
    public static Counts read(Path comparisonCsv) {
        List<Verdict> vs = new ArrayList<>();
        try (CsvReader<NamedCsvRecord> csv = CsvReader.builder().ofNamedCsvRecord(comparisonCsv)) {
            for (NamedCsvRecord r : csv) {
                String v = r.findField("verdict").orElseThrow(() -> new BadInputException(comparisonCsv + ": no 'verdict' column; "
                        + "re-run the preset to rewrite it"));
                vs.add(Verdict.valueOf(v.toUpperCase(Locale.ROOT).replace('-', '_')));
            }
        } catch (IOException e) {
            throw new BadInputException(comparisonCsv + ": cannot read (" + e.getMessage() + ")");
        }
        return count(vs);
    }

    /** One preset's stored results: its provenance (null: none stored) and verdict counts. */
    public record Stored(Preset preset, Provenance provenance, Counts counts) {
        public boolean present() {
            return provenance != null;
        }

        /** Whether the stored results were made by the preset as it is now. */
        public boolean current() {
            return present() && provenance.fingerprint().equals(Provenance.fingerprint(preset, provenance.scale()));
        }
    }

    /** Every preset's stored results under {@code root} ({@code root/<id>/}). */
    public static List<Stored> stored(Path root) {
        List<Stored> out = new ArrayList<>();
        for (Preset p : Presets.all()) {
            Path dir = root.resolve(p.id());
            Provenance pv = Provenance.read(dir);
            Path csv = dir.resolve("comparison.csv");
            out.add(new Stored(p, pv, pv != null && Files.exists(csv) ? read(csv) : null));
        }
        return out;
    }

    /** The Markdown table across all presets: scale run, run time, verdict counts, and whether it is current. */
    public static String summaryMarkdown(Path root) {
        StringBuilder sb = new StringBuilder();
        sb.append("| preset | figure | scale run | runs | run time | cells | reproduces | direction | contradicts | not run | commit |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        Counts total = new Counts(0, 0, 0, 0);
        for (Stored s : stored(root)) {
            Preset p = s.preset();
            if (!s.present() || s.counts() == null) {
                sb.append("| `").append(p.id()).append("` | ").append(p.figure()).append(" | none stored | | | | | | | | |\n");
                continue;
            }
            Provenance pv = s.provenance();
            Counts c = s.counts();
            total = total.plus(c);
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %s%s | %d | %s | %d | %d | %d | %d | %d | %s |%n", p.id(), p.figure(),
                    pv.scale(), s.current() ? "" : " (stale: the preset changed since)", pv.runs(), duration(pv.runSeconds()),
                    c.total(), c.reproduces(), c.direction(), c.contradicts(), c.notRun(), pv.commit()));
        }
        sb.append(String.format(Locale.ROOT, "| all | | | | | %d | %d | %d | %d | %d | |%n", total.total(), total.reproduces(),
                total.direction(), total.contradicts(), total.notRun()));
        for (Stored s : stored(root)) {
            if (!s.present() || s.counts() == null) continue;
            sb.append("\n### `").append(s.preset().id()).append("`: ").append(s.preset().paper()).append(", ")
                    .append(s.preset().figure()).append("\n\n");
            sb.append(s.provenance().scale()).append(" scale, ").append(s.provenance().runs()).append(" runs, commit ")
                    .append(s.provenance().commit()).append("; metric: ").append(s.preset().metricLabel()).append(" (`")
                    .append(s.preset().metric()).append("`).\n\n");
            sb.append(cellTable(root.resolve(s.preset().id()).resolve("comparison.csv")));
        }
        return sb.toString();
    }

    /** One row of a stored comparison.csv as the summaries print it. */
    record StoredCell(String cell, String ours, String paper, String verdict, String cause) {}

    /** The rows of a stored comparison.csv: ours as "mean ± sd (n seeds)" or "not run", the paper's number or "claim". */
    static List<StoredCell> storedCells(Path comparisonCsv) {
        List<StoredCell> out = new ArrayList<>();
        try (CsvReader<NamedCsvRecord> csv = CsvReader.builder().ofNamedCsvRecord(comparisonCsv)) {
            for (NamedCsvRecord r : csv) {
                String mean = r.getField("ours_mean");
                String ours = mean.isEmpty() ? "not run" : mean + " ± " + r.getField("ours_sd") + " (n " + r.getField("seeds") + ")";
                String cause = r.getField("cause") + (r.getField("cause_detail").isEmpty() ? "" : ": " + r.getField("cause_detail"));
                String paper = r.getField("paper").isEmpty() ? "claim" : r.getField("paper");
                out.add(new StoredCell(r.getField("cell"), ours, paper, r.getField("verdict"), cause));
            }
        } catch (IOException e) {
            throw new BadInputException(comparisonCsv + ": cannot read (" + e.getMessage() + ")");
        }
        return out;
    }

    /** A stored comparison.csv as a Markdown table: cell, ours (mean ± sd over n), paper, verdict, cause. */
    static String cellTable(Path comparisonCsv) {
        StringBuilder sb = new StringBuilder("| cell | ours | paper | verdict | cause |\n|---|---|---|---|---|\n");
        for (StoredCell c : storedCells(comparisonCsv)) {
            sb.append("| ").append(md(c.cell())).append(" | ").append(c.ours()).append(" | ").append(c.paper())
                    .append(" | ").append(c.verdict()).append(" | ").append(md(c.cause())).append(" |\n");
        }
        return sb.toString();
    }

    private static String md(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    /** "42 s", "7 min 3 s", "2.5 h". */
    public static String duration(double seconds) {
        if (seconds < 60) return String.format(Locale.ROOT, "%.0f s", seconds);
        if (seconds < 3600) return String.format(Locale.ROOT, "%d min %d s", (long) seconds / 60, (long) seconds % 60);
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }
}

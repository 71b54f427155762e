package lbsim.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lbsim.BadInputException;
import lbsim.experiment.Sweep;
import lbsim.experiment.reproduce.PaperScaleCost;
import lbsim.experiment.reproduce.Preset;
import lbsim.experiment.reproduce.Presets;
import lbsim.experiment.reproduce.Provenance;
import lbsim.experiment.reproduce.Sensitivities;
import lbsim.experiment.reproduce.Sensitivity;
import lbsim.experiment.reproduce.SummaryPage;
import lbsim.experiment.reproduce.Verdicts;
import lbsim.experiment.reproduce.Reproduce;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = "Run a paper preset (a sweep) and compare it with the paper's stated numbers; writes results.csv, "
                + "comparison.csv and report.html.")
public final class ReproduceCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "Preset id (see --list).")
    String id;

    @Option(names = "--list", description = "List the presets, each with the scale, run time and verdict counts of its "
            + "stored results (see --results).")
    boolean list;

    @Option(names = "--summary", description = "Print the table across every preset's stored results (Markdown): scale run, "
            + "run time, verdict counts, commit. With --out DIR: write DIR/summary.html instead (verdict counts per preset and "
            + "per paper as stacked bars, links to each preset's results, every claim's verdict and cause).")
    boolean summary;

    @Option(names = "--sensitivity", description = "Also run the preset once per value of each setting the paper does not "
            + "state but its claims may depend on (see docs/experiments.md, \"Unstated settings\"), into OUT/sensitivity/, and "
            + "report every cell's verdict at each value (sensitivity.csv, report.html).")
    boolean sensitivity;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "docs/results", description = "Where stored results are "
            + "(DIR/<id>/, written by reproduce --out DIR/<id>); read by --list and --summary. Default: ${DEFAULT-VALUE}.")
    Path results;

    @Option(names = "--scale", defaultValue = "quick", description = "quick (minutes on a laptop) or paper (the paper's setup). Default: ${DEFAULT-VALUE}.")
    String scale;

    @Option(names = "--out", description = "Output directory (default: out/reproduce-<id>-<scale>).")
    Path out;

    @picocli.CommandLine.Mixin
    ProgressOption progressOption = new ProgressOption();

    @picocli.CommandLine.Mixin
    OverwriteOption overwriteOption = new OverwriteOption();

    @Option(names = "--jobs", description = "Parallel runs (default: all cores).")
    Integer jobs;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key in every run, after the grid point (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        OutDir.check(out);
        if (summary) {
            if (out == null) {
                System.out.print(Verdicts.summaryMarkdown(results));
            } else {
                System.out.println("summary page: " + SummaryPage.write(results, OutDir.usable(out, overwriteOption.overwrite)));
            }
            return 0;
        }
        if (list) {
            // with an id, that preset only (an unknown id is exit 2 listing the ids)
            List<Verdicts.Stored> stored = Verdicts.stored(results);
            for (Preset p : id == null ? Presets.all() : List.of(Presets.get(id))) {
                Verdicts.Stored s = stored.stream().filter(x -> x.preset() == p).findFirst().orElseThrow();
                System.out.printf("%-16s %s, %s%n", p.id(), p.figure(), p.paper());
                System.out.println("                 " + storedLine(s));
            }
            return 0;
        }
        if (id == null) throw new BadInputException("reproduce: give a preset id or --list; available: "
                + String.join(", ", Presets.all().stream().map(Preset::id).toList()));
        Preset p = Presets.get(id);
        scale = scale.toLowerCase(Locale.ROOT); // case-insensitive, as plan's --format
        if (!Preset.SCALES.contains(scale)) throw new BadInputException("--scale " + scale + ": allowed values: " + String.join(", ", Preset.SCALES));
        // as sweep does: keys the overrides set that a grid point's settings do not read, once per reproduction
        // (a bad override is exit 2 here, naming the grid point, before anything runs)
        for (String w : Reproduce.spec(p, scale, overrides).validate()) System.err.println("lbsim: warning: " + w);
        Path dir = OutDir.usable(out != null ? out : Path.of("out", "reproduce-" + p.id() + "-" + scale), overwriteOption.overwrite);
        int j = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (j < 1) throw new BadInputException("--jobs " + j + ": must be >= 1");
        ProgressBar pb = ProgressBar.forRuns(p.id(), progressOption.mode());
        Reproduce.Outcome o = Reproduce.run(p, scale, dir, j, overrides, pb == null ? Sweep.Listener.NONE : pb::runsDone);
        if (pb != null) pb.clear();
        System.out.printf("%s (%s), %s, scale %s: %s%n", p.id(), p.figure(), p.metricLabel(), scale,
                o.sweep().total() + " runs (" + o.sweep().ran() + " run now)");
        System.out.printf("%-52s %10s %8s %10s %10s  %-12s %s%n", "cell", "ours", "sd", "paper", "diff", "verdict", "cause");
        for (Reproduce.Row r : o.rows()) {
            if (r.ran()) {
                System.out.printf(Locale.ROOT, "%-52s %10.3f %8.3f %10s %10s  %-12s %s%n", r.cell().name(), r.mean(), r.sd(),
                        Reproduce.paperText(r), r.cell().isQualitative() ? "" : String.format(Locale.ROOT, "%+.3f", r.difference()),
                        r.verdict().label(), r.causeKind());
            } else {
                System.out.printf(Locale.ROOT, "%-52s %10s %8s %10s %10s  %-12s%n", r.cell().name(), "not run", "", Reproduce.paperText(r), "",
                        r.verdict().label());
            }
        }
        System.out.println(Verdicts.counts(o.rows()) + " (rule: docs/experiments.md, \"Verdicts\"; causes in comparison.csv)");
        if (sensitivity) {
            List<Sensitivity> settings = Sensitivities.of(p.id());
            if (settings.isEmpty()) {
                System.out.println("sensitivity: " + p.id() + " has no unstated settings to explore");
            } else {
                ProgressBar sb = ProgressBar.forRuns(p.id() + " sensitivity", progressOption.mode());
                List<Reproduce.SensitivityRow> rows = Reproduce.runSensitivity(p, scale, dir, j, overrides,
                        sb == null ? Sweep.Listener.NONE : sb::runsDone);
                if (sb != null) sb.clear();
                List<Reproduce.Row> main = Reproduce.refresh(p, scale, dir, overrides);
                printSensitivity(main, rows);
            }
        }
        System.out.println("results in " + dir + " (results.csv, comparison.csv, report.html)");
        return 0;
    }

    /** Per cell: its verdict with the defaults, then at each value of each unstated setting. */
    static void printSensitivity(List<Reproduce.Row> main, List<Reproduce.SensitivityRow> rows) {
        List<String> cols = new ArrayList<>();
        for (Reproduce.SensitivityRow r : rows) if (!cols.contains(r.key() + "=" + r.value())) cols.add(r.key() + "=" + r.value());
        System.out.println("verdicts across unstated settings (one changed at a time):");
        System.out.printf("%-52s %-12s", "cell", "default");
        for (String c : cols) System.out.printf(" %-" + Math.max(12, c.length()) + "s", c);
        System.out.println();
        for (Reproduce.Row m : main) {
            System.out.printf("%-52s %-12s", m.cell().name(), m.verdict().label());
            for (String c : cols) {
                String v = rows.stream().filter(r -> (r.key() + "=" + r.value()).equals(c) && r.row().cell().name().equals(m.cell().name()))
                        .map(r -> r.row().verdict().label()).findFirst().orElse("");
                System.out.printf(" %-" + Math.max(12, c.length()) + "s", v);
            }
            System.out.println();
        }
    }

    /** "stored: quick scale, 32 runs, 18 s of run time; 12 cells: ..." or why there is nothing to show. */
    static String storedLine(Verdicts.Stored s) {
        if (!s.present()) return "no stored results; paper scale not run (" + paperEstimate(s.preset()) + ")";
        Provenance pv = s.provenance();
        String paperTime = pv.scale().equals("paper") ? Verdicts.duration(pv.runSeconds()) + " of run time"
                : "not run (" + paperEstimate(s.preset()) + ")";
        return "stored: " + pv.scale() + " scale, " + pv.runs() + " runs, " + Verdicts.duration(pv.runSeconds()) + " of run time"
                + (s.current() ? "" : " (stale: the preset changed since)") + "; paper scale: " + paperTime
                + (s.counts() == null ? "" : "; " + s.counts());
    }

    /** The paper grid's run count and what running it would cost in CPU, as far as measured. */
    static String paperEstimate(Preset p) {
        int runs = Reproduce.spec(p, "paper", List.of()).runs().size();
        return PaperScaleCost.of(p.id()).map(c -> c.describe(runs)).orElse(runs + " runs; not measured");
    }
}

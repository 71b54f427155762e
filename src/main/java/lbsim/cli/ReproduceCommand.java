package lbsim.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lbsim.BadInputException;
import lbsim.experiment.Sweep;
import lbsim.experiment.reproduce.Preset;
import lbsim.experiment.reproduce.Presets;
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

    @Option(names = "--list", description = "List the presets.")
    boolean list;

    @Option(names = "--scale", defaultValue = "quick", description = "quick (minutes on a laptop) or paper (the paper's setup). Default: ${DEFAULT-VALUE}.")
    String scale;

    @Option(names = "--out", description = "Output directory (default: out/reproduce-<id>-<scale>).")
    Path out;

    @picocli.CommandLine.Mixin
    ProgressOption progressOption = new ProgressOption();

    @Option(names = "--jobs", description = "Parallel runs (default: all cores).")
    Integer jobs;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key in every run, after the grid point (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        if (list) {
            // with an id, that preset only (an unknown id is exit 2 listing the ids)
            for (Preset p : id == null ? Presets.all() : List.of(Presets.get(id))) {
                System.out.printf("%-16s %s, %s%n", p.id(), p.figure(), p.paper());
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
        Path dir = out != null ? out : Path.of("out", "reproduce-" + p.id() + "-" + scale);
        int j = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (j < 1) throw new BadInputException("--jobs " + j + ": must be >= 1");
        ProgressBar pb = ProgressBar.forRuns(p.id(), progressOption.mode());
        Reproduce.Outcome o = Reproduce.run(p, scale, dir, j, overrides, pb == null ? Sweep.Listener.NONE : pb::runsDone);
        if (pb != null) pb.clear();
        System.out.printf("%s (%s), %s, scale %s: %s%n", p.id(), p.figure(), p.metricLabel(), scale,
                o.sweep().total() + " runs (" + o.sweep().ran() + " run now)");
        System.out.printf("%-52s %10s %8s %10s %10s%n", "cell", "ours", "sd", "paper", "diff");
        for (Reproduce.Row r : o.rows()) {
            if (r.ran()) {
                System.out.printf(Locale.ROOT, "%-52s %10.3f %8.3f %10.3f %+10.3f%n", r.cell().name(), r.mean(), r.sd(), r.paper(), r.difference());
            } else {
                System.out.printf(Locale.ROOT, "%-52s %10s %8s %10.3f %10s%n", r.cell().name(), "not run", "", r.paper(), "");
            }
        }
        System.out.println("results in " + dir + " (results.csv, comparison.csv, report.html)");
        return 0;
    }
}

package lbsim.cli;

import lbsim.BadInputException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepReport;
import lbsim.experiment.SweepSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a scenario over a grid of parameters x seeds, in parallel and resumably; writes results.csv and one report.html for the whole sweep.")
public final class SweepCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Sweep YAML file (base, grid, seeds).")
    Path file;

    @Option(names = "--out", required = true, description = "Output directory (results.csv, sweep.json, runs/).")
    Path out;

    @picocli.CommandLine.Mixin
    ProgressOption progressOption = new ProgressOption();

    @picocli.CommandLine.Mixin
    ReportOption reportOption = new ReportOption();

    @picocli.CommandLine.Mixin
    OverwriteOption overwriteOption = new OverwriteOption();

    @Option(names = "--jobs", description = "Parallel runs (default: all cores).")
    Integer jobs;

    @Option(names = "--shard", paramLabel = "I/N", description = "Run only the runs whose index mod N == I (merge shards with lbsim merge).")
    String shard;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key in every run, after the grid point (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        OutDir.usable(out, overwriteOption.overwrite);
        progressOption.mode(); // a bad --progress is refused before anything runs
        SweepSpec spec = SweepSpec.load(file, overrides);
        // once per sweep, not once per run (each run's summary.json has its own)
        for (String w : spec.validate()) System.err.println("lbsim: warning: " + w);
        Sweep.Outcome o = run(spec, out, jobs, shard, "sweep", progressOption.mode());
        // one report for the whole sweep, drawn once its runs are done (no run draws its own)
        Path report = reportOption.wanted() ? SweepReport.write(out, spec.name()) : null;
        System.out.println(o.total() + " runs (" + o.ran() + " run now, " + o.skipped() + " already finished); results in "
                + o.results() + (report == null ? "" : ", report in " + report));
        return 0;
    }

    /** Shared with reproduce: runs a sweep with a progress bar on a terminal. */
    static Sweep.Outcome run(SweepSpec spec, Path out, Integer jobs, String shard, String label, ProgressBar.Mode mode) {
        Sweep.Shard sh = shard == null ? Sweep.Shard.ALL : Sweep.Shard.parse(shard);
        int j = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (j < 1) throw new lbsim.BadInputException("--jobs " + j + ": must be >= 1");
        ProgressBar pb = ProgressBar.forRuns(label, mode);
        Sweep.Outcome o = Sweep.run(spec, out, j, sh, pb == null ? Sweep.Listener.NONE : pb::runsDone);
        if (pb != null) pb.clear();
        return o;
    }
}

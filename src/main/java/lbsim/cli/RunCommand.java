package lbsim.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import lbsim.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run one scenario; writes summary.json, flows.csv, links.csv, throughput.csv, events.csv, scenario.resolved.yaml"
                + " (link_series.csv too with metrics.series) and report.html (charts in plots/, drawn after the results are written;"
                + " --no-report skips them).")
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Scenario YAML file.")
    Path file;

    @Mixin
    ScenarioOptions options = new ScenarioOptions();

    @Option(names = "--out", description = "Output directory (default: out/<scenario name>).")
    Path out;

    @Mixin
    ProgressOption progressOption = new ProgressOption();

    @Mixin
    ReportOption reportOption = new ReportOption();

    @Mixin
    OverwriteOption overwriteOption = new OverwriteOption();

    @Override
    public Integer call() throws Exception {
        OutDir.check(out);
        ProgressBar.Mode mode = progressOption.mode(); // a bad value is refused before the scenario is read
        Scenario sc = ScenarioLoader.load(file, options.overrides, options.seed);
        Path dir = OutDir.usable(out != null ? out : Path.of("out", sc.name()), overwriteOption.overwrite);
        Runner.Progress progress = ProgressBar.forRun(sc.name() + " [" + sc.scheme() + "]", 0, mode);
        RunResult r = Runner.run(sc, progress);
        if (progress instanceof ProgressBar pb) pb.clear();
        try {
            ResultWriter.write(r, dir);
            ScenarioLoader.writeResolved(sc, dir);
        } catch (java.io.UncheckedIOException e) {
            throw new BadInputException("--out " + dir + ": cannot write results (" + e.getCause().getMessage() + ")");
        }
        // the results are on disk and on the screen before the charts, the slowest part of a small run, are drawn
        System.out.println(Tables.summaryLine(r));
        if (!r.conditionsLine().isEmpty()) System.out.println(r.conditionsLine());
        for (String w : r.warnings()) System.err.println("lbsim: warning: " + w);
        System.out.flush();
        if (reportOption.wanted()) Report.run(r, dir);
        System.out.println("results in " + dir);
        return 0;
    }
}

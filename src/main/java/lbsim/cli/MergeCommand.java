package lbsim.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import lbsim.experiment.Sweep;
import lbsim.experiment.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Join the output folders of sweep shards into one folder with the full results.csv and report.html.")
public final class MergeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Shard output folders (each written by lbsim sweep --shard).")
    List<Path> inputs;

    @Option(names = "--out", required = true, description = "Output directory.")
    Path out;

    @picocli.CommandLine.Mixin
    OverwriteOption overwriteOption = new OverwriteOption();

    @Override
    public Integer call() {
        OutDir.usable(out, overwriteOption.overwrite);
        Path results = Sweep.merge(inputs, out);
        Path report = SweepReport.write(out, null);
        System.out.println("merged " + inputs.size() + " folders; results in " + results + ", report in " + report);
        return 0;
    }
}

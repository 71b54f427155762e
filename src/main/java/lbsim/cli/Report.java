package lbsim.cli;

import java.nio.file.Path;
import java.util.List;
import lbsim.experiment.BadInputException;
import lbsim.metrics.RunResult;
import lbsim.metrics.plot.CompareReport;
import lbsim.metrics.plot.RunReport;

/** Writes report.html (and its charts under plots/) for the commands; the pages are built in metrics.plot. */
final class Report {
    private Report() {}

    static Path compare(List<RunResult> results, Path dir) {
        try {
            return CompareReport.write(results, dir);
        } catch (java.io.UncheckedIOException e) {
            throw new BadInputException("--out " + dir + ": cannot write the report (" + e.getCause().getMessage() + ")");
        }
    }

    static Path run(RunResult r, Path dir) {
        try {
            return RunReport.write(r, dir);
        } catch (java.io.UncheckedIOException e) {
            throw new BadInputException("--out " + dir + ": cannot write the report (" + e.getCause().getMessage() + ")");
        }
    }
}

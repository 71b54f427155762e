package lbsim.cli;

import java.nio.file.Path;
import lbsim.BadInputException;
import lbsim.metrics.RunResult;
import lbsim.metrics.SeedComparison;
import lbsim.metrics.plot.CompareReport;
import lbsim.metrics.plot.RunReport;

/** Writes report.html (and its charts under plots/) for the commands; the pages are built in metrics.plot. */
final class Report {
    private Report() {}

    static Path compare(SeedComparison c, Path dir) {
        try {
            return CompareReport.write(c, dir);
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

package lbsim.cli;

import picocli.CommandLine.Option;

/** {@code --no-report} of the verbs that draw report.html: the results files only, without the charts. */
final class ReportOption {
    @Option(names = "--no-report", description = "Write the results files only: no report.html and no charts in plots/"
            + " (drawing them takes longer than a small run itself).")
    boolean noReport;

    boolean wanted() {
        return !noReport;
    }
}

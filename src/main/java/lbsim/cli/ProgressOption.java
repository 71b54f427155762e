package lbsim.cli;

import picocli.CommandLine.Option;

/** {@code --progress auto|always|never} of the verbs that run simulations. */
final class ProgressOption {
    @Option(names = "--progress", paramLabel = "auto|always|never", defaultValue = "auto",
            description = "Progress: auto (default) draws a bar on stderr on a terminal and prints a plain line on stdout"
                    + " every 10 s otherwise (batch logs), always draws the bar anyway, never prints nothing.")
    String progress = "auto";

    ProgressBar.Mode mode() {
        return ProgressBar.Mode.parse(progress);
    }
}

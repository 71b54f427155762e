package lbsim.cli;

import picocli.CommandLine.Option;

/** {@code --overwrite} of the verbs that write an output folder: allows one that holds files lbsim did not write. */
final class OverwriteOption {
    @Option(names = "--overwrite", description = "Write into --out even when it holds files that are not lbsim results"
            + " (otherwise such a folder is refused, so that results never mix with or replace other files).")
    boolean overwrite;
}

package lbsim.cli;

import lbsim.Build;
import picocli.CommandLine.IVersionProvider;

/**
 * The -V/--version line: lbsim's version and the git commit the jar was built from ({@link Build}),
 * e.g. {@code lbsim 0.1.0 (commit abc1234)}.
 */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    /** The version line; a value the build did not fill in (run from unfiltered sources) reads "unknown". */
    static String line() {
        return "lbsim " + Build.version() + " (commit " + Build.commit() + ")";
    }
}

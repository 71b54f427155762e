package lbsim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The -V/--version line: lbsim's version and the git commit the jar was built from, read from the
 * build-filtered resource {@code lbsim/version.properties}, e.g. {@code lbsim 0.1.0 (commit abc1234)}.
 */
public final class VersionProvider implements IVersionProvider {

    static final String RESOURCE = "/lbsim/version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    /** The version line; a value the build did not fill in (run from unfiltered sources) reads "unknown". */
    static String line() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // fall through to "unknown"
        }
        return "lbsim " + value(p, "version") + " (commit " + value(p, "commit") + ")";
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "").trim();
        return v.isEmpty() || v.contains("${") ? "unknown" : v;
    }
}

package lbsim;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * lbsim's version and the git commit the jar was built from, read from the build-filtered resource
 * {@code lbsim/version.properties}; "unknown" when run from unfiltered sources.
 */
public final class Build {
    static final String RESOURCE = "/lbsim/version.properties";
    private static final Properties PROPS = load();

    private Build() {}

    public static String version() {
        return value("version");
    }

    public static String commit() {
        return value("commit");
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Build.class.getResourceAsStream(RESOURCE)) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // "unknown"
        }
        return p;
    }

    private static String value(String key) {
        String v = PROPS.getProperty(key, "").trim();
        return v.isEmpty() || v.contains("${") ? "unknown" : v;
    }
}

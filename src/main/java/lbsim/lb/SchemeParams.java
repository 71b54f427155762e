package lbsim.lb;

/**
 * Scheme-specific keys of the scenario's {@code load_balancer} section, read with defaults
 * and range checks; a scheme reads only its own keys, and any other key is an error.
 */
public interface SchemeParams {
    int intValue(String key, int def, int min, int max);

    double doubleValue(String key, double def, double min, double max);

    /** A value from a fixed list; the scenario reader ({@code Section}) checks it, the all-defaults binder returns {@code def}. */
    default String choice(String key, String def, java.util.Collection<String> allowed) {
        return def;
    }

    /** A true/false key; the scenario reader ({@code Section}) checks it, the all-defaults binder returns {@code def}. */
    default boolean bool(String key, boolean def) {
        return def;
    }

    /** Whether the scenario gives {@code key}: for keys recorded in the resolved scenario only when given. */
    default boolean has(String key) {
        return false;
    }

    /** An error about {@code key} (values that do not fit together); the scenario reader's names the file and section. */
    default RuntimeException error(String key, String message) {
        return new IllegalArgumentException(key + ": " + message);
    }
}

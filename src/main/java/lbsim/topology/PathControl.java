package lbsim.topology;

import java.util.List;
import java.util.Locale;

/**
 * What a source-route path ID names (Ethereal's {@code load_balancer.path_control}); see {@link Routing}.
 *
 * <ul>
 *   <li>{@link #PORT} (Ethereal §3.2, "uplink index"): at every upward hop with more than one
 *       equal-cost egress port the path ID's next byte picks the port, the members of link bundles
 *       included; a downward hop whose bundle has several members takes the member the path went
 *       up on at the same tier boundary. Paths are the product of the uplink ports per hop.</li>
 *   <li>{@link #LAG}: a byte picks the next-hop switch (a bundle) and the switch hashes the member
 *       like a LAG. Paths are the product of the next-hop switches per hop. On fabrics without
 *       bundles both are the same.</li>
 * </ul>
 */
public enum PathControl {
    PORT, LAG;

    /** The scenario values, default first. */
    public static final List<String> NAMES = List.of("port", "lag");

    /** The scenario value. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The control named by a scenario value ("port" or "lag"). */
    public static PathControl of(String key) {
        return valueOf(key.toUpperCase(Locale.ROOT));
    }
}

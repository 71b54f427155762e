package lbsim.lb;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Registry of load-balancing schemes by scenario name ({@code load_balancer.scheme}). A new
 * scheme is one file plus one line here.
 */
public final class Schemes {
    private Schemes() {}

    private static final Map<String, Function<SchemeContext, Scheme>> BUILT = Map.of(
            "ecmp", c -> new Scheme("ecmp", new Ecmp.Host(c.random("ecmp")),
                    sw -> new Ecmp.Hash(c.switchSeed(sw, "ecmp"))),
            "spray-host", c -> new Scheme("spray-host", new HostSpray(c.random("spray-host")),
                    sw -> new Ecmp.Hash(c.switchSeed(sw, "ecmp"))),
            "spray-switch", c -> new Scheme("spray-switch", new SwitchSpray.Host(c.random("spray-switch")),
                    sw -> new SwitchSpray()));

    /** Every name of the interface contract, in presentation order. */
    public static final List<String> ALL = List.of("ecmp", "spray-host", "spray-switch", "spray-adaptive", "drill",
            "ecmp-ar", "letflow", "flowlet-switch", "flowlet-host", "plb", "flowbender", "conga", "conweave", "reps",
            "mprdma", "subflows", "ethereal", "paralet", "dnlb", "hopper");

    /** Names that can run today, in presentation order. */
    public static List<String> available() {
        return ALL.stream().filter(BUILT::containsKey).toList();
    }

    public static boolean isAvailable(String name) {
        return BUILT.containsKey(name);
    }

    public static boolean isKnown(String name) {
        return ALL.contains(name);
    }

    public static Scheme create(String name, SchemeContext ctx) {
        Function<SchemeContext, Scheme> f = BUILT.get(name);
        if (f == null) throw new IllegalArgumentException("scheme not available: " + name);
        return f.apply(ctx);
    }
}

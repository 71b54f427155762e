package lbsim.cli;

/** Tiny inputs the CLI tests share: a 4-host leaf-spine scenario and sweeps over it. */
final class CliFixtures {
    private CliFixtures() {}

    static final String TINY_TOPOLOGY = "{kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}";
    static final String TINY_WORKLOAD = "{kind: permutation, size_bytes: 30000}";

    /** A scenario of 4 hosts, one 30 kB permutation: well under a second per scheme. */
    static final String TINY_SCENARIO = "name: small\ntopology: " + TINY_TOPOLOGY + "\nworkload: " + TINY_WORKLOAD + "\n";

    /** A sweep of the tiny scenario over {@code schemes} (a YAML list, e.g. "[ecmp, spray-host]") and {@code seeds} seeds. */
    static String tinySweep(String schemes, int seeds) {
        return "base:\n  name: tiny\n  topology: " + TINY_TOPOLOGY + "\n  workload: " + TINY_WORKLOAD + "\n"
                + "grid:\n  load_balancer.scheme: " + schemes + "\nseeds: " + seeds + "\n";
    }
}

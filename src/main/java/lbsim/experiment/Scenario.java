package lbsim.experiment;

import java.util.List;
import java.util.function.Function;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import tools.jackson.databind.node.ObjectNode;

/**
 * A bound scenario: every section with its defaults filled in, the resolved tree that is
 * written beside the results, and warnings about given keys that these settings do not read
 * ({@link UnreadKeys}; the run's warnings start with them).
 */
public record Scenario(String file, String name, long seed, double maxTimeMs, TopologySpec topology,
                       TransportSpec transport, SwitchSpec switchSpec, String scheme,
                       Function<SchemeContext, Scheme> schemeFactory, WorkloadSpec workload,
                       List<FailureSpec> failures, MetricsSpec metrics, ObjectNode resolved, List<String> warnings) {

    public Scenario {
        warnings = List.copyOf(warnings);
    }

    /** The NIC every host runs with (the transport's, which it resolves against). */
    public NicSpec nic() {
        return transport.nic();
    }

    /**
     * SHA-256 (hex) of the resolved scenario's YAML, defaults filled in: a stored run whose summary
     * carries another hash was made with other settings (a changed default included) and is stale.
     */
    public String resolvedSha256() {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(ScenarioLoader.toYaml(resolved).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);   // every Java platform has SHA-256
        }
    }

    /** The same scenario with another scheme factory (tests that wrap or replace a scheme). */
    public Scenario withSchemeFactory(Function<SchemeContext, Scheme> factory) {
        return new Scenario(file, name, seed, maxTimeMs, topology, transport, switchSpec, scheme, factory, workload, failures,
                metrics, resolved, warnings);
    }
}

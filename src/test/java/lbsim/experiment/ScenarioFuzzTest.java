package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import lbsim.BadInputException;
import org.junit.jupiter.api.Test;

/**
 * Fuzz suite (issue 31): one mutation of a small valid scenario at a time, anywhere in its tree,
 * then load and run it. Every case must either run (exit 0) or be refused as bad input (exit 2,
 * {@link BadInputException}); any other exception is a defect. Runs are kept short by small
 * fabrics and {@code max_time_ms}, which the mutations never raise.
 * The seed is fixed so that the test suite is reproducible; {@code -Dlbsim.fuzz.seed=N} explores others.
 */
public class ScenarioFuzzTest {
    public static final long SEED = Long.getLong("lbsim.fuzz.seed", 31);
    static final int EXAMPLES = Integer.getInteger("lbsim.fuzz.examples", 150);

    /** Small valid scenarios whose keys span most sections; each finishes in a few ms of simulated time. */
    public static final List<String> BASES = List.of("""
            name: fuzz-ls
            seed: 3
            max_time_ms: 2
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, link_gbps: 100, link_latency_ns: 500,
                       mtu_bytes: 1024, link_overrides: [{links: "leaf0-spine1", gbps: 50}]}
            transport: {cc: dctcp, loss_recovery: go-back-n, pfc: false, timeout_us: 200, timeout_backoff: 2.0, ack_every: 1}
            switch: {alpha: 1.0, ecn_profile: dctcp, ar_levels: 8}
            load_balancer: {scheme: spray-host}
            workload: {kind: permutation, size_bytes: 20000, concurrent: 1, start_jitter_ns: 100}
            failures: [{at_us: 5, link: "leaf1-spine0", kind: down, detect_ms: 0.01}]
            metrics: {throughput_interval_us: 5, series: {links: "leaf0-spine*", interval_us: 5, max_rows: 1000}}
            """, """
            name: fuzz-ft
            max_time_ms: 2
            topology: {kind: fat-tree, k: 4, switch_buffer_bytes: 1000000}
            transport: {cc: dcqcn, pfc: true, timeout_us: 100}
            nic: {profile: roce, adaptive_retransmission: true, adp_first_timeout_max_us: 64, adp_decrement: halve}
            switch: {pfc_alpha: 1.0, pfc_headroom_bytes: -1}
            load_balancer: {scheme: ecmp}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 64000, ranks: 4, channels: 1,
                       placement: contiguous, qps_per_connection: 2}
            failures: [{at_us: 2, link: "tor0-agg0", kind: flaky, mean_gap_us: 20, mean_burst_us: 2}]
            """, """
            name: fuzz-flows
            max_time_ms: 2
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            transport: {cc: swift, loss_recovery: irn}
            load_balancer: {scheme: drill}
            workload:
              kind: flows
              flows:
                - {src: 0, dst: 3, size_bytes: 30000}
                - {src: 1, dst: 2, size_bytes: 10000, start_ns: 1000, after: [0], group: 0}
            failures: [{at_us: 3, link: "leaf0-spine0", kind: degrade, capacity_fraction: 0.5}]
            """, """
            name: fuzz-open
            max_time_ms: 1
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, parallel_links: 2, port_buffer_bytes: 200000}
            transport: {cc: uec, loss_recovery: trim, pfc: false}
            nic: {profile: multipath, qp_cache_entries: 4, qp_miss_ns: 100, arbitration_bytes: 4096}
            load_balancer: {scheme: reps, slots: 4, entropies: 16}
            workload: {kind: open-loop, distribution: hadoop, load: 0.3, duration_us: 20, pairs: inter-rack}
            """, """
            name: fuzz-sub
            max_time_ms: 2
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2, oversubscription: 2}
            transport: {cc: fixed-rate, rate_coefficient: 0.9, pacing_jitter: 0.1, loss_recovery: sack, timeout_us: 100}
            nic: {profile: irn, reorder_window_packets: 30, retry_count: 3}
            load_balancer: {scheme: subflows, count: 3, spray: false}
            workload: {kind: collective, op: all-gather, algorithm: ring, size_bytes: 24000, jobs: 2, ranks: 2, reduce_gbps: 50}
            metrics: {throughput_interval_us: 2, throughput_max_intervals: 16}
            """, """
            name: fuzz-eth
            max_time_ms: 2
            topology: {kind: fat-tree, k: 4}
            transport: {timeout_us: 50}
            nic: {profile: ideal}
            load_balancer: {scheme: ethereal, bad_path_ms: 1, path_control: port}
            workload: {kind: permutation, size_bytes: 8000}
            failures: [{at_us: 1, link: "agg0-core0", kind: down, detect_ms: 0}]
            """);

    /** A value put in place of another: wrong types, extreme and degenerate numbers, odd strings, structures. */
    static final List<JsonNode> VALUES;

    static {
        JsonNodeFactory f = JsonNodeFactory.instance;
        List<JsonNode> v = new ArrayList<>();
        v.add(f.textNode("abc"));
        v.add(f.textNode(""));
        v.add(f.textNode("../x/*[{"));
        v.add(f.textNode("ecmp"));
        v.add(f.textNode("1e400"));
        v.add(f.textNode("-0"));
        v.add(f.numberNode(0));
        v.add(f.numberNode(-1));
        v.add(f.numberNode(1));
        v.add(f.numberNode(2));
        v.add(f.numberNode(3));
        v.add(f.numberNode(1_000_000_000));
        v.add(f.numberNode(Integer.MAX_VALUE));
        v.add(f.numberNode(Integer.MIN_VALUE));
        v.add(f.numberNode(Long.MAX_VALUE));
        v.add(f.numberNode(Long.MIN_VALUE));
        v.add(f.numberNode(new java.math.BigInteger("99999999999999999999999")));
        v.add(f.numberNode(0.5));
        v.add(f.numberNode(1e-12));
        v.add(f.numberNode(1e-4));
        v.add(f.numberNode(0.001));
        v.add(f.numberNode(-0.5));
        v.add(f.numberNode(-1e-9));
        v.add(f.numberNode(1e308));
        v.add(f.numberNode(Double.NaN));
        v.add(f.numberNode(Double.POSITIVE_INFINITY));
        v.add(f.booleanNode(true));
        v.add(f.booleanNode(false));
        v.add(f.nullNode());
        v.add(f.arrayNode());
        v.add(f.arrayNode().add(1).add("a"));
        v.add(f.objectNode());
        v.add(f.objectNode().put("x", 1));
        VALUES = List.copyOf(v);
    }

    /** Where a mutation lands: a field of a mapping or an element of a list. */
    record Site(JsonNode parent, String field, int index) {
        String path() {
            return field != null ? field : "[" + index + "]";
        }
    }

    static List<Site> sites(JsonNode node) {
        List<Site> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(JsonNode node, List<Site> out) {
        if (node.isObject()) {
            for (String k : new ArrayList<>(node.propertyNames())) {
                out.add(new Site(node, k, -1));
                collect(node.get(k), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.add(new Site(node, null, i));
                collect(node.get(i), out);
            }
        }
    }

    /** Mutation kinds: 0..VALUES-1 replace with that value; then delete it, add an unknown key beside it, wrap it in a list, give it as a string. */
    public static final int DELETE = VALUES.size(), UNKNOWN_KEY = VALUES.size() + 1, WRAP_IN_LIST = VALUES.size() + 2,
            STRING_OF_IT = VALUES.size() + 3, KINDS = VALUES.size() + 4;

    /** The base scenario {@code base} with mutation {@code kind} at site {@code site} (mod the sites), as YAML; null when the mutation would raise or drop max_time_ms. */
    public static String mutate(int base, int site, int kind) {
        return mutate(BASES.get(base), site, kind);
    }

    /** As {@link #mutate(int, int, int)} of any scenario text (a mutation of a mutation). */
    static String mutate(String yaml, int site, int kind) {
        ObjectNode tree = (ObjectNode) ScenarioLoader.readYaml("fuzz", yaml);
        List<Site> all = sites(tree);
        Site s = all.get(Math.floorMod(site, all.size()));
        JsonNode old = s.field() != null ? s.parent().get(s.field()) : s.parent().get(s.index());
        JsonNode replacement;
        if (kind < VALUES.size()) replacement = VALUES.get(kind).deepCopy();
        else if (kind == WRAP_IN_LIST) replacement = JsonNodeFactory.instance.arrayNode().add(old.deepCopy());
        else if (kind == STRING_OF_IT) replacement = JsonNodeFactory.instance.textNode(old.isTextual() ? old.asText() + "x" : old.toString());
        else replacement = null;
        // the time limit keeps every case short: never raised, nor deleted (its default is 1000 ms)
        if ("max_time_ms".equals(s.field()) && (kind == DELETE || replacement != null && replacement.isNumber() && replacement.asDouble() > 2)) {
            return null;
        }
        if (kind == DELETE) {
            if (s.field() != null) ((ObjectNode) s.parent()).remove(s.field());
            else ((ArrayNode) s.parent()).remove(s.index());
        } else if (kind == UNKNOWN_KEY) {
            if (s.parent().isObject()) ((ObjectNode) s.parent()).put("no_such_key", 1);
            else ((ArrayNode) s.parent()).add(JsonNodeFactory.instance.objectNode().put("no_such_key", 1));
        } else if (s.field() != null) {
            ((ObjectNode) s.parent()).set(s.field(), replacement);
        } else {
            ((ArrayNode) s.parent()).set(s.index(), replacement);
        }
        return ScenarioLoader.toYaml(tree);
    }

    /** Runs the scenario text; returns normally when it ran or was refused as bad input, throws otherwise. */
    static boolean loadAndRun(String yaml) {
        try {
            Scenario sc = ScenarioLoader.parse("fuzz.yaml", yaml, null, List.of(), null);
            Runner.run(sc, Runner.Progress.NONE);
            return true;
        } catch (BadInputException refused) {
            assertThat(refused.getMessage()).as("a refusal names something").isNotBlank();
            return false;
        }
    }

    @Test
    void theBaseScenariosRun() {
        for (String b : BASES) {
            var r = Runner.run(ScenarioLoader.parse("fuzz.yaml", b, null, List.of(), null), Runner.Progress.NONE);
            assertThat(r.completed()).as(b).isTrue();
        }
    }

    /** Found by this suite: an override of 1e-12 Gbit/s rounded to 0 bit/s and divided by zero (exit 1). */
    @Test
    void aLinkOverrideBelowOneMbitPerSecondIsRefused() {
        for (String gbps : new String[] {"1.0e-12", "0.0001", "-0.5", "0"}) {
            String yaml = BASES.get(0).replace("gbps: 50}", "gbps: " + gbps + "}");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioLoader.parse("fuzz.yaml", yaml, null, List.of(), null))
                    .as(gbps).isInstanceOf(BadInputException.class).hasMessageContaining("topology.link_overrides")
                    .hasMessageContaining("gbps").hasMessageContaining("[0.001, 1000000]");
        }
    }

    @Test
    void everyMutationRunsOrIsRefusedAsBadInput() {
        int[] ranRefused = new int[2];
        qt().withFixedSeed(SEED).withExamples(EXAMPLES).withShrinkCycles(50)
                .forAll(integers().between(0, BASES.size() - 1), integers().between(0, 200), integers().between(0, KINDS - 1))
                .checkAssert((base, site, kind) -> {
                    String yaml = mutate(base, site, kind);
                    if (yaml == null) return;
                    try {
                        ranRefused[loadAndRun(yaml) ? 0 : 1]++;
                    } catch (RuntimeException | StackOverflowError e) {
                        throw new AssertionError("not bad input but " + e + " for\n" + yaml, e);
                    }
                });
        assertThat(ranRefused[0]).as("some mutated scenarios ran").isPositive();
        assertThat(ranRefused[1]).as("some were refused").isPositive();
    }
    /** Two mutations at once (a wrong value beside a deleted key, ...): the same rule. */
    @Test
    void twoMutationsRunOrAreRefusedAsBadInput() {
        qt().withFixedSeed(SEED + 2).withExamples(EXAMPLES / 2).withShrinkCycles(50)
                .forAll(integers().between(0, BASES.size() - 1), integers().between(0, 200 * KINDS - 1), integers().between(0, 200 * KINDS - 1))
                .checkAssert((base, first, second) -> {
                    String once = mutate(base, first / KINDS, first % KINDS);
                    String twice = once == null ? null : mutate(once, second / KINDS, second % KINDS);
                    if (twice == null) return;
                    try {
                        loadAndRun(twice);
                    } catch (RuntimeException | StackOverflowError e) {
                        throw new AssertionError("not bad input but " + e + " for\n" + twice, e);
                    }
                });
    }
}

package lbsim.experiment;

import lbsim.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class BadInputTest {
    static final String OK = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 1000}]}
            """;

    static AbstractThrowableAssert<?, ? extends Throwable> bad(String yaml, String... overrides) {
        return assertThatThrownBy(() -> Runner.run(ScenarioLoader.parse("bad.yaml", yaml, null, List.of(overrides), null),
                Runner.Progress.NONE)).isInstanceOf(BadInputException.class).hasMessageContaining("bad.yaml");
    }

    @Test
    void theBaseScenarioIsFine() {
        assertThat(Scenarios.run(OK).completed()).isTrue();
    }

    @Test
    void unknownKeysAreRefusedByName() {
        bad(OK.replace("spines: 2", "spines: 2, leafs: 3")).hasMessageContaining("topology.leafs")
                .hasMessageContaining("unknown key").hasMessageContaining("leaves");
        bad(OK + "colour: blue\n").hasMessageContaining("colour").hasMessageContaining("unknown key");
        bad(OK, "transport.pfcc=true").hasMessageContaining("transport.pfcc");
        bad(OK, "workload.flows[0]=1").hasMessageContaining("workload");
        bad(OK.replace("size_bytes: 1000", "size_bytes: 1000, prio: 3")).hasMessageContaining("workload.flows[0].prio");
        bad(OK + "failures: [{link: leaf0-spine0, kind: down, capacity_fraction: 0.5}]\n")
                .hasMessageContaining("failures[0].capacity_fraction");
    }

    @Test
    void badEnumValuesListTheAllowedOnes() {
        bad(OK, "transport.cc=reno").hasMessageContaining("transport.cc").hasMessageContaining("'reno'")
                .hasMessageContaining("dctcp").hasMessageContaining("dcqcn").hasMessageContaining("fixed-rate");
        bad(OK, "topology.kind=torus").hasMessageContaining("topology.kind").hasMessageContaining("leaf-spine")
                .hasMessageContaining("fat-tree");
        bad(OK, "load_balancer.scheme=magic").hasMessageContaining("load_balancer.scheme").hasMessageContaining("ecmp");
        bad(OK, "workload.kind=random").hasMessageContaining("workload.kind").hasMessageContaining("permutation")
                .hasMessageContaining("htsim-cm");
        bad(OK + "failures: [{link: leaf0-spine0, kind: melt}]\n").hasMessageContaining("failures[0].kind")
                .hasMessageContaining("down").hasMessageContaining("degrade").hasMessageContaining("flaky");
        bad(OK, "transport.loss_recovery=magic").hasMessageContaining("transport.loss_recovery")
                .hasMessageContaining("go-back-n");
        bad(OK, "transport.pfc=maybe").hasMessageContaining("transport.pfc").hasMessageContaining("true or false");
    }

    @Test
    void missingWorkloadIsNamed() {
        bad("topology: {kind: leaf-spine}\n").hasMessageContaining("workload").hasMessageContaining("missing")
                .hasMessageContaining("flows");
        bad(OK.replace("size_bytes: 1000", "bytes: 1000")).hasMessageContaining("size_bytes");
        bad("workload: {kind: htsim-cm}\n").hasMessageContaining("workload.file").hasMessageContaining("missing");
        bad("workload: {kind: htsim-cm, file: /nonexistent/x.cm}\n").hasMessageContaining("workload.file")
                .hasMessageContaining("/nonexistent/x.cm");
    }

    @Test
    void outOfRangeNumbersAreRefused() {
        bad(OK, "topology.leaves=0").hasMessageContaining("topology.leaves").hasMessageContaining("out of range");
        bad(OK, "topology.mtu_bytes=10").hasMessageContaining("topology.mtu_bytes").hasMessageContaining("out of range");
        bad(OK, "topology.link_gbps=-5").hasMessageContaining("topology.link_gbps").hasMessageContaining("out of range");
        bad(OK, "transport.timeout_us=0").hasMessageContaining("transport.timeout_us");
        bad(OK, "transport.timeout_backoff=0.5").hasMessageContaining("transport.timeout_backoff").hasMessageContaining("out of range");
        bad(OK, "transport.timeout_max_us=-1").hasMessageContaining("transport.timeout_max_us").hasMessageContaining("out of range");
        bad(OK, "transport.timeout_us=1000", "transport.timeout_max_us=500").hasMessageContaining("transport.timeout_max_us")
                .hasMessageContaining("timeout_us (1000)").hasMessageContaining("0 (no cap)");
        bad(OK, "max_time_ms=0").hasMessageContaining("max_time_ms");
        bad(OK, "topology.spines=many").hasMessageContaining("topology.spines").hasMessageContaining("integer");
        bad(OK.replace("dst: 2", "dst: 9")).hasMessageContaining("workload.flows[0].dst").hasMessageContaining("9");
        bad(OK.replace("dst: 2", "dst: 0")).hasMessageContaining("workload.flows[0].dst");
        bad(OK.replace("hosts_per_leaf: 2}", "hosts_per_leaf: 2, kind: fat-tree, k: 5}").replace("kind: leaf-spine, ", ""))
                .hasMessageContaining("topology");
        bad(OK.replace("{kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}", "{kind: fat-tree, k: 5}"))
                .hasMessageContaining("topology.k: 5").hasMessageContaining("even").hasMessageContaining("allowed")
                .hasMessageContaining("[2, 256]");
        bad(OK + "failures: [{link: leaf7-spine0}]\n").hasMessageContaining("failures[0].link").hasMessageContaining("leaf7-spine0");
        bad(OK, "switch.ecn_kmin_bytes=100", "switch.ecn_kmax_bytes=50").hasMessageContaining("switch.ecn_kmax_bytes");
        bad("- 1\n- 2\n").hasMessageContaining("mapping");
        bad("topology: {kind: [\n").hasMessageContaining("YAML");
    }

    @Test
    void integersBeyondTheirRangeAreOutOfRangeNotACrash() {
        // beyond 64 bits (Jackson reads these as BigInteger)
        bad(OK.replace("size_bytes: 1000", "size_bytes: 99999999999999999999")).hasMessageContaining("workload.flows[0].size_bytes")
                .hasMessageContaining("99999999999999999999").hasMessageContaining("out of range [1, ");
        bad(OK, "seed=-99999999999999999999").hasMessageContaining("seed").hasMessageContaining("out of range");
        bad(OK, "topology.leaves=99999999999999999999").hasMessageContaining("topology.leaves").hasMessageContaining("out of range");
        bad(OK, "topology.leaves='99999999999999999999'").hasMessageContaining("topology.leaves").hasMessageContaining("expected an integer");
        bad(OK.replace("size_bytes: 1000", "size_bytes: 1000, after: [99999999999999999999]"))
                .hasMessageContaining("workload.flows[0].after[0]").hasMessageContaining("out of range");
        // whole floats beyond the range are refused with their value, not saturated to Long.MAX_VALUE
        bad(OK, "topology.leaves=1e30").hasMessageContaining("topology.leaves").hasMessageContaining("1.0E30 is out of range");
        bad(OK, "seed=.inf").hasMessageContaining("seed").hasMessageContaining("out of range");
        bad(OK, "topology.leaves=.nan").hasMessageContaining("topology.leaves").hasMessageContaining("integer");
        bad(OK, "topology.link_gbps=1e400").hasMessageContaining("topology.link_gbps").hasMessageContaining("out of range");
        bad(OK, "topology.link_gbps=99999999999999999999").hasMessageContaining("topology.link_gbps").hasMessageContaining("out of range");
        // whole floats within the range are still integers
        assertThat(ScenarioLoader.parse("ok.yaml", OK, null, List.of("topology.leaves=2.0"), null).topology().leaves()).isEqualTo(2);
    }

    @Test
    void quotedNumbersAndBooleansAreRefusedNotCoerced() {
        // the audit's case: each was accepted and echoed as text in scenario.resolved.yaml
        bad(OK.replace("leaves: 2", "leaves: '2'")).hasMessageContaining("bad.yaml: topology.leaves: expected an integer, got the text '2'");
        bad(OK.replace("spines: 2", "spines: 2, link_gbps: '100'")).hasMessageContaining("topology.link_gbps: expected a number, got the text '100'");
        bad(OK + "transport: {pfc: 'true'}\n").hasMessageContaining("transport.pfc: expected true or false, got the text 'true'");
        // byte counts are the exception: they are text with a unit (64MiB), so a quoted '1000' is 1000 bytes (ByteSizeKeysTest)
        bad(OK.replace("size_bytes: 1000", "size_bytes: \"1000x\"")).hasMessageContaining("workload.flows[0].size_bytes: '1000x': unknown unit 'x'");
        bad(OK.replace("size_bytes: 1000", "size_bytes: 1000, after: ['0']")).hasMessageContaining("workload.flows[0].after[0]: expected an integer");
        bad(OK + "load_balancer: {scheme: reps, entropies: '64'}\n").hasMessageContaining("load_balancer.entropies: expected an integer");
        // as pfc: yes and leaves: 2.5 already were
        bad(OK + "transport: {pfc: yes}\n").hasMessageContaining("transport.pfc: expected true or false");
        bad(OK.replace("leaves: 2", "leaves: 2.5")).hasMessageContaining("topology.leaves: expected an integer");
        // --set values are YAML too: a quoted value is text there as well
        bad(OK, "topology.leaves='4'").hasMessageContaining("topology.leaves: expected an integer, got the text '4'");
    }

    @Test
    void wholeFloatsAreIntegersAndAreRecordedAsIntegers() {
        Scenario sc = ScenarioLoader.parse("ok.yaml", "seed: 1e3\n" + OK.replace("size_bytes: 1000", "size_bytes: 1e5, after: []"), null,
                List.of("topology.leaves=2.0"), null);
        assertThat(sc.seed()).isEqualTo(1000);
        assertThat(sc.topology().leaves()).isEqualTo(2);
        String resolved = ScenarioLoader.toYaml(sc.resolved());
        assertThat(resolved).contains("seed: 1000\n").contains("leaves: 2\n").contains("size_bytes: 100000\n")
                .doesNotContain("seed: 1000.0").doesNotContain("leaves: 2.0").doesNotContain("size_bytes: 100000.0");
        Scenario two = ScenarioLoader.parse("ok.yaml", OK.replace("size_bytes: 1000}", "size_bytes: 1000}, {src: 1, dst: 3, size_bytes: 9, after: [0.0]}"),
                null, List.of(), null);
        assertThat(ScenarioLoader.toYaml(two.resolved())).contains("after:\n    - 0\n");
    }

    @Test
    void aLinkOverrideThatSetsNothingIsRefused() {
        bad(OK.replace("hosts_per_leaf: 2}", "hosts_per_leaf: 2, link_overrides: [{links: leaf0-spine0}]}"))
                .hasMessageContaining("bad.yaml: topology.link_overrides[0].links: 'leaf0-spine0'")
                .hasMessageContaining("needs gbps or latency_ns");
        bad(OK.replace("hosts_per_leaf: 2}", "hosts_per_leaf: 2, link_overrides: [{links: leaf0-spine0, gbps: 50}, {links: 'leaf1-*', gbps: -1}]}"))
                .hasMessageContaining("topology.link_overrides[1].links").hasMessageContaining("needs gbps or latency_ns");
        assertThat(Scenarios.parse(OK.replace("hosts_per_leaf: 2}", "hosts_per_leaf: 2, link_overrides: [{links: leaf0-spine0, latency_ns: 0}]}"))
                .topology().overrides()).hasSize(1);
    }

    @Test
    void workloadsTheFabricOrTheClockCannotHoldAreRefused() {
        bad("topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 1}\nworkload: {kind: permutation}\n")
                .hasMessageContaining("workload").hasMessageContaining("at least 2 hosts").hasMessageContaining("1");
        // a start plus its jitter must fit in a long of picoseconds
        bad(OK.replace("size_bytes: 1000", "size_bytes: 1000, start_ns: 9000000000000000"))
                .hasMessageContaining("workload.flows[0].start_ns").hasMessageContaining("out of range");
        bad(OK.replace("kind: flows,", "kind: flows, start_jitter_ns: 9000000000000000,"))
                .hasMessageContaining("workload.start_jitter_ns").hasMessageContaining("out of range");
    }

    @Test
    void aBufferThatCannotHoldOneFullDataPacketIsRefused() {
        // MTU 4096 + header 64 = 4160 bytes on the wire; below that every full packet is dropped or trimmed forever
        bad(OK, "topology.port_buffer_bytes=4000", "transport.pfc=false", "transport.loss_recovery=trim")
                .hasMessageContaining("topology.port_buffer_bytes").hasMessageContaining("4000").hasMessageContaining("at least 4160");
        bad(OK, "topology.port_buffer_bytes=4000").hasMessageContaining("topology.port_buffer_bytes").hasMessageContaining("4160");
        bad(OK, "topology.switch_buffer_bytes=1000").hasMessageContaining("topology.switch_buffer_bytes")
                .hasMessageContaining("1000").hasMessageContaining("at least 4160");
        bad(OK, "topology.switch_buffer_bytes=5000", "transport.header_bytes=1000").hasMessageContaining("at least 5096");
        bad(OK, "topology.switch_buffer_bytes=5000", "topology.mtu_bytes=8192").hasMessageContaining("at least 8256");
        // drop-tail: a port may use alpha x the free buffer
        bad(OK, "topology.switch_buffer_bytes=8000", "switch.alpha=0.5", "transport.pfc=false")
                .hasMessageContaining("topology.switch_buffer_bytes").hasMessageContaining("switch.alpha").hasMessageContaining("at least 8320");
        // exactly one packet is enough; with PFC the dynamic egress threshold does not apply
        ScenarioLoader.parse("ok.yaml", OK, null, List.of("topology.switch_buffer_bytes=4160"), null);
        ScenarioLoader.parse("ok.yaml", OK, null, List.of("topology.port_buffer_bytes=4160", "transport.pfc=false"), null);
        ScenarioLoader.parse("ok.yaml", OK, null, List.of("topology.switch_buffer_bytes=8000", "switch.alpha=0.5"), null);
        ScenarioLoader.parse("ok.yaml", OK, null, List.of("topology.switch_buffer_bytes=8320", "switch.alpha=0.5", "transport.pfc=false"), null);
    }

    @Test
    void aReductionTooSlowForTheClockIsRefusedNotACrash() {
        // 1e-300 GB/s made the reduction gap overflow the picosecond clock: "event in the past", exit 1
        String ring = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}\n"
                + "workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 100000, reduce_gbps: %s}\n";
        bad(ring.formatted("1e-300")).hasMessageContaining("workload.reduce_gbps").hasMessageContaining("too slow")
                .hasMessageContaining("at least 1.0E-10");
        assertThat(Scenarios.run(ring.formatted("1")).completed()).isTrue();
    }

    @Test
    void yamlAliasesAreRefusedNotReadAsText() {
        // an alias used to arrive as its own name: `name: *x` named the run "x"
        bad("name: &x run1\n" + OK + "seed: *x\n").hasMessageContaining("line 4: YAML aliases (*x) are not supported");
        bad("name: *x\n" + OK).hasMessageContaining("bad.yaml");
        bad(OK.replace("topology: {", "topology: &t {") + "load_balancer: *t\n").hasMessageContaining("line 3: YAML aliases (*t)");
        assertThatThrownBy(() -> SweepSpec.parse("sweep.yaml", "name: &n a\nbase: {name: *n}\n", null, List.of()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("sweep.yaml: line 2: YAML aliases (*n)");
        // an anchor alone changes nothing; an ampersand or asterisk inside a quoted value is text
        assertThat(ScenarioLoader.parse("ok.yaml", "name: &x run1\n" + OK, null, List.of(), null).name()).isEqualTo("run1");
        assertThat(ScenarioLoader.parse("ok.yaml", "name: \"a&b*c\"\n" + OK, null, List.of(), null).name()).isEqualTo("a&b*c");
    }

    @Test
    void aKeyGivenTwiceInAMappingIsRefusedNotLastWins() {
        bad(OK + "topology: {kind: fat-tree, k: 4}\n").hasMessageContaining("bad.yaml: line 3: topology: duplicate key");
        bad(OK.replace("spines: 2", "spines: 2, spines: 4")).hasMessageContaining("line 1: topology.spines: duplicate key");
        bad(OK + "failures:\n  - {link: leaf0-spine0}\n  - link: leaf0-spine1\n    link: leaf1-spine1\n")
                .hasMessageContaining("line 6: failures[1].link: duplicate key");
        assertThatThrownBy(() -> ScenarioLoader.parse("bad.yaml", OK, null, List.of("load_balancer={scheme: ecmp, scheme: reps}"), null))
                .isInstanceOf(BadInputException.class).hasMessageContaining("--set").hasMessageContaining("load_balancer.scheme: duplicate key");
    }

    @Test
    void aNameThatIsNotOneFolderInsideOutIsRefused() {
        for (String name : List.of("\"\"", "\" \"", ".", "..", "../escaped", "a/b", "'a\\b'", "\"a\\tb\"")) {
            bad("name: " + name + "\n" + OK).hasMessageContaining("bad.yaml: name: ").hasMessageContaining("not allowed")
                    .hasMessageContaining("out/NAME").hasMessageContaining("'/'");
        }
        for (String name : List.of("a..b", "..x", "my run", "run-1.5")) {
            assertThat(ScenarioLoader.parse("ok.yaml", "name: \"" + name + "\"\n" + OK, null, List.of(), null).name()).isEqualTo(name);
        }
    }

    @Test
    void hierarchicalCollectivesNeedWholeServersSaidInScenarioTerms() {
        String yaml = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 16}\n"
                + "workload: {kind: collective, algorithm: hierarchical, size_bytes: 100000}\n";
        for (String ranks : List.of("12", "8")) {
            bad(yaml, "workload.ranks=" + ranks).hasMessageContaining("workload.ranks").hasMessageContaining("servers of 8 GPUs")
                    .hasMessageContaining("multiple of 8").hasMessageContaining("got " + ranks).message().doesNotContain("ranksPerServer");
        }
        bad(yaml, "workload.ranks=12", "workload.jobs=2").hasMessageContaining("got 12 per job");
        assertThat(Scenarios.run(yaml, "workload.ranks=16").completed()).isTrue();
    }

    @Test
    void afterNamesOnlyEarlierFlows() {
        bad(OK.replace("size_bytes: 1000", "size_bytes: 1000, after: [5]")).hasMessageContaining("workload.flows[0].after")
                .hasMessageContaining("the first flow cannot wait for any flow").message().doesNotContain("0..-1");
        bad(OK.replace("size_bytes: 1000}", "size_bytes: 1000}, {src: 1, dst: 2, size_bytes: 1000, after: [1]}"))
                .hasMessageContaining("workload.flows[1].after").hasMessageContaining("flow index 1 must name an earlier flow (0..0)");
    }

    /** A timer shorter than one packet's serialisation could never let a flow finish: exit 2; one below the base RTT warns. */
    @Test
    void aTimerNoPacketCanBeatIsRefusedAndOneBelowTheRttWarned() {
        bad(OK, "topology.link_gbps=1", "topology.mtu_bytes=4096", "transport.timeout_us=10")
                .hasMessageContaining("transport.timeout_us").hasMessageContaining("shorter than one packet's serialisation");
        bad(OK, "topology.link_gbps=1", "topology.mtu_bytes=4096", "transport.loss_recovery=irn", "transport.irn_rto_high_us=10")
                .hasMessageContaining("transport.irn_rto_high_us");
        var r = Runner.run(ScenarioLoader.parse("ok.yaml", OK, null, List.of("transport.timeout_us=1"), null), Runner.Progress.NONE);
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("transport.timeout_us 1.0 us is below the fabric's base RTT"));
        var fine = Runner.run(ScenarioLoader.parse("ok.yaml", OK, null, List.of("transport.timeout_us=1000"), null), Runner.Progress.NONE);
        assertThat(fine.warnings()).noneMatch(w -> w.contains("base RTT"));
    }

    /** nic.rx_buffer_bytes: a byte count of 0 (unbounded) or more; anything else names the key. */
    @Test
    void nicReceiveBufferIsANonNegativeByteCount() {
        bad(OK, "nic.rx_buffer_bytes=-1").hasMessageContaining("nic.rx_buffer_bytes").hasMessageContaining("out of range");
        bad(OK, "nic.rx_buffer_bytes=lots").hasMessageContaining("nic.rx_buffer_bytes");
        bad(OK, "nic.rx_buffer_bytes=1.5").hasMessageContaining("nic.rx_buffer_bytes");
        assertThat(ScenarioLoader.parse("ok.yaml", OK, null, List.of("nic.rx_buffer_bytes=0"), null).nic().rxBufferBytes()).isZero();
        assertThat(ScenarioLoader.parse("ok.yaml", OK, null, List.of(), null).nic().rxBufferBytes()).isEqualTo(262_016);
        assertThat(ScenarioLoader.parse("ok.yaml", OK, null, List.of("nic.rx_buffer_bytes=65536"), null).nic().rxBufferBytes())
                .isEqualTo(65_536);
    }

    /** nic.adaptive_retransmission (NVIDIA ADP): every bad value names its key and what is allowed. */
    @Test
    void adaptiveRetransmissionRefusesBadValuesByName() {
        String on = "nic.adaptive_retransmission=true";
        bad(OK, "nic.adp_first_timeout_min_us=16").hasMessageContaining("nic.adp_first_timeout_min_us")
                .hasMessageContaining("adaptive_retransmission: true");
        bad(OK, "nic.adaptive_retransmission=maybe").hasMessageContaining("nic.adaptive_retransmission").hasMessageContaining("true or false");
        bad(OK, on, "nic.adp_first_timeout_min_us=2").hasMessageContaining("nic.adp_first_timeout_min_us").hasMessageContaining("out of range");
        bad(OK, on, "nic.adp_first_timeout_max_us=100").hasMessageContaining("nic.adp_first_timeout_max_us")
                .hasMessageContaining("power of 2").hasMessageContaining("16, 32, 64");
        bad(OK, on, "nic.adp_first_timeout_min_us=32", "nic.adp_first_timeout_max_us=16").hasMessageContaining("nic.adp_first_timeout_max_us");
        bad(OK, on, "nic.adp_retries_per_timeout=0").hasMessageContaining("nic.adp_retries_per_timeout").hasMessageContaining("out of range");
        bad(OK, on, "nic.adp_decrement=slowly").hasMessageContaining("nic.adp_decrement").hasMessageContaining("halve, quarter, reset");
        bad(OK, on, "transport.loss_recovery=irn").hasMessageContaining("nic.adaptive_retransmission").hasMessageContaining("irn");
        bad(OK, on, "transport.timeout_backoff=2").hasMessageContaining("transport.timeout_backoff").hasMessageContaining("adaptive");
        bad(OK, on, "transport.timeout_max_us=100000").hasMessageContaining("transport.timeout_max_us");
        bad(OK, on, "transport.timeout_us=100").hasMessageContaining("transport.timeout_us").hasMessageContaining("adp_first_timeout_max_us (128)");
        assertThat(Runner.run(ScenarioLoader.parse("ok.yaml", OK, null, List.of(on, "transport.timeout_us=128"), null),
                Runner.Progress.NONE).completed()).isTrue();
    }
}

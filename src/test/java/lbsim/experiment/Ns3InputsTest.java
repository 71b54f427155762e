package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.BadInputException;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import lbsim.topology.Tier;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ns-3 HPCC / ConWeave topology.txt and flow.txt, read as those tools write them. */
class Ns3InputsTest {
    @TempDir
    Path tmp;

    private Path write(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private Scenario scenario(String yaml) {
        return ScenarioLoader.parse(tmp.resolve("s.yaml").toString(), yaml, tmp, List.of(), null);
    }

    private static String bytes(RunResult r, Path dir) throws Exception {
        ResultWriter.write(r, dir);
        return Files.readString(dir.resolve("flows.csv")) + Files.readString(dir.resolve("links.csv"));
    }

    @Test
    void theExampleTopologyReadsAsALeafSpine() {
        Scenario sc = ScenarioLoader.load(Path.of("examples/ns3-flows-leafspine.yaml"), List.of(), null);
        Topology t = sc.topology().build(sc.file());
        assertThat(t.hostCount()).isEqualTo(8);
        assertThat(t.nodeName(t.hostTor(5))).isEqualTo("s9");
        assertThat(t.tier(t.nodeId("s10"))).isEqualTo(Tier.AGG);
        assertThat(t.hostRateBps(0)).isEqualTo(100_000_000_000L);
        assertThat(t.portLatencyPs(t.hostPort(0))).isEqualTo(1_000_000);
        assertThat(t.routing().pathIds(0, 5)).hasSize(2);
        RunResult r = Runner.run(sc, Runner.Progress.NONE);
        assertThat(r.completed()).isTrue();
        assertThat(r.flows()).hasSize(16);
        assertThat(r.flows().get(0).startNs()).isZero();   // time_origin: first-flow
    }

    /** The same fabric as an ns-3 file and as a topology file with the same names runs to the same bytes. */
    @Test
    void anNs3TopologyRunsAsTheSameTopologyFile() throws Exception {
        String work = "workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 300000}, {src: 1, dst: 2, size_bytes: 200000}]}\n";
        // every delay form ns-3 writes (1us, 1000ns, 0.001ms, plain seconds) and a note after the declared links
        write("topo.txt", "6 3 5\n3 4 5\n0 4 100Gbps 1us 0\n1 4 100Gbps 1000ns 0\n2 5 40Gbps 0.001ms 0\n4 3 100Gbps 1000ns 0.0\n"
                + "5 3 100Gbps 0.000001 0\nnotes after the declared links are not read\n");
        write("topo.yaml", "hosts: [h0, h1, h2]\nswitches: [s3, s4, s5]\nlink_gbps: 100\nlink_latency_ns: 1000\nlinks:\n"
                + "  - {a: h0, b: s4}\n  - {a: h1, b: s4}\n  - {a: h2, b: s5, gbps: 40}\n  - {a: s4, b: s3}\n  - {a: s5, b: s3}\n");
        RunResult ns3 = Runner.run(scenario("topology: {kind: ns3, file: topo.txt}\n" + work), Runner.Progress.NONE);
        RunResult file = Runner.run(scenario("topology: {kind: file, file: topo.yaml}\n" + work), Runner.Progress.NONE);
        assertThat(ns3.completed()).isTrue();
        assertThat(bytes(ns3, tmp.resolve("a"))).isEqualTo(bytes(file, tmp.resolve("b")));
    }

    /** flow.txt on a generated fabric is the same traffic as the equivalent explicit flow list. */
    @Test
    void anNs3FlowFileRunsAsTheSameExplicitFlows() throws Exception {
        write("flow.txt", "3\n0 5 3 100 250000 2.0\n4 1 3 100 64000 2.000001\n2 7 3 15000 2.0000025\n");
        String topo = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n";
        RunResult ns3 = Runner.run(scenario(topo + "workload: {kind: ns3-flows, file: flow.txt, time_origin: first-flow}\n"),
                Runner.Progress.NONE);
        RunResult flows = Runner.run(scenario(topo + "workload: {kind: flows, flows: [{src: 0, dst: 5, size_bytes: 250000},"
                + " {src: 4, dst: 1, size_bytes: 64000, start_ns: 1000}, {src: 2, dst: 7, size_bytes: 15000, start_ns: 2500}]}\n"),
                Runner.Progress.NONE);
        assertThat(bytes(ns3, tmp.resolve("a"))).isEqualTo(bytes(flows, tmp.resolve("b")));
        // as written, the first flow starts at 2 s
        Scenario asIs = scenario(topo + "max_time_ms: 3000\nworkload: {kind: ns3-flows, file: flow.txt}\n");
        assertThat(Runner.run(asIs, Runner.Progress.NONE).flows().get(0).startNs()).isEqualTo(2_000_000_000L);
    }

    @Test
    void linesAfterTheDeclaredFlowsAreAWarningNotRead() throws Exception {
        write("flow.txt", "1\n0 5 3 100 25000 0\n1 5 3 100 25000 0\n\nFirst line: # of flows\n");
        RunResult r = Runner.run(scenario("topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
                + "workload: {kind: ns3-flows, file: flow.txt}\n"), Runner.Progress.NONE);
        assertThat(r.flows()).hasSize(1);
        assertThat(r.warnings()).anyMatch(w -> w.contains("declares 1 flows") && w.contains("the 2 non-blank lines after them"));
    }

    @Test
    void ratesAndDelaysReadAsNs3WritesThem() {
        assertThat(Ns3Topology.rateBps("f", 0, "100Gbps", "")).isEqualTo(100_000_000_000L);
        assertThat(Ns3Topology.rateBps("f", 0, "400Gb/s", "")).isEqualTo(400_000_000_000L);
        assertThat(Ns3Topology.rateBps("f", 0, "25Mbps", "")).isEqualTo(25_000_000L);
        assertThat(Ns3Topology.rateBps("f", 0, "10kbps", "")).isEqualTo(10_000L);
        assertThat(Ns3Topology.rateBps("f", 0, "12.5GBps", "")).isEqualTo(100_000_000_000L);   // B: bytes per second
        assertThat(Ns3Topology.delayPs("f", 0, "0.001ms", "")).isEqualTo(1_000_000L);
        assertThat(Ns3Topology.delayPs("f", 0, "1000ns", "")).isEqualTo(1_000_000L);
        assertThat(Ns3Topology.delayPs("f", 0, "1us", "")).isEqualTo(1_000_000L);
        assertThat(Ns3Topology.delayPs("f", 0, "0.000001", "")).isEqualTo(1_000_000L);       // no unit: seconds
        assertThat(Ns3Topology.delayPs("f", 0, "500ps", "")).isEqualTo(500L);
    }

    private void badTopology(String text, String... fragments) throws Exception {
        Path p = write("bad.txt", text);
        assertThatThrownBy(() -> scenario("topology: {kind: ns3, file: bad.txt}\nworkload: {kind: permutation}\n"))
                .as(text).isInstanceOf(BadInputException.class).hasMessageContaining(p + ": ").hasMessageContaining(fragments[0])
                .hasMessageContaining(fragments.length > 1 ? fragments[1] : "");
    }

    @Test
    void malformedTopologiesNameTheFileTheLineAndTheExpectation() throws Exception {
        String ok = "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n";
        badTopology("3 1\n2\n", "line 1: expected 'NODES SWITCHES LINKS'");
        badTopology(ok.replace("0 2 100Gbps", "0 2 100Gbit"), "line 3: RATE '100Gbit'", "100Gbps");
        badTopology(ok.replace("1 2 100Gbps 1000ns 0", "1 2 100Gbps 1000ns 0.001"), "line 4: ERROR_RATE 0.001", "failures");
        badTopology(ok.replace("1 2 100Gbps 1000ns 0", "1 2 100Gbps 1000furlongs 0"), "line 4: DELAY '1000furlongs'");
        badTopology(ok.replace("1 2 100Gbps 1000ns 0\n", ""), "ends after 1 of the 2 links", "SRC DST RATE DELAY ERROR_RATE");
        badTopology(ok.replace("0 2 100Gbps", "0 7 100Gbps"), "line 3: node 7 does not exist");
        badTopology(ok.replace("\n2\n", "\n2 2\n"), "line 2: more switch ids than SWITCHES 1");
        badTopology(ok.replace("0 2 100Gbps 1000ns 0", "0 2 100Gbps 1000ns"), "line 3: expected 'SRC DST RATE DELAY ERROR_RATE'");
        badTopology(ok.replace("1 2 100Gbps", "0 2 100Gbps"), "host h0 has 2 links");
    }

    private void badFlows(String text, String... fragments) throws Exception {
        Path p = write("bad-flow.txt", text);
        assertThatThrownBy(() -> Runner.run(scenario("topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
                + "workload: {kind: ns3-flows, file: bad-flow.txt}\n"), Runner.Progress.NONE))
                .as(text).isInstanceOf(BadInputException.class).hasMessageContaining(p + ": ").hasMessageContaining(fragments[0])
                .hasMessageContaining(fragments.length > 1 ? fragments[1] : "");
    }

    @Test
    void malformedFlowFilesNameTheFileTheLineAndTheExpectation() throws Exception {
        badFlows("two\n", "line 1: expected the flow count");
        badFlows("2\n0 5 3 100 1000 0\n", "line 1 declares 2 flows but the file has 1", "SRC DST PRIORITY DPORT SIZE START_S");
        badFlows("1\n0 5 3 100 1k 0\n", "line 2: SIZE '1k'");
        badFlows("1\n0 5 100 1000\n", "line 2: expected 'SRC DST PRIORITY DPORT SIZE START_S'");
        badFlows("1\n5 5 3 100 1000 0\n", "line 2: SRC and DST are the same node (5)");
        badFlows("1\n0 5 3 100 0 0\n", "line 2: SIZE '0' must be a whole number of bytes >= 1");
        badFlows("1\n0 5 3 100 1000 soon\n", "line 2: START 'soon' is not a time in seconds");
        badFlows("1\n0 9 3 100 1000 0\n", "line 2: node 9 is not a host of the fabric", "h0 .. h7");
        assertThatThrownBy(() -> scenario("topology: {kind: leaf-spine}\nworkload: {kind: ns3-flows, file: none.txt}\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("workload.file: cannot read 'none.txt'");
    }
}

package lbsim.workload.chakra;

import static lbsim.workload.chakra.TraceWriter.collective;
import static lbsim.workload.chakra.TraceWriter.comp;
import static lbsim.workload.chakra.TraceWriter.recv;
import static lbsim.workload.chakra.TraceWriter.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import lbsim.transport.FlowSpec;
import lbsim.workload.FlowGraph;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import lbsim.workload.chakra.et.ExecutionTrace.Node;
import lbsim.workload.collective.Placement;
import lbsim.workload.training.CollectiveOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decoding Chakra's length-delimited records, the trace checks, and how nodes become flows and delays. */
class ChakraTraceTest {
    static final long US = 1_000_000L;

    @TempDir
    Path dir;

    static List<RankTrace> decode(TraceWriter t) throws TraceFormatException {
        RankTrace[] out = new RankTrace[t.ranks()];
        for (int r = 0; r < out.length; r++) out[r] = TraceFiles.decode(Path.of("t." + r + ".et"), r, t.bytes(r));
        return List.of(out);
    }

    static ChakraWorkload.Result lower(TraceWriter t, FlowGraph g) throws TraceFormatException {
        return ChakraWorkload.append(g, decode(t), Placement.contiguous(t.ranks()), "ring", CollectiveOptions.defaults());
    }

    @Test
    void recordsRoundTripThroughTheFiles() throws Exception {
        TraceWriter t = TraceWriter.loweredRing(3, 3000, 2);
        Path prefix = t.write(dir, "ring");
        List<RankTrace> read = ChakraTraces.read(prefix);
        assertThat(read).hasSize(3);
        for (int r = 0; r < 3; r++) {
            assertThat(read.get(r).rank()).isEqualTo(r);
            assertThat(read.get(r).metadata().getVersion()).isEqualTo("0.0.4");
            assertThat(read.get(r).nodes()).isEqualTo(decode(t).get(r).nodes());
            assertThat(read.get(r).nodes()).hasSize(2 * 2 * 2 + 2);
        }
        // a folder holding one trace names it too
        assertThat(ChakraTraces.read(dir)).hasSize(3);
    }

    @Test
    void astraSimsFileDecodesAsItsReadmeSays() throws Exception {
        Path f = Path.of("../shared/reference/chakra-traces/all_reduce_8npus_1MB/all_reduce.0.et");
        Assumptions.assumeTrue(Files.exists(f), "../shared/reference/chakra-traces is absent");
        RankTrace t = TraceFiles.read(f, 0);
        assertThat(t.metadata().getVersion()).isEqualTo("0.0.4");
        Node n = t.nodes().get(0);
        assertThat(n.getName()).isEqualTo("all_reduce_8npus_1MB");
        assertThat(n.getAttrList()).extracting(a -> a.getName()).containsExactly("is_cpu_op", "comm_type", "comm_size");
        assertThat(n.getAttr(2).getInt64Val()).isEqualTo(1 << 20);
    }

    @Test
    void aTruncatedFileNamesTheFileTheRecordAndWhatWasExpected() {
        byte[] whole = TraceWriter.loweredRing(2, 2000, 0).bytes(0);
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        assertThatThrownBy(() -> TraceFiles.decode(Path.of("x.0.et"), 0, cut))
                .hasMessageContaining("x.0.et: record 4 (byte ")
                .hasMessageContaining("the length prefix says");
        byte[] varint = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertThatThrownBy(() -> TraceFiles.decode(Path.of("v.0.et"), 0, varint))
                .hasMessageContaining("v.0.et: record 0 (byte 0): expected a varint length prefix");
        byte[] badNode = Arrays.copyOf(whole, whole.length + 3);
        // a 2-byte record whose only field says it holds 5 bytes of name
        badNode[whole.length] = 2;
        badNode[whole.length + 1] = 0x12;
        badNode[whole.length + 2] = 5;
        assertThatThrownBy(() -> TraceFiles.decode(Path.of("n.0.et"), 0, badNode))
                .hasMessageContaining("n.0.et: record 5 (byte " + whole.length + ", 2 bytes): expected an execution-trace node");
        assertThatThrownBy(() -> TraceFiles.decode(Path.of("e.0.et"), 0, new byte[0]))
                .hasMessageContaining("e.0.et: record 0: expected the trace's metadata record");
    }

    @Test
    void missingRanksAndAmbiguousFoldersAreRefused() throws Exception {
        TraceWriter t = TraceWriter.singleCollective(3, CollectiveKind.ALL_REDUCE, 1000);
        t.write(dir, "a");
        Files.delete(dir.resolve("a.1.et"));
        assertThatThrownBy(() -> ChakraTraces.read(dir.resolve("a"))).hasMessageContaining("a.1.et: missing");
        t.write(dir, "b");
        assertThatThrownBy(() -> ChakraTraces.read(dir)).hasMessageContaining("holds 2 traces (a, b)");
        assertThatThrownBy(() -> ChakraTraces.read(dir.resolve("c"))).hasMessageContaining("no Chakra trace files c.0.et");
    }

    @Test
    void unknownNodeTypesAndUnsupportedCollectivesAreErrorsNamingTheRecord() {
        TraceWriter t = new TraceWriter(2);
        t.add(0, comp("c", 1));
        t.add(0, Node.newBuilder().setName("odd").setTypeValue(42));
        t.add(1, comp("c", 1));
        assertThatThrownBy(() -> lower(t, new FlowGraph())).hasMessageContaining("t.0.et: record 2 (node 1 'odd'): node type 42 (unknown)")
                .hasMessageContaining("expected COMP_NODE (4)");
        TraceWriter g = TraceWriter.singleCollective(2, CollectiveKind.GATHER, 100);
        assertThatThrownBy(() -> lower(g, new FlowGraph())).hasMessageContaining("t.0.et: record 1 (node 0 'coll'): comm_type 3 (GATHER)")
                .hasMessageContaining("0 (ALL_REDUCE)");
        TraceWriter noSize = new TraceWriter(2);
        for (int r = 0; r < 2; r++) noSize.add(r, Node.newBuilder().setName("x").setType(lbsim.workload.chakra.et.ExecutionTrace.NodeKind.COMM_COLL_NODE)
                .addAttr(TraceWriter.int64("comm_type", 0)));
        assertThatThrownBy(() -> lower(noSize, new FlowGraph())).hasMessageContaining("attribute comm_size is missing");
    }

    @Test
    void unknownAttributesAndMemoryNodesAreNamedInWarnings() throws Exception {
        TraceWriter t = TraceWriter.singleCollective(2, CollectiveKind.ALL_REDUCE, 4000);
        t.add(0, collective("c2", CollectiveKind.ALL_REDUCE, 4000, 0).addAttr(TraceWriter.string("involved_dim", "1,1")));
        t.add(1, collective("c2", CollectiveKind.ALL_REDUCE, 4000, 0).addAttr(TraceWriter.string("involved_dim", "1,1")));
        t.add(1, Node.newBuilder().setName("load").setType(lbsim.workload.chakra.et.ExecutionTrace.NodeKind.MEM_LOAD_NODE).setDurationMicros(3));
        ChakraWorkload.Result r = lower(t, new FlowGraph());
        assertThat(r.collectives()).hasSize(2);
        assertThat(r.warnings()).containsExactly(
                "chakra trace: attribute 'involved_dim' is not read by lbsim, on 2 nodes (first: t.0.et: record 2 (node 1 'c2'))",
                "chakra trace: MEM_LOAD_NODE runs as a delay of its duration_micros only, on 1 node (first: t.1.et: record 3 (node 2 'load'))");
    }

    @Test
    void unmatchedSendsDanglingDependenciesDeadlocksAndDisagreeingCollectivesAreRefused() {
        TraceWriter lone = new TraceWriter(2);
        lone.add(0, send("s", 1, 100, 7));
        lone.add(1, recv("r", 0, 100, 8));
        assertThatThrownBy(() -> lower(lone, new FlowGraph())).hasMessageContaining("t.0.et: record 1 (node 0 's'): send to rank 1 with comm_tag 7 has no matching receive");

        TraceWriter dangling = new TraceWriter(2);
        dangling.add(0, comp("a", 1, 5));
        dangling.add(1, comp("b", 1));
        assertThatThrownBy(() -> lower(dangling, new FlowGraph())).hasMessageContaining("t.0.et: record 1 (node 0 'a'): depends on node 5, which t.0.et does not have");

        // each rank waits to receive before it sends: neither ever sends
        TraceWriter cycle = new TraceWriter(2);
        for (int r = 0; r < 2; r++) {
            long in = cycle.add(r, recv("r", 1 - r, 100, 0));
            cycle.add(r, send("s", 1 - r, 100, 0, in));
        }
        assertThatThrownBy(() -> lower(cycle, new FlowGraph())).hasMessageContaining("the trace deadlocks");

        TraceWriter disagree = new TraceWriter(2);
        disagree.add(0, collective("c", CollectiveKind.ALL_REDUCE, 100));
        disagree.add(1, collective("c", CollectiveKind.ALL_REDUCE, 200));
        assertThatThrownBy(() -> lower(disagree, new FlowGraph())).hasMessageContaining("t.1.et: record 1 (node 0 'c'): collective 0")
                .hasMessageContaining("ranks must agree");
    }

    /**
     * Rank 0 computes 10 us then sends to rank 1; rank 1 waits for that data and (control
     * dependency) its own 4 us of compute, computes 5 us more, then sends back: the flows start
     * at 10 us and 5 us after the first one's delivery.
     */
    @Test
    void computeBecomesDelaysAndBothDependencyKindsOrderNodes() throws Exception {
        TraceWriter t = new TraceWriter(2);
        long c0 = t.add(0, comp("fwd", 10));
        long s0 = t.add(0, send("s", 1, 5000, 0, c0));
        t.add(0, recv("back", 1, 6000, 0, s0));
        long pre = t.add(1, comp("pre", 4));
        long r1 = t.add(1, recv("r", 0, 5000, 0));
        long c1 = t.add(1, comp("bwd", 5, r1).addCtrlDeps(pre));
        t.add(1, send("back", 0, 6000, 0, c1));
        FlowGraph g = new FlowGraph();
        ChakraWorkload.Result r = lower(t, g);
        assertThat(r.collectives()).isEmpty();
        assertThat(g.flows()).hasSize(2);
        FlowSpec first = g.flows().get(0), second = g.flows().get(1);
        assertThat(first.src()).isZero();
        assertThat(first.startPs()).isEqualTo(10 * US);
        assertThat(first.afterCount()).isZero();
        assertThat(second.src()).isEqualTo(1);
        assertThat(second.sizeBytes()).isEqualTo(6000);
        assertThat(second.after()).containsExactly(first.id());
        // the 4 us of compute ran while rank 1 waited for the data: only the 5 us remain
        assertThat(second.gapPs()).isEqualTo(5 * US);
    }
}

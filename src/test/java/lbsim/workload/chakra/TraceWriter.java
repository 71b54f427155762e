package lbsim.workload.chakra;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.workload.chakra.et.ExecutionTrace.Attribute;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import lbsim.workload.chakra.et.ExecutionTrace.Metadata;
import lbsim.workload.chakra.et.ExecutionTrace.Node;
import lbsim.workload.chakra.et.ExecutionTrace.NodeKind;

/**
 * Test helper: builds small Chakra traces with the generated classes and writes them as
 * PREFIX.N.et files (length-delimited records, as Chakra's own tools write them).
 */
public final class TraceWriter {
    private final List<List<Node>> ranks = new ArrayList<>();

    public TraceWriter(int ranks) {
        for (int r = 0; r < ranks; r++) this.ranks.add(new ArrayList<>());
    }

    public int ranks() {
        return ranks.size();
    }

    /** Adds a node to rank r; its id is its index in the rank's file unless given. */
    public long add(int rank, Node.Builder node) {
        List<Node> list = ranks.get(rank);
        if (node.getId() == 0 && !list.isEmpty()) node.setId(list.size());
        list.add(node.build());
        return node.getId();
    }

    public static Node.Builder comp(String name, long micros, long... deps) {
        return base(name, NodeKind.COMP_NODE, deps).setDurationMicros(micros);
    }

    public static Node.Builder collective(String name, CollectiveKind kind, long bytes, long... deps) {
        return base(name, NodeKind.COMM_COLL_NODE, deps).addAttr(bool("is_cpu_op", false))
                .addAttr(int64("comm_type", kind.getNumber())).addAttr(int64("comm_size", bytes));
    }

    public static Node.Builder send(String name, int dst, long bytes, long tag, long... deps) {
        return base(name, NodeKind.COMM_SEND_NODE, deps).addAttr(int64("comm_type", NodeKind.COMM_SEND_NODE.getNumber()))
                .addAttr(int64("comm_size", bytes)).addAttr(int32("comm_dst", dst)).addAttr(int32("comm_tag", (int) tag));
    }

    public static Node.Builder recv(String name, int src, long bytes, long tag, long... deps) {
        return base(name, NodeKind.COMM_RECV_NODE, deps).addAttr(int64("comm_type", NodeKind.COMM_RECV_NODE.getNumber()))
                .addAttr(int64("comm_size", bytes)).addAttr(int32("comm_src", src)).addAttr(int32("comm_tag", (int) tag));
    }

    private static Node.Builder base(String name, NodeKind kind, long... deps) {
        Node.Builder b = Node.newBuilder().setName(name).setType(kind);
        for (long d : deps) b.addDataDeps(d);
        return b;
    }

    public static Attribute int64(String name, long v) {
        return Attribute.newBuilder().setName(name).setInt64Val(v).build();
    }

    public static Attribute int32(String name, int v) {
        return Attribute.newBuilder().setName(name).setInt32Val(v).build();
    }

    public static Attribute bool(String name, boolean v) {
        return Attribute.newBuilder().setName(name).setBoolVal(v).build();
    }

    public static Attribute string(String name, String v) {
        return Attribute.newBuilder().setName(name).setStringVal(v).build();
    }

    /** The bytes of rank r's file. */
    public byte[] bytes(int rank) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(out, ranks.get(rank));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void write(OutputStream out, List<Node> nodes) throws IOException {
        Metadata.newBuilder().setVersion("0.0.4").build().writeDelimitedTo(out);
        for (Node n : nodes) n.writeDelimitedTo(out);
    }

    /** Writes PREFIX.N.et for every rank into {@code dir}; returns dir/PREFIX. */
    public Path write(Path dir, String prefix) {
        try {
            Files.createDirectories(dir);
            for (int r = 0; r < ranks.size(); r++) Files.write(dir.resolve(prefix + "." + r + ".et"), bytes(r));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.resolve(prefix);
    }

    /** One collective node per rank, as ASTRA-sim's single-collective examples. */
    public static TraceWriter singleCollective(int ranks, CollectiveKind kind, long bytes) {
        TraceWriter t = new TraceWriter(ranks);
        for (int r = 0; r < ranks; r++) t.add(r, collective("coll", kind, bytes));
        return t;
    }

    /**
     * A ring all-reduce of {@code bytes} lowered to sends and receives, as the MSCCL-style
     * examples: rank r sends to r+1 and receives from r-1, 2(n-1) steps of bytes/n each, every
     * step after the previous one; each of the first n-1 receives is followed by a reduction of
     * {@code reduceMicros}.
     */
    public static TraceWriter loweredRing(int n, long bytes, long reduceMicros) {
        TraceWriter t = new TraceWriter(n);
        long chunk = bytes / n;
        for (int r = 0; r < n; r++) {
            long last = -1;
            for (int step = 0; step < 2 * (n - 1); step++) {
                long[] after = last < 0 ? new long[0] : new long[] {last};
                long s = t.add(r, send("send" + step, (r + 1) % n, chunk, 0, after));
                last = t.add(r, recv("recv" + step, (r + n - 1) % n, chunk, 0, s));
                if (step < n - 1 && reduceMicros > 0) last = t.add(r, comp("reduce" + step, reduceMicros, last));
            }
        }
        return t;
    }
}

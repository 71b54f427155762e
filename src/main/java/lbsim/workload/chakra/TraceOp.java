package lbsim.workload.chakra;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.workload.chakra.et.ExecutionTrace.Attribute;
import lbsim.workload.chakra.et.ExecutionTrace.CollectiveKind;
import lbsim.workload.chakra.et.ExecutionTrace.Node;

/**
 * One node of one rank, checked and reduced to what lbsim simulates: a delay, a collective, a
 * send or a receive, with its dependencies (data and control alike: both must finish first).
 */
record TraceOp(RankTrace trace, int index, Node node, Kind kind, String op, long sizeBytes, int peer, long tag, String group) {

    enum Kind { DELAY, COLLECTIVE, SEND, RECV }

    /** Attributes lbsim reads; any other is named in a warning. */
    static final List<String> KNOWN_ATTRIBUTES = List.of("comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag", "is_cpu_op", "pg_name");

    /** Chakra collective kinds lbsim runs, as lbsim op names (NCCL-tests sizes: Chakra's comm_size is the same S). */
    static final Map<CollectiveKind, String> OPS = Map.of(
            CollectiveKind.ALL_REDUCE, "all-reduce",
            CollectiveKind.REDUCE, "reduce",
            CollectiveKind.ALL_GATHER, "all-gather",
            CollectiveKind.BROADCAST, "broadcast",
            CollectiveKind.ALL_TO_ALL, "all-to-all",
            CollectiveKind.REDUCE_SCATTER, "reduce-scatter");

    /** Where the node is, for messages: "FILE: record I (node ID 'NAME')". */
    String where() {
        return where(trace, index, node);
    }

    static String where(RankTrace trace, int index, Node node) {
        return trace.file() + ": record " + (index + 1) + " (node " + Long.toUnsignedString(node.getId())
                + (node.getName().isEmpty() ? "" : " '" + node.getName() + "'") + ")";
    }

    long durationPs() {
        return node.getDurationMicros() * 1_000_000L;
    }

    /** Checks node {@code index} of {@code trace} (of {@code ranks} ranks) and classifies it. */
    static TraceOp of(RankTrace trace, int index, int ranks, Warnings warnings) throws TraceFormatException {
        Node node = trace.nodes().get(index);
        String where = where(trace, index, node);
        if (!node.getUnknownFields().asMap().isEmpty()) {
            for (int field : node.getUnknownFields().asMap().keySet()) warnings.add("node field " + field + " is not read by lbsim", where);
        }
        Map<String, Attribute> attrs = new TreeMap<>();
        for (Attribute a : node.getAttrList()) {
            if (attrs.put(a.getName(), a) != null) throw new TraceFormatException(where + ": attribute " + a.getName() + " is given twice");
            if (!KNOWN_ATTRIBUTES.contains(a.getName())) warnings.add("attribute '" + a.getName() + "' is not read by lbsim", where);
        }
        if (node.getDurationMicros() > Long.MAX_VALUE / 1_000_000L / 4) {
            throw new TraceFormatException(where + ": duration_micros " + Long.toUnsignedString(node.getDurationMicros()) + " is too large");
        }
        String group = attrs.containsKey("pg_name") ? text(attrs.get("pg_name"), where) : "";
        return switch (node.getType()) {
            case COMP_NODE -> new TraceOp(trace, index, node, Kind.DELAY, "", 0, -1, 0, group);
            case COMM_COLL_NODE -> {
                long type = integer(attrs, "comm_type", where, -1);
                CollectiveKind ck = type < 0 || type > Integer.MAX_VALUE ? null : CollectiveKind.forNumber((int) type);
                String op = ck == null ? null : OPS.get(ck);
                if (op == null) {
                    throw new TraceFormatException(where + ": comm_type " + type + (ck == null ? " is not a Chakra collective" : " (" + ck + ")")
                            + "; lbsim runs " + String.join(", ", OPS.keySet().stream().sorted().map(k -> k.getNumber() + " (" + k + ")").toList()));
                }
                yield new TraceOp(trace, index, node, Kind.COLLECTIVE, op, size(attrs, where), -1, 0, group);
            }
            case COMM_SEND_NODE, COMM_RECV_NODE -> {
                // comm_type is not read here: ASTRA-sim's converter writes the node type into it on point-to-point nodes
                boolean send = node.getType() == lbsim.workload.chakra.et.ExecutionTrace.NodeKind.COMM_SEND_NODE;
                String peerKey = send ? "comm_dst" : "comm_src";
                long peer = integer(attrs, peerKey, where, -1);
                if (peer < 0 || peer >= ranks) {
                    throw new TraceFormatException(where + ": " + peerKey + " " + peer + " is not a rank of this trace (0.." + (ranks - 1) + ")");
                }
                if (peer == trace.rank()) throw new TraceFormatException(where + ": " + peerKey + " is the node's own rank " + peer);
                long tag = attrs.containsKey("comm_tag") ? integer(attrs, "comm_tag", where, 0) : 0;
                yield new TraceOp(trace, index, node, send ? Kind.SEND : Kind.RECV, "send-recv", size(attrs, where), (int) peer, tag, group);
            }
            case METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, STORAGE_NODE, BATCH_NODE, CHECKPOINT_NODE -> {
                warnings.add(node.getType() + " runs as a delay of its duration_micros only", where);
                yield new TraceOp(trace, index, node, Kind.DELAY, "", 0, -1, 0, group);
            }
            default -> throw new TraceFormatException(where + ": node type " + node.getTypeValue() + " ("
                    + (node.getType() == lbsim.workload.chakra.et.ExecutionTrace.NodeKind.UNRECOGNIZED ? "unknown" : node.getType())
                    + ") is not one lbsim runs; expected COMP_NODE (4), COMM_SEND_NODE (5), COMM_RECV_NODE (6), COMM_COLL_NODE (7),"
                    + " or a METADATA/MEM_LOAD/MEM_STORE/STORAGE/BATCH/CHECKPOINT node (run as a delay)");
        };
    }

    private static long size(Map<String, Attribute> attrs, String where) throws TraceFormatException {
        long size = integer(attrs, "comm_size", where, -1);
        if (size < 0) throw new TraceFormatException(where + ": comm_size " + size + " must be >= 0 bytes");
        if (size > Long.MAX_VALUE / 16) throw new TraceFormatException(where + ": comm_size " + size + " is too large");
        return size;
    }

    /** An integer attribute, of any of Chakra's integer types; {@code missing} < 0 makes it required. */
    private static long integer(Map<String, Attribute> attrs, String name, String where, long missing) throws TraceFormatException {
        Attribute a = attrs.get(name);
        if (a == null) {
            if (missing < 0) throw new TraceFormatException(where + ": attribute " + name + " is missing (required for this node type)");
            return missing;
        }
        return switch (a.getValueCase()) {
            case INT32_VAL -> a.getInt32Val();
            case INT64_VAL -> a.getInt64Val();
            case UINT32_VAL -> Integer.toUnsignedLong(a.getUint32Val());
            case UINT64_VAL -> nonNegative(a.getUint64Val(), name, where);
            case SINT32_VAL -> a.getSint32Val();
            case SINT64_VAL -> a.getSint64Val();
            case FIXED32_VAL -> Integer.toUnsignedLong(a.getFixed32Val());
            case FIXED64_VAL -> nonNegative(a.getFixed64Val(), name, where);
            case SFIXED32_VAL -> a.getSfixed32Val();
            case SFIXED64_VAL -> a.getSfixed64Val();
            default -> throw new TraceFormatException(where + ": attribute " + name + " holds a " + a.getValueCase()
                    + "; expected an integer (int32/int64/uint32/uint64/sint/fixed)");
        };
    }

    private static long nonNegative(long unsigned, String name, String where) throws TraceFormatException {
        if (unsigned < 0) throw new TraceFormatException(where + ": attribute " + name + " " + Long.toUnsignedString(unsigned) + " is too large");
        return unsigned;
    }

    private static String text(Attribute a, String where) throws TraceFormatException {
        if (a.getValueCase() != Attribute.ValueCase.STRING_VAL) {
            throw new TraceFormatException(where + ": attribute " + a.getName() + " holds a " + a.getValueCase() + "; expected a string");
        }
        return a.getStringVal();
    }
}

package lbsim.workload.chakra;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lbsim.workload.chakra.et.ExecutionTrace.Metadata;
import lbsim.workload.chakra.et.ExecutionTrace.Node;

/**
 * Finds and decodes the per-rank files of a Chakra execution trace: {@code PREFIX.N.et} for ranks
 * N = 0..R-1, named by their prefix or by a folder holding exactly one such trace. Each file is a
 * stream of length-delimited protobuf records (a varint byte count, then the message): one
 * metadata record, then one node per operation (MLCommons Chakra, schema/protobuf/et_def.proto).
 */
public final class TraceFiles {
    private static final Pattern RANK_FILE = Pattern.compile("(.+)\\.(\\d+)\\.et");

    private TraceFiles() {}

    /** The rank files of {@code prefixOrFolder}, ordered by rank; refuses missing or duplicate ranks. */
    public static List<Path> locate(Path prefixOrFolder) throws TraceFormatException {
        Path dir;
        String prefix;
        if (Files.isDirectory(prefixOrFolder)) {
            dir = prefixOrFolder;
            TreeSet<String> prefixes = new TreeSet<>();
            for (Path p : list(dir)) {
                Matcher m = RANK_FILE.matcher(p.getFileName().toString());
                if (m.matches()) prefixes.add(m.group(1));
            }
            if (prefixes.isEmpty()) {
                throw new TraceFormatException(prefixOrFolder + ": no Chakra trace in this folder (expected files NAME.0.et, NAME.1.et, ...)");
            }
            if (prefixes.size() > 1) {
                throw new TraceFormatException(prefixOrFolder + ": holds " + prefixes.size() + " traces (" + String.join(", ", prefixes)
                        + "); name one by its prefix, e.g. " + dir.resolve(prefixes.first()));
            }
            prefix = prefixes.first();
        } else {
            dir = prefixOrFolder.toAbsolutePath().getParent();
            prefix = prefixOrFolder.getFileName().toString();
        }
        TreeMap<Integer, Path> byRank = new TreeMap<>();
        if (dir != null && Files.isDirectory(dir)) {
            for (Path p : list(dir)) {
                Matcher m = RANK_FILE.matcher(p.getFileName().toString());
                if (!m.matches() || !m.group(1).equals(prefix)) continue;
                int rank;
                try {
                    rank = Integer.parseInt(m.group(2));
                } catch (NumberFormatException e) {
                    throw new TraceFormatException(p + ": rank number " + m.group(2) + " is too large");
                }
                Path old = byRank.put(rank, p);
                if (old != null) throw new TraceFormatException(p + ": rank " + rank + " also given by " + old.getFileName());
            }
        }
        if (byRank.isEmpty()) {
            throw new TraceFormatException(prefixOrFolder + ": no Chakra trace files " + prefix + ".0.et, " + prefix + ".1.et, ... found"
                    + (dir == null ? "" : " in " + dir));
        }
        for (int r = 0; r < byRank.size(); r++) {
            if (!byRank.containsKey(r)) {
                throw new TraceFormatException(dir.resolve(prefix + "." + r + ".et") + ": missing: the trace has files up to rank "
                        + byRank.lastKey() + ", so every rank 0.." + byRank.lastKey() + " needs its file");
            }
        }
        return List.copyOf(byRank.values());
    }

    private static List<Path> list(Path dir) throws TraceFormatException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new TraceFormatException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
    }

    /** Decodes one rank's file. */
    public static RankTrace read(Path file, int rank) throws TraceFormatException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new TraceFormatException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        return decode(file, rank, bytes);
    }

    /** Decodes a trace held in memory; {@code file} names it in messages. */
    public static RankTrace decode(Path file, int rank, byte[] bytes) throws TraceFormatException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        Metadata meta = null;
        List<Node> nodes = new ArrayList<>();
        for (int record = 0; ; record++) {
            int offset;
            byte[] message;
            try {
                if (in.isAtEnd()) break;
                offset = in.getTotalBytesRead();
                int length;
                try {
                    length = in.readRawVarint32();
                } catch (InvalidProtocolBufferException e) {
                    throw new TraceFormatException(file + ": record " + record + " (byte " + offset
                            + "): expected a varint length prefix, found a truncated or over-long varint", e);
                }
                int left = bytes.length - in.getTotalBytesRead();
                if (length < 0 || length > left) {
                    throw new TraceFormatException(file + ": record " + record + " (byte " + offset + "): the length prefix says "
                            + Integer.toUnsignedString(length) + " bytes but only " + left + " remain: a truncated file or not a Chakra trace");
                }
                message = in.readRawBytes(length);
            } catch (IOException e) {
                throw new TraceFormatException(file + ": record " + record + ": " + e.getMessage(), e);
            }
            String what = record == 0 ? "the trace's metadata record (GlobalMetadata)" : "an execution-trace node (Node)";
            try {
                if (record == 0) meta = Metadata.parseFrom(message);
                else nodes.add(Node.parseFrom(message));
            } catch (InvalidProtocolBufferException e) {
                throw new TraceFormatException(file + ": record " + record + " (byte " + offset + ", " + message.length
                        + " bytes): expected " + what + ": " + e.getMessage(), e);
            }
        }
        if (meta == null) throw new TraceFormatException(file + ": record 0: expected the trace's metadata record, found an empty file");
        return new RankTrace(file, rank, meta, nodes);
    }
}

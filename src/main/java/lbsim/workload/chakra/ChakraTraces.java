package lbsim.workload.chakra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a whole trace: every rank's file of a prefix or a folder ({@link TraceFiles}). */
public final class ChakraTraces {
    private ChakraTraces() {}

    /** True when {@code prefixOrFolder} names a folder or a prefix whose rank 0 file exists. */
    public static boolean exists(Path prefixOrFolder) {
        if (Files.isDirectory(prefixOrFolder)) return true;
        Path name = prefixOrFolder.getFileName();
        return name != null && Files.exists(prefixOrFolder.resolveSibling(name + ".0.et"));
    }

    /** Every rank's decoded trace, by rank. */
    public static List<RankTrace> read(Path prefixOrFolder) throws TraceFormatException {
        List<Path> files = TraceFiles.locate(prefixOrFolder);
        List<RankTrace> out = new ArrayList<>(files.size());
        for (int r = 0; r < files.size(); r++) out.add(TraceFiles.read(files.get(r), r));
        return out;
    }
}

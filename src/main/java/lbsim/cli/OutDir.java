package lbsim.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.BadInputException;

/** Checks of an --out folder, made before anything is simulated (issue 31). */
final class OutDir {
    private OutDir() {}

    /** Refuses an empty --out (it would mean the working folder) and the file system's root. */
    static Path check(Path out) {
        if (out == null) return null;
        if (out.toString().isBlank()) throw new BadInputException("--out: an empty path; name the folder for the results");
        if (out.toAbsolutePath().normalize().getParent() == null) {
            throw new BadInputException("--out " + out + ": the file system's root; name a folder for the results");
        }
        return out;
    }

    /**
     * As {@link #check}, and the folder is usable: an existing writable folder, or one that can be
     * created (its nearest existing ancestor is a writable folder, not a file). Nothing is created
     * here, so a run refused later leaves no empty folder behind.
     */
    static Path usable(Path out, boolean overwrite) {
        check(out);
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) throw new BadInputException("--out " + out + ": is a file, not a folder");
            if (!Files.isWritable(out)) throw new BadInputException("--out " + out + ": the folder is not writable");
            if (!overwrite) {
                String other = foreignFile(out);
                if (other != null) {
                    throw new BadInputException("--out " + out + ": the folder is not empty and holds no lbsim results (it has "
                            + other + "); name a new or empty folder, or give --overwrite to write into it anyway");
                }
            }
            return out;
        }
        Path p = out.toAbsolutePath().normalize().getParent();
        while (p != null && !Files.exists(p)) p = p.getParent();
        if (p != null && !Files.isDirectory(p)) throw new BadInputException("--out " + out + ": cannot create the folder: " + p + " is a file");
        if (p != null && !Files.isWritable(p)) throw new BadInputException("--out " + out + ": cannot create the folder: " + p + " is not writable");
        return out;
    }

    /** Files lbsim writes at the top of an output folder: run's, compare's, sweep's, merge's and reproduce's (and its --summary page). */
    private static final java.util.List<String> RESULT_FILES = java.util.List.of("summary.json", "compare.csv", "sweep.json", "results.csv",
            "summary.html");

    /**
     * Null when {@code dir} is empty or an lbsim output (a result file at its top, a sweep's runs/
     * folder, which an interrupted sweep or merge leaves before its sweep.json, or a run folder of an
     * unfinished compare: a subfolder, or its seed-N folder, with a summary.json); otherwise the
     * name of one of its entries.
     */
    static String foreignFile(Path dir) {
        java.util.List<Path> entries;
        try (var list = Files.list(dir)) {
            entries = list.sorted().toList();
        } catch (java.io.IOException e) {
            throw new BadInputException("--out " + dir + ": cannot list the folder (" + e.getMessage() + ")");
        }
        if (entries.isEmpty()) return null;
        for (Path e : entries) {
            if (RESULT_FILES.contains(e.getFileName().toString())) return null;
            if (e.getFileName().toString().equals("runs") && Files.isDirectory(e)) return null;
            if (Files.isDirectory(e) && (Files.exists(e.resolve("summary.json")) || hasSeedRun(e))) return null;
        }
        return entries.get(0).getFileName().toString();
    }

    private static boolean hasSeedRun(Path schemeDir) {
        try (var list = Files.list(schemeDir)) {
            return list.anyMatch(p -> p.getFileName().toString().startsWith("seed-") && Files.exists(p.resolve("summary.json")));
        } catch (java.io.IOException e) {
            return false;
        }
    }
}

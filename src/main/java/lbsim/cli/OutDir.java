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
    static Path usable(Path out) {
        check(out);
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) throw new BadInputException("--out " + out + ": is a file, not a folder");
            if (!Files.isWritable(out)) throw new BadInputException("--out " + out + ": the folder is not writable");
            return out;
        }
        Path p = out.toAbsolutePath().normalize().getParent();
        while (p != null && !Files.exists(p)) p = p.getParent();
        if (p != null && !Files.isDirectory(p)) throw new BadInputException("--out " + out + ": cannot create the folder: " + p + " is a file");
        if (p != null && !Files.isWritable(p)) throw new BadInputException("--out " + out + ": cannot create the folder: " + p + " is not writable");
        return out;
    }
}

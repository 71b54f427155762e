package lbsim.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.experiment.BadInputException;

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

    /** As {@link #check}, and the folder exists or is created now, and is writable: not a regular file. */
    static Path usable(Path out) {
        check(out);
        if (Files.exists(out) && !Files.isDirectory(out)) throw new BadInputException("--out " + out + ": is a file, not a folder");
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            for (Path p = out.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                if (Files.exists(p) && !Files.isDirectory(p)) throw new BadInputException("--out " + out + ": cannot create the folder: " + p + " is a file");
            }
            String why = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getFile() + ": " + f.getReason() : e.getMessage();
            throw new BadInputException("--out " + out + ": cannot create the folder (" + why + ")");
        }
        if (!Files.isWritable(out)) throw new BadInputException("--out " + out + ": the folder is not writable");
        return out;
    }
}

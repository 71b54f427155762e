package lbsim.experiment;

import java.nio.file.Files;
import java.nio.file.Path;

/** Input files named in a scenario (a topology file, an ns-3 flow file): a relative path is relative to the scenario's folder. */
final class InputFiles {
    private InputFiles() {}

    /**
     * The readable file {@code key} names: relative to the scenario file's folder, else (a scenario
     * given as text, or a path meant from where lbsim runs) to the working directory.
     */
    static Path resolve(Section s, String key, Path baseDir) {
        String name = s.requiredString(key);
        Path p = Path.of(name);
        if (!p.isAbsolute() && baseDir != null && Files.exists(baseDir.resolve(p))) p = baseDir.resolve(p);
        if (!Files.isReadable(p) || Files.isDirectory(p)) {
            throw s.error(key, "cannot read '" + name + "' (looked in " + (baseDir != null ? baseDir + " and " : "")
                    + "the working directory)");
        }
        return p;
    }
}

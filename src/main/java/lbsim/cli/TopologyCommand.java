package lbsim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import lbsim.BadInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** {@code lbsim topology export|import-slurm}: topology files (docs/inputs.md). Each action is a subcommand. */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = "Topology files: export (a scenario's fabric as a topology file), import-slurm (a topology file from"
                + " Slurm's topology.conf).",
        subcommands = {TopologyExportCommand.class, TopologyImportSlurmCommand.class})
public final class TopologyCommand implements Runnable {
    @Override
    public void run() {
        throw new BadInputException("topology: missing action; allowed: export, import-slurm (e.g. 'lbsim topology export"
                + " examples/permutation-leafspine.yaml -o fabric.yaml'; 'lbsim topology ACTION --help')");
    }

    /** Writes {@code text} to {@code out}, or to standard output when it is null. */
    static void write(CommandSpec spec, String text, Path out) {
        if (out == null) {
            PrintWriter w = spec.commandLine().getOut();
            w.print(text);
            w.flush();
            return;
        }
        try {
            Path dir = out.toAbsolutePath().getParent();
            if (dir != null) Files.createDirectories(dir);
            Files.writeString(out, text);
        } catch (IOException e) {
            throw new BadInputException(out + ": cannot write (" + e.getMessage() + ")");
        }
        spec.commandLine().getErr().println("lbsim: wrote " + out);
    }
}

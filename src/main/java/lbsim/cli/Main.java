package lbsim.cli;

import lbsim.experiment.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: picocli commands only; the model lives in the other packages. */
@Command(name = "lbsim", mixinStandardHelpOptions = true, version = "lbsim 0.1.0",
        description = "Packet-level simulator and planning toolkit for load balancing in AI-training clusters.",
        subcommands = {RunCommand.class, CompareCommand.class, BenchCommand.class, PlanCommand.class,
                SweepCommand.class, MergeCommand.class, ReproduceCommand.class})
public final class Main implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns the exit code (0 ok, 2 bad input, 1 internal error). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        giveVersion(cl, cl.getCommandSpec().version());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof BadInputException) {
                cmd.getErr().println("lbsim: " + ex.getMessage());
                return 2;
            }
            cmd.getErr().println("lbsim: internal error: " + ex);
            ex.printStackTrace(cmd.getErr());
            return 1;
        });
        // picocli reports unknown options and bad values with exit code 2 already
        return cl.execute(args);
    }

    /** Every subcommand's -V/--version (mixinStandardHelpOptions) prints lbsim's version, not nothing. */
    private static void giveVersion(CommandLine cl, String[] version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().version(version);
            giveVersion(sub, version);
        }
    }
}

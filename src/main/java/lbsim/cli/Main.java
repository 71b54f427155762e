package lbsim.cli;

import lbsim.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: picocli commands only; the model lives in the other packages. */
@Command(name = "lbsim", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Packet-level simulator and planning toolkit for load balancing in AI-training clusters.",
        subcommands = {RunCommand.class, CompareCommand.class, BenchCommand.class, PlanCommand.class,
                SweepCommand.class, MergeCommand.class, ReproduceCommand.class, TopologyCommand.class})
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
        giveVersion(cl, cl.getCommandSpec().versionProvider());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof BadInputException) {
                cmd.getErr().println("lbsim: " + ex.getMessage());
                return 2;
            }
            if (outOfMemory(ex)) return outOfMemory(cmd.getErr());
            cmd.getErr().println("lbsim: internal error: " + ex);
            ex.printStackTrace(cmd.getErr());
            return 1;
        });
        // picocli reports unknown options and bad values with exit code 2 already
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {   // an Error passes picocli's handler
            return outOfMemory(cl.getErr());
        }
    }

    /** Whether {@code t} or a cause of it (a run on a worker thread of compare or sweep) ran out of heap. */
    private static boolean outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) if (c instanceof OutOfMemoryError) return true;
        return false;
    }

    /**
     * A scenario the heap cannot hold (flows, and the QPs of flows that start together, are checked
     * before the run, but packets in flight, later QPs and results grow as it runs): say what to
     * change, not a stack trace.
     */
    private static int outOfMemory(java.io.PrintWriter err) {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        err.println("lbsim: out of memory: the scenario needs more than the " + mb + " MB Java heap (./lbsim starts Java with"
                + " -Xmx8g). Give it more, e.g. LBSIM_JAVA_OPTS=\"-Xmx20g -XX:+UseParallelGC\" ./lbsim ..., or make the run"
                + " smaller: fewer hosts or workload.ranks, fewer flows (larger chunk_bytes), fewer QPs per flow"
                + " (qps_per_connection, or the scheme's count / splits / qps), smaller switch buffers where packets queue up"
                + " (topology.switch_buffer_bytes, port_buffer_bytes), or fewer parallel runs (--jobs)");
        return 1;
    }

    /** Every subcommand's -V/--version (mixinStandardHelpOptions) prints lbsim's version, not nothing. */
    private static void giveVersion(CommandLine cl, CommandLine.IVersionProvider version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(version);
            giveVersion(sub, version);
        }
    }
}

package lbsim.cli;

import java.io.PrintWriter;
import lbsim.BadInputException;
import lbsim.plan.Plan;
import lbsim.plan.PlanFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** {@code lbsim plan KIND ...}: deployable plans (see docs/plan.md). Each kind is a subcommand. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Deployable plans: dnlb (switch ACL/PBR + per-QP UDP ports), paralet (QP count m),"
                + " subflows (McClure SF subflow count), capacity (McClure Appendix A failure check),"
                + " ethereal (path IDs and QPs for a scenario).",
        subcommands = {PlanDnlbCommand.class, PlanParaletCommand.class, PlanSubflowsCommand.class,
                PlanCapacityCommand.class, PlanEtherealCommand.class})
public final class PlanCommand implements Runnable {

    /** The plan kinds available as subcommands. */
    static final String KINDS = "dnlb, paralet, subflows, capacity, ethereal";

    @Override
    public void run() {
        throw new BadInputException("plan: missing plan kind; allowed: " + KINDS
                + " (e.g. 'lbsim plan dnlb --uplinks 8 --nics-per-leaf 2 --qps 8'; 'lbsim plan KIND --help')");
    }

    /**
     * Prints a plan to the command's standard output. With {@code csv}, warnings go to standard error as
     * {@code WARNING:} lines so that the CSV stays machine-readable; text and json carry them inline.
     */
    static void print(CommandSpec spec, Plan plan, PlanFormat format) {
        PrintWriter out = spec.commandLine().getOut();
        plan.render(format, out);
        out.flush();
        if (format == PlanFormat.CSV && !plan.warnings().isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            for (String w : plan.warnings()) {
                err.println("WARNING: " + w);
            }
            err.flush();
        }
    }
}

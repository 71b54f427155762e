package lbsim.cli;

import lbsim.plan.ParaletPlan;
import lbsim.plan.PlanFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lbsim plan paralet}: ParaLet's number of parallel flowlets (QPs) m from Eq. 1. */
@Command(name = "paralet", mixinStandardHelpOptions = true,
        description = "ParaLet (Cao et al., Sec. 4.1 Eq. 1, Sec. 5.2): smallest m with"
                + " 1 + Phi^-1(1 - 1/N) / sqrt(m) <= X; flowlet size 4*BDP/m with --bdp-bytes.")
public final class PlanParaletCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    PlanFormatOption format;

    @Option(names = "--nodes", required = true, paramLabel = "N", description = "Number of GPU nodes N, >= 2.")
    long nodes;

    @Option(names = "--slowdown", required = true, paramLabel = "X",
            description = "Largest acceptable predicted slowdown X, > 1 (e.g. 1.5).")
    double slowdown;

    @Option(names = "--bdp-bytes", paramLabel = "B", converter = ByteSizeConverter.class,
            description = "Bandwidth-delay product in bytes (units allowed: 64KiB); adds the flowlet size S = ceil(4*B/m).")
    Long bdpBytes;

    @Override
    public void run() {
        PlanFormat f = format.format();
        PlanCommand.print(spec, ParaletPlan.compute(nodes, slowdown, bdpBytes), f);
    }
}

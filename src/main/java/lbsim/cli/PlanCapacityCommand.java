package lbsim.cli;

import java.math.BigDecimal;
import lbsim.BadInputException;
import lbsim.plan.CapacityPlan;
import lbsim.plan.PlanFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lbsim plan capacity}: McClure et al. Appendix A check of a k-ary fat-tree with degraded pod-core links. */
@Command(name = "capacity", mixinStandardHelpOptions = true,
        description = "McClure et al. (Load Balancing for AI Training Workloads) Appendix A Eq. 2: does an all-to-all stay bottlenecked on the"
                + " host links when f pod-core links per pod lose a fraction p of their bandwidth?")
public final class PlanCapacityCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    PlanFormatOption format;

    @Option(names = "--k", required = true, paramLabel = "K", description = "Fat-tree switch radix k (even).")
    int k;

    @Option(names = "--failed-links", required = true, paramLabel = "F",
            description = "Degraded links between one pod and the core, 0..k^2/4.")
    int failedLinks;

    @Option(names = "--lost-fraction", required = true, paramLabel = "P",
            description = "Fraction of each degraded link's bandwidth that is lost, 0..1 (or a percentage like 90%%).")
    String lostFraction;

    @Option(names = "--reading", defaultValue = "lost-bandwidth", paramLabel = "as-printed|lost-bandwidth",
            description = "Which denominator decides 'sufficient': lost-bandwidth k^2/4 - f*p (the capacity a pod loses when p"
                    + " is the fraction lost, as the paper defines p) or as-printed k^2/4 - f(1-p) (Eq. 2 verbatim)."
                    + " Default: ${DEFAULT-VALUE}. Both are always reported.")
    String reading;

    @Override
    public void run() {
        PlanFormat f = format.format();
        CapacityPlan.Reading r = CapacityPlan.Reading.parse(reading);
        PlanCommand.print(spec, CapacityPlan.compute(k, failedLinks, parseFraction(lostFraction), r), f);
    }

    /** Parses "0.9" or "90%". */
    static BigDecimal parseFraction(String value) {
        String v = value == null ? "" : value.trim();
        boolean percent = v.endsWith("%");
        if (percent) {
            v = v.substring(0, v.length() - 1).trim();
        }
        BigDecimal d;
        try {
            d = new BigDecimal(v);
        } catch (NumberFormatException e) {
            throw new BadInputException("--lost-fraction must be a number in 0..1 or a percentage such as 90%; got '"
                    + value + "'");
        }
        if (percent) d = d.scaleByPowerOfTen(-2); // not movePointLeft: it would expand 1e999999999 to all its digits
        // checked here to echo the value as given (compareTo looks at exponents first: cheap even for 1e999999999)
        if (d.signum() < 0 || d.compareTo(BigDecimal.ONE) > 0) {
            throw new BadInputException("--lost-fraction must be a number in 0..1 or a percentage such as 90%; got '"
                    + value + "'");
        }
        if (d.scale() > CapacityPlan.MAX_FRACTION_DIGITS && d.stripTrailingZeros().scale() > CapacityPlan.MAX_FRACTION_DIGITS) {
            throw new BadInputException("--lost-fraction must be a number in 0..1 with at most " + CapacityPlan.MAX_FRACTION_DIGITS
                    + " decimal places; got '" + value + "'");
        }
        return d;
    }
}

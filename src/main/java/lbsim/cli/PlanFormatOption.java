package lbsim.cli;

import lbsim.BadInputException;

import lbsim.plan.PlanFormat;
import picocli.CommandLine.Option;

/** The {@code --format text|json|csv} option shared by the plan subcommands. */
public final class PlanFormatOption {

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|csv",
            description = "Output format: text, json or csv (default: ${DEFAULT-VALUE}).")
    String format;

    /** The parsed format; throws BadInputException naming the allowed values. */
    PlanFormat format() {
        return PlanFormat.parse(format);
    }
}

package lbsim.plan;

import java.util.Locale;
import lbsim.BadInputException;

/** Output format of a plan: {@code text} (human / switch configuration), {@code json} or {@code csv}. */
public enum PlanFormat {
    TEXT, JSON, CSV;

    /** The option value naming this format ({@code text}, {@code json}, {@code csv}). */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a {@code --format} value (case-insensitive).
     *
     * @throws BadInputException naming the option and the allowed values
     */
    public static PlanFormat parse(String value) {
        if (value != null) {
            for (PlanFormat f : values()) {
                if (f.optionValue().equalsIgnoreCase(value.trim())) {
                    return f;
                }
            }
        }
        throw new BadInputException("--format: unknown value '" + value + "'; allowed values: text, json, csv");
    }
}

package lbsim.experiment.reproduce;

import java.util.List;

/**
 * A setting the paper does not state although its claim may depend on it: the scenario key, the values
 * across its plausible range (the preset's own default is the main run) and why that range. A reproduction
 * with {@code --sensitivity} runs the preset once per value and reports every cell's verdict at each, so a
 * reader sees under which values the claim holds; no value is chosen because it matches the paper.
 */
public record Sensitivity(String key, List<String> values, String why) {
    public Sensitivity {
        if (values.isEmpty()) throw new IllegalArgumentException(key + ": a sensitivity needs values");
        values = List.copyOf(values);
    }

    /** The folder of one value's runs under {@code sensitivity/}: "switch.ecn_profile=dctcp-hpcc". */
    public static String folder(String key, String value) {
        return (key + "=" + value).replaceAll("[^A-Za-z0-9._=-]", "_");
    }
}

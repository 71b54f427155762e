package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Map;

/**
 * A paper figure or table as a sweep: per scale a sweep definition (YAML text in the
 * {@code lbsim sweep} format), the summary field it reports, the paper's stated numbers
 * per cell, and the known differences between the paper's setup and ours.
 */
public record Preset(String id, String paper, String figure, String description, String metric, String metricLabel,
                     Map<String, String> scales, List<Cell> cells, List<String> deviations) {
    public static final List<String> SCALES = List.of("quick", "paper");
}

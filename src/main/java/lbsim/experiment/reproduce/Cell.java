package lbsim.experiment.reproduce;

import java.util.Map;

/**
 * One number the paper states: the runs it selects (grid column to label), optionally a
 * baseline selection (then the cell is the improvement in percent, 100 x (baseline - ours)
 * / baseline, paired by seed), the paper's value and a note on how it was read. {@code metric}
 * is the summary field compared when it is not the preset's ({@link #on}; null = the preset's).
 */
public record Cell(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note,
                   String metric) {
    public Cell(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note) {
        this(name, select, baseline, paper, note, null);
    }

    /** The same cell on another summary field (e.g. p99 where the preset reports the mean). */
    public Cell on(String summaryField) {
        return new Cell(name, select, baseline, paper, note, summaryField);
    }

    public String metricOr(String presetMetric) {
        return metric == null ? presetMetric : metric;
    }

    public static Cell value(String name, Map<String, String> select, double paper, String note) {
        return new Cell(name, select, null, paper, note);
    }

    public static Cell improvement(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note) {
        return new Cell(name, select, baseline, paper, note);
    }

    public boolean isImprovement() {
        return baseline != null;
    }
}

package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Map;

/**
 * One number the paper states: the runs it selects (grid column to label), optionally a
 * baseline selection (then the cell is the improvement in percent, 100 x (baseline - ours)
 * / baseline, paired by seed), the paper's value and a note on how it was read.
 *
 * <p>Two more kinds compare with a baseline as a factor, paired by seed: {@link Kind#RATIO}
 * = ours / baseline (e.g. "raises throughput 1.4 times") and {@link Kind#REDUCTION} =
 * baseline / ours (e.g. "cuts FCT 2.6 times"). A cell may name its own summary field
 * ({@code metric}; null = the preset's) and several candidate baselines: then the cell is
 * computed against each candidate that ran and the smallest value is reported, i.e. against
 * the strongest baseline (a paper's "best of the three settings").
 *
 * <p>A cell {@link #averagedOver} grid labels stands for a number the paper states as an average
 * over grid points (e.g. "over 4-64 MB"): it is computed at each of those labels of one column
 * that ran (selection and baseline both take the label) and the values of all of them, over
 * every seed, are averaged. A cell {@link #againstTheMeanOfItsBaselines} averages over its
 * baselines instead of taking the strongest ("30 % better on average than the other baselines").
 */
public record Cell(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note,
                   Kind kind, String metric, List<Map<String, String>> baselines, String overColumn, List<String> overLabels,
                   boolean meanOfBaselines, Cause cause, Bound bound, List<String> upTo) {

    public enum Kind { VALUE, IMPROVEMENT, RATIO, REDUCTION }

    /** Whether the paper's number is a value to match or a bound ours must stay on one side of. */
    public enum Bound { NONE, AT_LEAST, AT_MOST }

    /**
     * Why ours differs from the paper when it does, as analysed for this cell: lbsim's model, the scale run,
     * a setting the paper does not state, or an inconsistency in the paper itself. Reported only when the
     * verdict is not "reproduces"; a differing cell without one is reported as "unexplained".
     */
    public record Cause(Kind kind, String detail) {
        public enum Kind {
            MODEL, SCALE, UNSTATED_SETTING, PAPER;

            public String label() {
                return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            }
        }
    }

    public Cell {
        if (bound == null) bound = Bound.NONE;
        upTo = upTo == null ? List.of() : List.copyOf(upTo);
        if (baselines == null) baselines = baseline == null ? List.of() : List.of(baseline);
        if (baseline == null && !baselines.isEmpty()) baseline = baselines.get(0);
        if (overLabels == null) overLabels = List.of();
        if ((overColumn == null) != overLabels.isEmpty()) throw new IllegalArgumentException(name + ": an average needs a column and labels");
        if ((kind == Kind.VALUE) != baselines.isEmpty()) throw new IllegalArgumentException(name + ": a " + kind + " cell "
                + (kind == Kind.VALUE ? "has no baseline" : "needs a baseline"));
    }

    /** A cell whose paper number is a value ours should match (not a bound, {@link #asLowerBound}, {@link #asUpperBound}). */
    public Cell(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note, Kind kind,
                String metric, List<Map<String, String>> baselines, String overColumn, List<String> overLabels,
                boolean meanOfBaselines, Cause cause) {
        this(name, select, baseline, paper, note, kind, metric, baselines, overColumn, overLabels, meanOfBaselines, cause, Bound.NONE,
                List.of());
    }

    public Cell(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note) {
        this(name, select, baseline, paper, note, baseline == null ? Kind.VALUE : Kind.IMPROVEMENT, null, null, null, null, false, null);
    }

    /** The same cell with the analysed reason why ours differs from the paper's number. */
    public Cell because(Cause.Kind kind, String detail) {
        return new Cell(name, select, baseline, paper, note, this.kind, metric, baselines, overColumn, overLabels, meanOfBaselines,
                new Cause(kind, detail), bound, upTo);
    }

    public static Cell value(String name, Map<String, String> select, double paper, String note) {
        return new Cell(name, select, null, paper, note);
    }

    public static Cell improvement(String name, Map<String, String> select, Map<String, String> baseline, double paper, String note) {
        return new Cell(name, select, baseline, paper, note);
    }

    /**
     * A claim the paper states without a number, that {@code select} does better than {@code baseline}
     * ("outperforms", "lower FCT"): an improvement cell whose paper value is NaN. For "worse", swap the two.
     */
    public static Cell qualitative(String name, Map<String, String> select, Map<String, String> baseline, String note) {
        return new Cell(name, select, baseline, Double.NaN, note);
    }

    /**
     * The same cell with the paper's number read as a bound ours must reach rather than a value to
     * match: "a gap of less than 8.3 %" is an improvement of at least -8.3 %. It reproduces at or above
     * the bound (less the tolerance of {@link Verdict}) and contradicts below it.
     */
    public Cell asLowerBound() {
        return new Cell(name, select, baseline, paper, note, kind, metric, baselines, overColumn, overLabels, meanOfBaselines, cause,
                Bound.AT_LEAST, upTo);
    }

    /**
     * The same cell with the paper's number read as a bound ours must not exceed ("uses at most 32 queue pairs"):
     * it reproduces at or below the bound (plus the tolerance of {@link Verdict}) and contradicts above it.
     */
    public Cell asUpperBound() {
        return new Cell(name, select, baseline, paper, note, kind, metric, baselines, overColumn, overLabels, meanOfBaselines, cause,
                Bound.AT_MOST, upTo);
    }

    /** Whether the paper's number is a lower bound of ours ({@link #asLowerBound}). */
    public boolean atLeast() {
        return bound == Bound.AT_LEAST;
    }

    /** Whether the paper's number is an upper bound of ours ({@link #asUpperBound}). */
    public boolean atMost() {
        return bound == Bound.AT_MOST;
    }

    /** Whether the paper states this cell's claim without a number ({@link #qualitative}). */
    public boolean isQualitative() {
        return Double.isNaN(paper);
    }

    /** ours / baseline of {@code metric}, against the strongest of {@code baselines}. */
    public static Cell ratio(String name, String metric, Map<String, String> select, List<Map<String, String>> baselines,
                             double paper, String note) {
        return new Cell(name, select, null, paper, note, Kind.RATIO, metric, List.copyOf(baselines), null, null, false, null);
    }

    /** baseline / ours of {@code metric}, against the strongest of {@code baselines}. */
    public static Cell reduction(String name, String metric, Map<String, String> select, List<Map<String, String>> baselines,
                                 double paper, String note) {
        return new Cell(name, select, null, paper, note, Kind.REDUCTION, metric, List.copyOf(baselines), null, null, false, null);
    }

    public boolean isImprovement() {
        return kind == Kind.IMPROVEMENT;
    }

    public boolean hasBaseline() {
        return kind != Kind.VALUE;
    }

    /** The per-seed value of this cell from ours ({@code a}) and the baseline's ({@code b}) metric. */
    double combine(double a, double b) {
        return switch (kind) {
            case VALUE -> a;
            case IMPROVEMENT -> 100.0 * (b - a) / b;
            case RATIO -> a / b;
            case REDUCTION -> b / a;
        };
    }

    /** The same cell on another summary field (e.g. p99 where the preset reports the mean). */
    public Cell on(String summaryField) {
        return new Cell(name, select, baseline, paper, note, kind, summaryField, baselines, overColumn, overLabels, meanOfBaselines, cause,
                bound, upTo);
    }

    /**
     * The same cell averaged over {@code labels} of grid column {@code column} (which the
     * selection and baselines then leave out): the paper states one average over those points.
     * Labels the sweep did not run (a smaller grid at quick scale) are left out of the average.
     */
    public Cell averagedOver(String column, List<String> labels) {
        return new Cell(name, select, baseline, paper, note, kind, metric, baselines, column, List.copyOf(labels), meanOfBaselines, cause,
                bound, upTo);
    }

    /**
     * An improvement over each of {@code baselines}, averaged over those that ran (every value,
     * paired by seed), rather than against the strongest one: a paper's "on average compared to
     * the other baselines".
     */
    public static Cell againstTheMeanOfItsBaselines(String name, Map<String, String> select, List<Map<String, String>> baselines,
                                                    double paper, String note) {
        return new Cell(name, select, null, paper, note, Kind.IMPROVEMENT, null, List.copyOf(baselines), null, null, true, null);
    }

    /**
     * The same cell read as the paper's "up to": the largest of its values over {@code labels} of grid column
     * {@code column} (which the selection and baselines then leave out) and over the summary fields
     * {@code metrics}, each the mean over seeds at that point; the row reports that point's mean, SD and
     * seeds, and names it. A maximum over noisy points leans high, by about the points' SD at most.
     */
    public Cell upTo(String column, List<String> labels, List<String> metrics) {
        if (metrics.isEmpty()) throw new IllegalArgumentException(name + ": 'up to' needs at least one field");
        return new Cell(name, select, baseline, paper, note, kind, metric, baselines, column, List.copyOf(labels), meanOfBaselines, cause,
                bound, List.copyOf(metrics));
    }

    /** Whether the cell is the maximum over points and fields ({@link #upTo}) rather than one value or an average. */
    public boolean isUpTo() {
        return !upTo.isEmpty();
    }

    /** The selections this cell takes its values from: its own, or one per averaged label. */
    public List<Map<String, String>> points(Map<String, String> selection) {
        if (overColumn == null) return List.of(selection);
        return overLabels.stream().map(l -> {
            Map<String, String> m = new java.util.HashMap<>(selection);
            m.put(overColumn, l);
            return (Map<String, String>) m;
        }).toList();
    }

    public String metricOr(String presetMetric) {
        return metric == null ? presetMetric : metric;
    }
}

package lbsim.experiment.reproduce;

import java.util.function.DoubleUnaryOperator;
import java.util.regex.Pattern;

/**
 * The figure a paper draws, declared so a reproduction report can draw the same one from its runs:
 * what the x axis is (a grid column, the flow-size bins of summary.json, or simulated time), what
 * the y axis is (a summary field, or the improvement of one scheme over each other), and which grid
 * column makes the series. Grid columns that are neither x nor series give one panel per value.
 * The paper's stated numbers come from the preset's cells (a value or improvement cell that names a
 * point of the figure), so they are declared once.
 *
 * @param title   the paper's figure and what it shows, e.g. "Fig. 6(a): busbw vs message size"
 * @param kind    what the x axis is
 * @param x       the x grid column ({@link Kind#GRID}, {@link Kind#IMPROVEMENT}); null otherwise
 * @param xLabel  the x axis title without unit (a size axis gets its unit added)
 * @param y       the summary field on y (for {@link Kind#SIZE_BINS} and {@link Kind#THROUGHPUT}: null)
 * @param yLabel  the y axis title; a field in ns is shown in us/ms/s and gets its unit added
 * @param series  the grid column whose values are the series (schemes)
 * @param scheme  for {@link Kind#IMPROVEMENT}: the series label whose improvement over each other is drawn
 * @param xFromLabel for an x read from the x column's labels (e.g. "p16" = 16 permutations): a regex whose group 1
 *                is x; when x is the series column ("ecmp-qp8" = series "ecmp", x 8) the series is the label without
 *                the match. Null: x is the grid value of the x column (or its label read as a number).
 * @param xBytes  whether x is a size in bytes (drawn in B/KB/MB/GB)
 * @param logX    whether the x axis is logarithmic (sizes, counts that double)
 * @param referenceName a curve the paper draws for comparison (e.g. "ideal"), or null
 * @param reference     that curve's y at each x of the panel
 */
public record PaperFigure(String title, Kind kind, String x, String xLabel, String y, String yLabel, String series, String scheme,
                          String xFromLabel, boolean xBytes, boolean logX, String referenceName, DoubleUnaryOperator reference) {

    public enum Kind {
        /** y = a summary field, mean and sd over seeds, against a grid column. */
        GRID,
        /** y = 100 x (other - scheme) / other of a summary field, paired by seed, one series per other scheme. */
        IMPROVEMENT,
        /** x = flow-size bins (summary.json flows.slowdown_bins), one chart of the mean and one of the p99 slowdown. */
        SIZE_BINS,
        /** y = total throughput (runs/KEY/throughput.csv) against simulated time, mean over seeds per interval. */
        THROUGHPUT
    }

    public PaperFigure {
        if (xFromLabel != null) Pattern.compile(xFromLabel); // a bad pattern fails when the preset is defined
        if ((kind == Kind.GRID || kind == Kind.IMPROVEMENT) && (x == null || y == null)) {
            throw new IllegalArgumentException(title + ": a " + kind + " figure needs an x column and a y field");
        }
        if (kind == Kind.IMPROVEMENT && scheme == null) throw new IllegalArgumentException(title + ": an improvement needs its scheme");
    }

    /** {@code y} against grid column {@code x}, one line per value of {@code series}. */
    public static PaperFigure grid(String title, String x, String xLabel, String y, String yLabel, String series) {
        return new PaperFigure(title, Kind.GRID, x, xLabel, y, yLabel, series, null, null, false, false, null, null);
    }

    /** The improvement of {@code scheme} over every other series value in {@code y}, against grid column {@code x}. */
    public static PaperFigure improvement(String title, String x, String xLabel, String y, String yLabel, String series, String scheme) {
        return new PaperFigure(title, Kind.IMPROVEMENT, x, xLabel, y, yLabel, series, scheme, null, false, false, null, null);
    }

    /** Mean and p99 FCT slowdown per flow-size bin, one bar per value of {@code series}. */
    public static PaperFigure slowdownBins(String title, String series) {
        return new PaperFigure(title, Kind.SIZE_BINS, null, "flow size", null, "FCT slowdown", series, null, null, false, false, null, null);
    }

    /** Total throughput over simulated time, one line per value of {@code series}. */
    public static PaperFigure throughput(String title, String series) {
        return new PaperFigure(title, Kind.THROUGHPUT, null, "simulated time", null, "total throughput", series, null, null, false, false, null, null);
    }

    /** The same figure with x a size in bytes (log axis, unit by magnitude). */
    public PaperFigure bytes() {
        return new PaperFigure(title, kind, x, xLabel, y, yLabel, series, scheme, xFromLabel, true, true, referenceName, reference);
    }

    /** The same figure on a logarithmic x axis. */
    public PaperFigure logarithmicX() {
        return new PaperFigure(title, kind, x, xLabel, y, yLabel, series, scheme, xFromLabel, xBytes, true, referenceName, reference);
    }

    /** The same figure with x read from its column's labels by {@code regex} (group 1), e.g. {@code "^p(\\d+)$"}. */
    public PaperFigure xFromLabel(String regex) {
        return new PaperFigure(title, kind, x, xLabel, y, yLabel, series, scheme, regex, xBytes, logX, referenceName, reference);
    }

    /**
     * The same figure with x read from the series column's labels by {@code regex} (group 1) and the series the label
     * without the match, e.g. {@code "-qp(\\d+)$"} on "ecmp-qp8".
     */
    public PaperFigure xInSeriesLabel(String regex) {
        return new PaperFigure(title, kind, series, xLabel, y, yLabel, series, scheme, regex, xBytes, logX, referenceName, reference);
    }

    /** The same figure with the comparison curve the paper draws beside its schemes (e.g. the ideal CCT). */
    public PaperFigure withReference(String name, DoubleUnaryOperator curve) {
        return new PaperFigure(title, kind, x, xLabel, y, yLabel, series, scheme, xFromLabel, xBytes, logX, name, curve);
    }
}

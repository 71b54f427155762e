package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Map;
import lbsim.experiment.SweepCharts;

/**
 * A paper figure or table as a sweep: per scale a sweep definition (YAML text in the
 * {@code lbsim sweep} format), the summary field it reports, the paper's stated numbers
 * per cell, and the known differences between the paper's setup and ours. {@code charts}
 * is an optional hint for the report's charts (which grid column is the scheme and which
 * the message size); {@link SweepCharts.Axes#AUTO} detects them, which suits most presets.
 * {@code figures} are the figures the paper draws, redrawn from our runs beside its numbers (none: the report
 * has only the generic charts).
 */
public record Preset(String id, String paper, String figure, String description, String metric, String metricLabel,
                     Map<String, String> scales, List<Cell> cells, List<String> deviations, SweepCharts.Axes charts,
                     List<PaperFigure> figures) {
    public static final List<String> SCALES = List.of("quick", "paper");

    public Preset {
        if (charts == null) charts = SweepCharts.Axes.AUTO;
        figures = figures == null ? List.of() : List.copyOf(figures);
    }

    /** A preset whose charts' axes are detected from its grid. */
    public Preset(String id, String paper, String figure, String description, String metric, String metricLabel,
                  Map<String, String> scales, List<Cell> cells, List<String> deviations) {
        this(id, paper, figure, description, metric, metricLabel, scales, cells, deviations, SweepCharts.Axes.AUTO, List.of());
    }

    /** A preset with a chart hint and no paper figure (e.g. a variant of a preset's sweep; {@link #withFigures} adds them). */
    public Preset(String id, String paper, String figure, String description, String metric, String metricLabel,
                  Map<String, String> scales, List<Cell> cells, List<String> deviations, SweepCharts.Axes charts) {
        this(id, paper, figure, description, metric, metricLabel, scales, cells, deviations, charts, List.of());
    }

    /** The same preset with a chart hint, e.g. {@code withCharts(new SweepCharts.Axes("transport.cc", ""))}. */
    public Preset withCharts(SweepCharts.Axes axes) {
        return new Preset(id, paper, figure, description, metric, metricLabel, scales, cells, deviations, axes, figures);
    }

    /** The same preset with the paper's figures to redraw (see {@link PaperFigure}). */
    public Preset withFigures(PaperFigure... paperFigures) {
        return new Preset(id, paper, figure, description, metric, metricLabel, scales, cells, deviations, charts, List.of(paperFigures));
    }
}

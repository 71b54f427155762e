package lbsim.experiment.reproduce;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lbsim.experiment.SweepCharts;
import lbsim.experiment.SweepData;
import lbsim.experiment.SweepSpec;
import lbsim.metrics.plot.Bar;
import lbsim.metrics.plot.BarGroup;
import lbsim.metrics.plot.Charts;
import lbsim.metrics.plot.ReportPage;

/**
 * report.html of a reproduction: the comparison table, the known differences, and charts
 * (under {@code plots/}) drawn from the runs and the preset alone, so a new preset needs no
 * chart code: ours next to the paper per cell, the preset's metric per grid point, and CCT
 * against message size when the grid has a size column.
 */
public final class ReproduceReport {
    /** Most cells on one ours-vs-paper chart; more are split over several charts. */
    static final int CELLS_PER_CHART = 20;

    private ReproduceReport() {}

    /** Writes {@code out/report.html} and its charts; returns the page's path. */
    public static Path write(Preset p, String scale, SweepSpec spec, List<Reproduce.Row> rows, Path out) {
        return write(p, scale, spec, rows, List.of(), out);
    }

    /** As above, with the cells' verdicts across the preset's unstated settings ({@code --sensitivity}) when any ran. */
    public static Path write(Preset p, String scale, SweepSpec spec, List<Reproduce.Row> rows, List<Reproduce.SensitivityRow> sens,
                             Path out) {
        ReportPage page = new ReportPage(out, "lbsim reproduce " + p.id() + ": " + p.figure());
        page.html("<p><i>" + esc(p.paper()) + "</i></p>");
        page.paragraph(p.description());
        page.html("<p>Scale: <b>" + esc(scale) + "</b>, " + spec.runs().size() + " runs (" + spec.points() + " grid points x "
                + spec.seeds().length + " seeds). Metric: " + esc(p.metricLabel()) + " (summary field <code>" + esc(p.metric())
                + "</code>).</p>");
        page.heading(2, "Ours next to the paper");
        page.html("<p>" + esc(Verdicts.counts(rows)) + ". " + esc(Verdicts.RULE) + "</p>");
        page.html(table(rows));
        if (!sens.isEmpty()) {
            page.heading(2, "The claims across settings the paper does not state");
            page.html(sensitivityTable(p, rows, sens));
        }
        Path plots = out.resolve("plots");
        SweepData data = SweepData.read(out, spec.name());
        if (!p.figures().isEmpty()) {
            page.heading(2, "The paper's figure" + (p.figures().size() > 1 ? "s" : ""));
            paperFigures(page, p, spec, data, plots);
        }
        page.heading(2, "Differences from the paper's setup");
        StringBuilder dev = new StringBuilder("<ul>\n");
        for (String d : p.deviations()) dev.append("<li>").append(esc(d)).append("</li>\n");
        page.html(dev.append("</ul>").toString());
        page.heading(2, "Charts");
        page.html("<div id=\"charts\">");
        for (SweepCharts.Figure f : charts(p, rows, data, plots)) page.figure(f.chart(), f.caption());
        page.html("</div>");
        page.html("<p>Per-run results: <a href=\"results.csv\">results.csv</a>; cells: <a href=\"comparison.csv\">comparison.csv</a>.</p>");
        return page.write();
    }

    /**
     * The figures the paper draws ({@link Preset#figures}), redrawn from the runs with the paper's numbers as markers,
     * each followed by a link to its numbers ({@code plots/paper-figure-N.csv}); a figure no run gives a point to says so.
     */
    static void paperFigures(ReportPage page, Preset p, SweepSpec spec, SweepData data, Path plots) {
        int n = 0;
        for (PaperFigure f : p.figures()) {
            n++;
            page.heading(3, f.title());
            List<PaperFigures.Panel> panels = PaperFigures.compute(p, f, spec, data);
            List<PaperFigures.Drawn> drawn = PaperFigures.draw(p, n, f, panels, plots);
            if (drawn.isEmpty()) {
                page.paragraph(f.kind() == PaperFigure.Kind.THROUGHPUT
                        ? "Not drawn: no run of this reproduction kept its throughput.csv (stored results keep only summary.json); "
                        + "re-run the preset to draw it."
                        : "Not drawn: no run at this scale gives a point of this figure.");
                continue;
            }
            for (PaperFigures.Drawn d : drawn) page.figure(d.chart(), d.caption());
            page.html("<p>The numbers behind this figure: <a href=\"plots/paper-figure-" + n + ".csv\">plots/paper-figure-" + n
                    + ".csv</a> (one row per point; source lbsim or paper; x and y in the runs' units).</p>");
        }
    }

    /** Ours next to the paper per cell, then the generic sweep charts of the preset's metric and of CCT vs size. */
    static List<SweepCharts.Figure> charts(Preset p, List<Reproduce.Row> rows, SweepData d, Path plots) {
        List<SweepCharts.Figure> out = new ArrayList<>();
        // one chart family per kind of cell, each with the axis label of what its cells are
        for (String kind : new String[] {"value", "improvement", "ratio"}) {
            // a cell whose metric was null in a run (e.g. no flow finished) has no mean: no bar, rather than a bar at 0
            List<Reproduce.Row> ran = rows.stream()
                    .filter(r -> r.ran() && !Double.isNaN(r.mean()) && chartKind(r.cell()).equals(kind)).toList();
            long notRun = rows.stream().filter(r -> !r.ran() && chartKind(r.cell()).equals(kind)).count();
            String yLabel = yLabel(p, kind, ran.stream().map(Reproduce.Row::cell).toList());
            for (int from = 0; from < ran.size(); from += CELLS_PER_CHART) {
                List<Reproduce.Row> part = ran.subList(from, Math.min(ran.size(), from + CELLS_PER_CHART));
                List<Bar> ours = new ArrayList<>(), paper = new ArrayList<>();
                for (Reproduce.Row r : part) {
                    ours.add(new Bar(r.cell().name(), r.mean(), r.sd()));
                    paper.add(new Bar(r.cell().name(), r.paper(), 0));
                }
                int n = from / CELLS_PER_CHART + 1;
                String name = "paper-" + kind + (ran.size() > CELLS_PER_CHART ? "-" + n : "");
                String title = "Ours next to the paper" + (ran.size() > CELLS_PER_CHART ? " (" + n + ")" : "");
                List<BarGroup> groups = List.of(new BarGroup("lbsim", ours), new BarGroup("paper", paper));
                // a ratio of 1 is no change against the baseline: the line to read the bars against
                var chart = kind.equals("ratio") ? Charts.groupedBars(title, "", yLabel, groups, 1.0, plots, name)
                        : Charts.groupedBars(title, "", yLabel, groups, plots, name);
                out.add(new SweepCharts.Figure(chart, "Each cell of the table above: lbsim's mean over seeds (error bar: sample sd; "
                        + "none with one seed) next to the number the paper states"
                        + switch (kind) {
                            case "improvement" -> "; improvement = 100 x (baseline - scheme) / baseline, paired by seed";
                            case "ratio" -> "; ratio = scheme / baseline (throughput-like cells) or baseline / scheme "
                                    + "(reduction cells, e.g. FCT), paired by seed, against the strongest baseline";
                            default -> "";
                        }
                        + (notRun > 0 ? "; " + notRun + " cells not run at this scale are left out" : "")
                        + (part.stream().anyMatch(r -> r.cell().isQualitative()) ? "; a claim the paper states without a number "
                                + "has no paper bar" : "") + "."));
            }
        }
        out.addAll(SweepCharts.metricBars(d, p.metric(), p.charts(), plots, "grid-" + p.metric().replaceAll("[^A-Za-z0-9]", "_")));
        out.addAll(SweepCharts.cctVsSize(d, p.charts(), plots, "cct-vs-size"));
        return out;
    }

    /** Which ours-vs-paper chart a cell goes on: "value", "improvement" (%) or "ratio" (x, ratio and reduction cells). */
    static String chartKind(Cell c) {
        return switch (c.kind()) {
            case VALUE -> "value";
            case IMPROVEMENT -> "improvement";
            case RATIO, REDUCTION -> "ratio";
        };
    }

    /**
     * The y-axis label of an ours-vs-paper chart, from what its cells are: the metric's label for value
     * cells of one metric, "improvement over the baseline (%)", "ratio to the baseline (x)".
     */
    static String yLabel(Preset p, String kind, List<Cell> cells) {
        return switch (kind) {
            case "improvement" -> "improvement over the baseline (%)";
            case "ratio" -> "ratio to the baseline (x)";
            default -> cells.stream().map(c -> c.metricOr(p.metric())).distinct().count() <= 1
                    && cells.stream().allMatch(c -> c.metricOr(p.metric()).equals(p.metric())) ? p.metricLabel()
                    : "value (see the table for each cell's metric)";
        };
    }

    static String table(List<Reproduce.Row> rows) {
        StringBuilder sb = new StringBuilder("<table>\n<tr><th>cell</th><th>ours (mean)</th><th>ours (SD)</th>")
                .append("<th>seeds</th><th>paper</th><th>difference</th><th>verdict</th><th>cause</th><th>note</th></tr>\n");
        for (Reproduce.Row r : rows) {
            sb.append(r.ran() ? "<tr>" : "<tr style=\"color:#888\">").append("<td class=\"l\">").append(esc(r.cell().name())).append("</td>");
            if (r.ran()) {
                if (Double.isNaN(r.mean())) {
                    // some run had no value for the metric (null in summary.json): no mean, not a mean of 0
                    sb.append(String.format(Locale.ROOT, "<td>-</td><td>-</td><td>%d</td><td>%s</td><td>-</td>", r.n(), Reproduce.paperText(r)));
                } else {
                    sb.append(String.format(Locale.ROOT, "<td>%.3f</td><td>%.3f</td><td>%d</td><td>%s</td><td>%s</td>", r.mean(),
                            r.sd(), r.n(), Reproduce.paperText(r), r.cell().isQualitative() ? "" : String.format(Locale.ROOT, "%+.3f", r.difference())));
                }
            } else {
                sb.append(String.format(Locale.ROOT, "<td colspan=\"3\">not run at this scale</td><td>%s</td><td></td>", Reproduce.paperText(r)));
            }
            sb.append("<td>").append(r.verdict().label()).append("</td><td class=\"l\">").append(esc(r.causeKind()))
                    .append(r.causeDetail().isEmpty() ? "" : ": " + esc(r.causeDetail())).append("</td>");
            sb.append("<td class=\"l\">").append(esc(r.note())).append("</td></tr>\n");
        }
        return sb.append("</table>").toString();
    }

    /** One row per cell: its verdict with the preset's defaults, then at each value of each unstated setting, and why that range. */
    static String sensitivityTable(Preset p, List<Reproduce.Row> rows, List<Reproduce.SensitivityRow> sens) {
        List<String> columns = new java.util.ArrayList<>();
        for (Reproduce.SensitivityRow s : sens) {
            String c = s.key() + " = " + s.value();
            if (!columns.contains(c)) columns.add(c);
        }
        StringBuilder sb = new StringBuilder("<p>Each cell's verdict with the preset's defaults and with one unstated setting "
                + "changed at a time (ours: mean over seeds). ");
        for (Sensitivity x : Sensitivities.of(p.id())) sb.append(esc(x.name())).append(": ")
                .append(esc(x.why())).append(". ");
        sb.append("</p>\n<table>\n<tr><th>cell</th><th>paper</th><th>default</th>");
        for (String c : columns) sb.append("<th>").append(esc(c)).append("</th>");
        sb.append("</tr>\n");
        for (Reproduce.Row r : rows) {
            sb.append("<tr><td class=\"l\">").append(esc(r.cell().name())).append("</td><td>").append(Reproduce.fmt(r.paper()))
                    .append("</td><td>").append(cellText(r)).append("</td>");
            for (String c : columns) {
                Reproduce.Row at = sens.stream().filter(s -> (s.key() + " = " + s.value()).equals(c)
                        && s.row().cell().name().equals(r.cell().name())).map(Reproduce.SensitivityRow::row).findFirst().orElse(null);
                sb.append("<td>").append(at == null ? "" : cellText(at)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        return sb.append("</table>").toString();
    }

    private static String cellText(Reproduce.Row r) {
        return r.ran() ? String.format(Locale.ROOT, "%.3f: %s", r.mean(), r.verdict().label()) : r.verdict().label();
    }

    static String esc(String s) {
        return ReportPage.escape(s);
    }
}

package lbsim.experiment;

import lbsim.BadInputException;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lbsim.metrics.plot.ReportPage;

/**
 * {@code report.html} of a sweep output folder ({@code lbsim sweep}, {@code lbsim merge}): a
 * table of the main summary fields per grid point (mean over seeds) and the generic charts
 * of {@link SweepCharts}, under {@code plots/}; self-contained like the run reports.
 */
public final class SweepReport {
    /** Summary fields in the table, when any run has a number for them. */
    static final List<String> TABLE_FIELDS = List.of("cct_ns", "normalised", "flows.fct_ns.p50", "flows.fct_ns.p99",
            "packets.dropped", "packets.retransmitted", "timeouts", "max_qps_per_nic");
    /** The bar chart shows the first of these that any run has a number for. */
    static final List<String> CHART_FIELDS = List.of("normalised", "cct_ns", "flows.fct_ns.p99");

    private SweepReport() {}

    /** Writes {@code out/report.html}; a folder that cannot be written is bad input (exit 2). */
    public static Path write(Path out, String name) {
        try {
            return page(SweepData.read(out, name), out).write();
        } catch (UncheckedIOException e) {
            throw new BadInputException("--out " + out + ": cannot write the report (" + e.getCause().getMessage() + ")");
        }
    }

    static ReportPage page(SweepData d, Path out) {
        ReportPage page = new ReportPage(out, "lbsim sweep" + (d.name() == null ? "" : ": " + d.name()));
        page.paragraph(String.format(Locale.ROOT, "%d of %d runs finished in this folder; %d grid points x seeds. "
                + "Values are the mean over the seeds of each grid point (over the seeds that have one, when a field is "
                + "null in some runs, e.g. no flow finished); every run is a row of results.csv.",
                d.rows().size(), d.totalRuns(), SweepCharts.points(d).size()));
        page.html("<p>Per-run results: <a href=\"results.csv\">results.csv</a>.</p>");
        if (d.rows().isEmpty()) return page;
        page.heading(2, "Results per grid point");
        page.table(header(d), table(d));
        Path plots = out.resolve("plots");
        List<SweepCharts.Figure> figs = new ArrayList<>();
        for (String f : CHART_FIELDS) {
            List<SweepCharts.Figure> bars = SweepCharts.metricBars(d, f, SweepCharts.Axes.AUTO, plots, "grid-" + f.replaceAll("[^A-Za-z0-9]", "_"));
            if (!bars.isEmpty()) {
                figs.addAll(bars);
                break;
            }
        }
        figs.addAll(SweepCharts.cctVsSize(d, SweepCharts.Axes.AUTO, plots, "cct-vs-size"));
        if (!figs.isEmpty()) {
            page.heading(2, "Charts");
            for (SweepCharts.Figure f : figs) page.figure(f.chart(), f.caption());
        }
        return page;
    }

    static List<String> fields(SweepData d) {
        List<String> out = new ArrayList<>();
        for (String f : TABLE_FIELDS) {
            for (SweepData.Row r : d.rows()) {
                if (!Double.isNaN(r.number(f))) {
                    out.add(f);
                    break;
                }
            }
        }
        return out;
    }

    static List<String> header(SweepData d) {
        List<String> h = new ArrayList<>(d.columns());
        if (h.isEmpty()) h.add("grid point");
        h.add("seeds");
        for (String f : fields(d)) h.add(SweepCharts.label(f));
        return h;
    }

    static List<List<String>> table(SweepData d) {
        List<String> fields = fields(d);
        List<List<String>> rows = new ArrayList<>();
        for (List<String> point : SweepCharts.points(d)) {
            List<String> row = new ArrayList<>(point);
            if (row.isEmpty()) row.add("(base)");
            List<SweepData.Row> runs = d.rows().stream().filter(r -> r.labels().equals(point)).toList();
            row.add(Integer.toString(runs.size()));
            for (String f : fields) {
                double sum = 0;
                int n = 0;
                for (SweepData.Row r : runs) {
                    double v = r.number(f);
                    if (Double.isNaN(v)) continue;
                    sum += v * SweepCharts.scale(f);
                    n++;
                }
                double m = sum / n;
                String v = n == 0 ? "" : f.equals("normalised") ? String.format(Locale.ROOT, "%.3f", m)
                        : m == Math.rint(m) ? String.format(Locale.ROOT, "%.0f", m) : String.format(Locale.ROOT, "%.1f", m);
                // null in some runs (e.g. no flow finished): the mean is over the others, and says so
                if (n > 0 && n < runs.size()) v += " (" + n + " of " + runs.size() + " seeds)";
                row.add(v);
            }
            rows.add(row);
        }
        return rows;
    }
}

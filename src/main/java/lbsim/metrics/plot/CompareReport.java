package lbsim.metrics.plot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lbsim.metrics.RunResult;
import lbsim.metrics.SeedComparison;

/** report.html for one scenario under several schemes: the table and charts side by side. */
public final class CompareReport {
    private CompareReport() {}

    /** One seed per scheme, the transport not stated: {@link #write(SeedComparison, Path)}. */
    public static Path write(List<RunResult> results, Path dir) {
        List<List<RunResult>> perScheme = new ArrayList<>();
        for (RunResult r : results) perScheme.add(List.of(r));
        return write(SeedComparison.of(perScheme, results.stream().anyMatch(r -> r.cctNs() != null), ""), dir);
    }

    /**
     * Writes {@code dir/report.html} and its charts under {@code dir/plots/}; returns the page's
     * path. With several seeds the table and the completion bars are over the seeds (mean, sd, error
     * bars), and the other charts show each scheme's first seed.
     */
    public static Path write(SeedComparison c, Path dir) {
        Path plots = dir.resolve("plots");
        List<RunResult> results = c.rows().stream().map(SeedComparison.Row::first).toList();
        String scenario = results.isEmpty() ? "" : results.get(0).scenario();
        ReportPage page = new ReportPage(dir, "lbsim compare: " + scenario);
        if (!results.isEmpty()) page.tableOfContents();
        page.heading(2, "Comparison table");
        page.paragraph("Completion is the collective completion time (CCT) for collectives, else the last flow's finish; "
                + "normalised divides it by the workload's lower bound with no queueing or loss."
                + (c.seeds() > 1 ? " Every number is the mean over " + c.seedRange() + " (counts included); sd is the completion's "
                + "sample standard deviation over them. vs best: " + SeedComparison.ruleLine() + "." : ""));
        page.html(c.seeds() > 1 ? seedsTable(c) : table(results));
        if (results.isEmpty()) return page.write();
        if (!c.conditionsLine().isEmpty()) {
            String[] lines = c.conditionsLine().split("\n");
            for (int i = 0; i < lines.length; i++) page.paragraph(i == 0 && lines[i].startsWith("NIC ") ? "Every scheme ran on this NIC: " + lines[i] : lines[i]);
        }
        page.paragraph(c.verdictLine() + (c.seeds() > 1 ? ". " + c.noiseLine() + "." : "."));

        List<Bar> norm = new ArrayList<>();
        for (SeedComparison.Row r : c.rows()) {
            if (Double.isNaN(r.normalisedMean())) continue;
            norm.add(c.seeds() > 1 ? Bar.ofSamples(r.scheme(), r.normalised()) : new Bar(r.scheme(), r.normalisedMean(), 0));
        }
        if (!norm.isEmpty()) {
            page.heading(2, "Completion against the ideal");
            List<BarGroup> normGroups = List.of(new BarGroup("normalised", norm));
            double base = Charts.normalisedBaseline(normGroups);
            page.figure(() -> Charts.normalisedBars("normalised (completion / ideal)", normGroups, plots, "normalised"),
                    "Completion time divided by the lower bound (1.0 = ideal); "
                    + (base > 0 ? "the axis starts at " + RunReport.fmt(base, 1) + ", the ideal, so a bar's height is the time above the lower bound; " : "")
                    + (c.seeds() > 1
                            ? "mean over " + c.seedRange() + ", error bars ± the sample sd over them (a scheme that did not complete on every seed has no bar)."
                            : "one seed per scheme, so no error bars."));
        }
        if (c.seeds() > 1) page.paragraph("The charts below show each scheme's first seed (" + c.firstSeed() + "); every seed's run folder is "
                + "SCHEME/seed-S/.");

        List<Series> cdfs = new ArrayList<>(), tput = new ArrayList<>();
        List<BarGroup> slow = new ArrayList<>(), qps = new ArrayList<>();
        for (RunResult r : results) {
            if (r.flows().stream().noneMatch(f -> f.fctNs() >= 0)) continue;
            cdfs.add(FlowMetrics.fctCdf(r.scheme(), r.flows(), RunReport.CDF_POINTS));
            tput.add(FlowMetrics.throughput(r.scheme(), r.throughput()));
            slow.add(FlowMetrics.slowdownBySize(r.scheme(), r.flows()));
        }
        List<Bar> qpMax = new ArrayList<>(), qpMean = new ArrayList<>();
        for (RunResult r : results) {
            double[] used = java.util.Arrays.stream(r.maxQpsByNic()).filter(q -> q > 0).asDoubleStream().toArray();
            if (used.length == 0) continue;
            qpMax.add(new Bar(r.scheme(), java.util.Arrays.stream(used).max().orElse(0), 0));
            qpMean.add(new Bar(r.scheme(), java.util.Arrays.stream(used).average().orElse(0), 0));
        }
        if (!qpMax.isEmpty()) {
            qps.add(new BarGroup("largest over NICs", qpMax));
            qps.add(new BarGroup("mean over NICs", qpMean));
        }
        if (!cdfs.isEmpty()) {
            page.heading(2, "Flow completion times");
            page.figure(() -> Charts.cdf("FCT CDF", "flow completion time (us)", true, cdfs, plots, "fct-cdf"),
                    "Fraction of flows finished within x (log x). Each scheme has its own colour and dash pattern (listed in the legend in table order).");
            page.figure(() -> Charts.slowdownBySize("FCT slowdown by flow size", slow, plots, "fct-slowdown"),
                    "Mean FCT slowdown per size decade (n = flows in the bin; error bar ± sd, capped below at the bin's smallest slowdown): FCT over the same flow's FCT alone on the idle fabric (1 = no queueing or loss).");
            // the scenario's failures and detections happen at the same times under every scheme whose
            // run is still going: take them from the longest run (QP failures differ by scheme: left out)
            RunResult longest = results.stream().max(java.util.Comparator.comparingDouble(RunResult::simTimeNs)).orElseThrow();
            List<Marker> events = FlowMetrics.eventMarkers(longest.eventLog()).stream().filter(m -> m.label().startsWith("link-")).toList();
            StringBuilder caption = new StringBuilder("Bytes sent by every switch port facing a host, per sampling interval (throughput.csv; ParaLet's TT).");
            if (!events.isEmpty()) caption.append(" Dashed lines: the scenario's link events (events.csv):");
            for (Marker m : events) caption.append(' ').append(m.label()).append(" at ").append(RunReport.fmt(m.x(), 1)).append(" us;");
            page.figure(() -> Charts.throughput("Total throughput over time", tput, events, plots, "throughput"), caption.toString());
        }
        if (!qps.isEmpty()) {
            page.heading(2, "Queue pairs");
            page.figure(() -> Charts.qpsPerScheme("Max QPs open at once per NIC", qps, plots, "qps"),
                    "Per scheme, the most QPs a NIC had open at once (the transport's own count): the largest over the NICs "
                    + "that sent traffic, and the mean over them.");
        }
        // one section per scheme: its numbers and its fabric heat maps, all on one colour scale
        List<List<LinkHeatMaps.Panel>> fabric = new ArrayList<>();
        for (RunResult r : results) fabric.add(LinkHeatMaps.panels(r.scheme() + ": ", r.links()).stream().filter(LinkHeatMaps.Panel::fabric).toList());
        double largest = fabric.stream().filter(f -> !f.isEmpty()).mapToDouble(LinkHeatMaps::max).max().orElse(Double.NaN);
        double scale = Double.isNaN(largest) ? Double.NaN : Charts.niceCeiling(largest);
        page.heading(2, "Per scheme");
        if (!Double.isNaN(scale)) page.paragraph("Each scheme's fabric heat maps: switch-to-switch links only (host links are in each scheme's "
                + "links.csv); bytes sent on each link direction over (link rate x run time), on the same colour scale, 0 to " + scale
                + " (the largest utilisation on the page, rounded up), in every map.");
        // every scheme's Gantt chart on one time axis, to the longest of their runs, so the charts compare directly
        double ganttEndUs = results.stream().filter(RunReport::hasSteps).mapToDouble(RunResult::simTimeNs).max().orElse(0) / 1e3;
        if (results.stream().anyMatch(RunReport::hasSteps)) page.paragraph("With metrics.steps, each scheme's section also has its collective steps per rank over time (its "
                + "steps.csv" + (c.seeds() > 1 ? ", seed " + c.firstSeed() : "") + "), every scheme's on the same time axis, 0 to "
                + RunReport.fmt(ganttEndUs, 1) + " us (the longest of their runs).");
        for (int i = 0; i < results.size(); i++) {
            RunResult r = results.get(i);
            SeedComparison.Row row = c.rows().get(i);
            page.heading(3, r.scheme());
            String folder = c.seeds() > 1 ? r.scheme() + "/seed-S/" : r.scheme() + "/";
            page.paragraph("completion " + RunReport.fmt(row.completionMeanNs() / 1e3, 1) + " us, normalised "
                    + RunReport.fmt(row.normalisedMean(), 3) + (c.seeds() > 1 ? ", " + row.vsBest(c.best()) : "")
                    + "; run files in " + folder + (c.seeds() > 1 ? " (heat maps: seed " + c.firstSeed() + ")" : "") + ".");
            List<java.util.function.Supplier<ChartFiles>> maps = new ArrayList<>();
            for (LinkHeatMaps.Panel p : fabric.get(i)) {
                HeatMap map = p.map();
                String file = "util-" + safe(r.scheme()) + "-" + p.key();
                maps.add(() -> Charts.heatMap(map, scale, plots, file));
            }
            if (!maps.isEmpty()) page.galleryOf(maps);
            // metrics.steps: the scheme's own step timeline, its own events (QP failures and reroutes differ by scheme)
            if (RunReport.hasSteps(r)) {
                RunReport.ganttFigure(page, r, ganttEndUs, FlowMetrics.eventMarkers(r.eventLog()), r.scheme() + ": collective steps per rank",
                        "this scheme's events" + (c.seeds() > 1 ? " (seed " + c.firstSeed() + ")" : ""), plots, "steps-gantt-" + safe(r.scheme()));
            }
        }
        return page.write();
    }

    /** A scheme's name as part of a file name. */
    private static String safe(String scheme) {
        return scheme.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The table over several seeds: means, the completion's sd and how each scheme stands against the best. */
    static String seedsTable(SeedComparison c) {
        StringBuilder sb = new StringBuilder("<table>\n")
                .append("<tr><th>scheme</th><th>completion (us)</th><th>sd (us)</th><th>normalised</th><th>FCT p50 (us)</th><th>FCT p99 (us)</th>")
                .append("<th>dropped</th><th>retransmitted</th><th>out of order</th><th>PFC pauses</th><th>max QPs/NIC</th><th>vs best</th></tr>\n");
        for (SeedComparison.Row r : c.rows()) {
            sb.append(String.format(Locale.ROOT,
                    "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"l\">%s</td></tr>%n",
                    ReportPage.escape(r.scheme()), RunReport.fmt(r.completionMeanNs() / 1e3, 1), RunReport.fmt(r.completionSdNs() / 1e3, 1),
                    RunReport.fmt(r.normalisedMean(), 3), RunReport.fmt(r.fctP50MeanNs() / 1e3, 1), RunReport.fmt(r.fctP99MeanNs() / 1e3, 1),
                    RunReport.fmt(r.dropped(), 1), RunReport.fmt(r.retransmitted(), 1), RunReport.fmt(r.outOfOrder(), 1),
                    RunReport.fmt(r.pfcPauses(), 1), RunReport.fmt(r.maxQpsPerNic(), 1), ReportPage.escape(r.vsBest(c.best()))));
        }
        return sb.append("</table>").toString();
    }

    static String table(List<RunResult> results) {
        StringBuilder sb = new StringBuilder("<table>\n")
                .append("<tr><th>scheme</th><th>completion (us)</th><th>normalised</th><th>FCT p50 (us)</th><th>FCT p99 (us)</th>")
                .append("<th>dropped</th><th>retransmitted</th><th>out of order</th><th>PFC pauses</th><th>max QPs/NIC</th></tr>\n");
        for (RunResult r : results) {
            // an incomplete run has no completion, and no FCTs when no flow finished: "-", not NaN or 0
            boolean noFct = r.fct().isEmpty();
            sb.append(String.format(Locale.ROOT,
                    "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>%n",
                    ReportPage.escape(r.scheme()), RunReport.fmt(r.completionNs() / 1e3, 1), RunReport.fmt(r.normalised(), 3),
                    RunReport.fmt(noFct ? Double.NaN : r.fct().p50() / 1e3, 1), RunReport.fmt(noFct ? Double.NaN : r.fct().p99() / 1e3, 1),
                    r.packetsDropped(), r.packetsRetransmitted(), r.outOfOrderPackets(), r.pfcPauses(), r.maxQpsPerNic()));
        }
        return sb.append("</table>").toString();
    }
}

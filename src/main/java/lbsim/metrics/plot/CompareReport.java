package lbsim.metrics.plot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lbsim.metrics.RunResult;

/** report.html for one scenario under several schemes: the table and charts side by side. */
public final class CompareReport {
    private CompareReport() {}

    /** Writes {@code dir/report.html} and its charts under {@code dir/plots/}; returns the page's path. */
    public static Path write(List<RunResult> results, Path dir) {
        Path plots = dir.resolve("plots");
        String scenario = results.isEmpty() ? "" : results.get(0).scenario();
        ReportPage page = new ReportPage(dir, "lbsim compare: " + scenario);
        page.paragraph("Completion is the collective completion time (CCT) for collectives, else the last flow's finish; "
                + "x ideal divides it by the workload's lower bound with no queueing or loss.");
        page.html(table(results));
        if (results.isEmpty()) return page.write();
        if (!results.get(0).nicLine().isEmpty()) page.paragraph("Every scheme ran on this NIC: " + results.get(0).nicLine());

        List<Bar> norm = new ArrayList<>();
        for (RunResult r : results) if (!Double.isNaN(r.normalised())) norm.add(new Bar(r.scheme(), r.normalised(), 0));
        if (!norm.isEmpty()) {
            page.heading(2, "Completion against the ideal");
            page.figure(Charts.normalisedBars("Completion / ideal", List.of(new BarGroup("x ideal", norm)), plots, "normalised"),
                    "Completion time divided by the lower bound (1.0 = ideal); one seed per scheme, so no error bars.");
        }

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
            page.figure(Charts.cdf("FCT CDF", "FCT (us)", true, cdfs, plots, "fct-cdf"), "Fraction of flows finished within x microseconds (log x).");
            page.figure(Charts.slowdownBySize("FCT slowdown by flow size", slow, plots, "fct-slowdown"),
                    "Mean FCT slowdown per size decade (n = flows in the bin; error bar ± sd, capped below at the bin's smallest slowdown): FCT over the same flow's FCT alone on the idle fabric (1 = no queueing or loss).");
            page.figure(Charts.throughput("Total throughput over time", tput, plots, "throughput"),
                    "Bytes sent by every switch port facing a host, per sampling interval (throughput.csv; ParaLet's TT).");
        }
        if (!qps.isEmpty()) {
            page.heading(2, "Queue pairs");
            page.figure(Charts.qpsPerScheme("Max QPs open at once per NIC", qps, plots, "qps"),
                    "Per scheme, the most QPs a NIC had open at once (the transport's own count): the largest over the NICs "
                    + "that sent traffic, and the mean over them.");
        }
        List<LinkHeatMaps.Panel> fabric = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (RunResult r : results) {
            for (LinkHeatMaps.Panel p : LinkHeatMaps.panels(r.scheme() + ": ", r.links())) {
                if (!p.fabric()) continue;
                fabric.add(p);
                files.add("util-" + r.scheme().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + p.key());
            }
        }
        if (!fabric.isEmpty()) {
            double scale = Charts.niceCeiling(LinkHeatMaps.max(fabric));
            List<ChartFiles> maps = new ArrayList<>();
            for (int i = 0; i < fabric.size(); i++) maps.add(Charts.heatMap(fabric.get(i).map(), scale, plots, files.get(i)));
            page.heading(2, "Fabric link utilisation per scheme");
            page.paragraph("Switch-to-switch links only (host links are in each scheme's links.csv); bytes sent on each "
                    + "link direction over (link rate x run time), on the same colour scale, 0 to " + scale
                    + " (the largest utilisation on the page, rounded up), in every map.");
            page.gallery(maps);
        }
        return page.write();
    }

    static String table(List<RunResult> results) {
        StringBuilder sb = new StringBuilder("<table>\n")
                .append("<tr><th>scheme</th><th>completion (us)</th><th>x ideal</th><th>FCT p50 (us)</th><th>FCT p99 (us)</th>")
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

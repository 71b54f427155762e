package lbsim.metrics.plot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;

/** report.html for one run: summary, FCT distribution, slowdown, throughput, QPs per NIC, link heat maps. */
public final class RunReport {
    static final int CDF_POINTS = 400;

    private RunReport() {}

    /** Writes {@code dir/report.html} and its charts under {@code dir/plots/}; returns the page's path. */
    public static Path write(RunResult r, Path dir) {
        Path plots = dir.resolve("plots");
        ReportPage page = new ReportPage(dir, "lbsim run: " + r.scenario() + " [" + r.scheme() + "]");
        double completion = r.cctNs() != null ? r.cctNs() : r.lastFinishNs();
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("scheme", r.scheme()));
        rows.add(List.of("seed", Long.toString(r.seed())));
        rows.add(List.of("completed", Boolean.toString(r.completed())));
        // cct_ns is the largest collective's completion time (docs/scenario.md); a training run lists no collectives
        String completionLabel = r.cctNs() == null ? "last flow finish (us)"
                : r.collectives().size() == 1 ? "CCT (us)" : "largest collective CCT (us)";
        rows.add(List.of(completionLabel, fmt(completion / 1e3, 1)));
        rows.add(List.of("ideal (us)", fmt(r.idealCctNs() / 1e3, 1)));
        rows.add(List.of("normalised (completion / ideal)", fmt(r.normalised(), 3)));
        if (r.commTimeNs() != null) rows.add(List.of("communication time (us; some collective in progress)", fmt(r.commTimeNs() / 1e3, 1)));
        rows.add(List.of("simulated time (us)", fmt(r.simTimeNs() / 1e3, 1)));
        rows.add(List.of("flows / finished", r.flows().size() + " / " + r.finishedFlows()));
        rows.add(List.of("FCT p50 / p99 / max (us)", r.fct().isEmpty() ? "- (no flow finished)"
                : fmt(r.fct().p50() / 1e3, 1) + " / " + fmt(r.fct().p99() / 1e3, 1) + " / " + fmt(r.fct().max() / 1e3, 1)));
        rows.add(List.of("packets sent / dropped / retransmitted", r.packetsSent() + " / " + r.packetsDropped() + " / "
                + r.packetsRetransmitted()));
        rows.add(List.of("ECN marks / PFC pauses / out of order", r.ecnMarked() + " / " + r.pfcPauses() + " / " + r.outOfOrderPackets()));
        rows.add(List.of("max QPs per NIC", Integer.toString(r.maxQpsPerNic())));
        page.table(List.of(), rows); // a key/value table: no header row
        if (!r.conditionsLine().isEmpty()) page.paragraph(r.conditionsLine());
        for (String w : r.warnings()) page.paragraph("warning: " + w);

        String name = r.scheme();
        if (r.flows().stream().anyMatch(f -> f.fctNs() >= 0)) {
            page.heading(2, "Flow completion times");
            page.figure(() -> Charts.cdf("FCT CDF", "flow completion time (us)", true, List.of(FlowMetrics.fctCdf(name, r.flows(), CDF_POINTS)), plots, "fct-cdf"),
                    "Fraction of flows finished within x (log x).");
            BarGroup slow = FlowMetrics.slowdownBySize(name, r.flows());
            page.figure(() -> Charts.slowdownBySize("FCT slowdown by flow size", List.of(slow), plots, "fct-slowdown"),
                    "Mean FCT slowdown per size decade (n = flows in the bin; error bar ± sd, capped below at the bin's smallest slowdown): FCT over the same flow's FCT alone on the idle fabric (1 = no queueing or loss).");
            Series tput = FlowMetrics.throughput(name, r.throughput());
            if (tput.x().length > 0) {
                List<Marker> events = FlowMetrics.eventMarkers(r.eventLog());
                StringBuilder caption = new StringBuilder("Bytes sent by every switch port facing a host, per sampling interval (throughput.csv; ParaLet's TT).");
                if (!events.isEmpty()) caption.append(" Dashed lines: the run's events (events.csv):");
                for (Marker m : events) caption.append(' ').append(m.label()).append(" at ").append(fmt(m.x(), 1)).append(" us;");
                page.figure(() -> Charts.throughput("Total throughput over time", List.of(tput), events, plots, "throughput"), caption.toString());
            }   // a run that ended within its first sampling interval has no sample to plot
        }
        int[] qps = r.maxQpsByNic();
        if (java.util.Arrays.stream(qps).anyMatch(q -> q > 0)) {
            page.heading(2, "Queue pairs");
            page.figure(() -> Charts.qpHistogram("Max QPs open at once per NIC", List.of(FlowMetrics.qpHistogram(name, qps)), plots, "qps"),
                    "NICs that sent traffic, by the most QPs they had open at once (the transport's own count).");
        }
        if (hasSteps(r)) gantt(page, r, plots);
        if (r.linkSeries() != null && r.linkSeries().intervals() > 0) timeMap(page, r, plots);
        List<LinkHeatMaps.Panel> panels = LinkHeatMaps.panels("", r.links());
        if (!panels.isEmpty()) {
            page.heading(2, "Link utilisation");
            double fabricScale = Charts.niceCeiling(Math.max(1e-9, r.links().stream().mapToDouble(LinkRecord::utilisation).max().orElse(0)));
            page.figure(() -> TopologyDrawing.draw("Fabric and load per link", r.links(), fabricScale, plots, "topology"),
                    "The fabric tier above tier" + (TopologyDrawing.hostsLeftOut(r.links()) ? " (its hosts left out: more than "
                    + TopologyDrawing.MAX_HOSTS + ")" : "") + "; each link coloured and thickened by the utilisation of its busier "
                    + "direction (links.csv), colour scale 0 to " + ColourBar.label(fabricScale * 100) + " %; a link not up at the end of "
                    + "the run is dashed red.");
            page.paragraph("Bytes sent on each link direction over (link rate x run time). Host links and fabric "
                    + "(switch-to-switch) links have separate colour scales, each 0 to the largest utilisation of its "
                    + "panels rounded up, so a lightly loaded fabric still shows contrast beside busy host links.");
            for (boolean fabric : new boolean[] {false, true}) {
                List<LinkHeatMaps.Panel> part = panels.stream().filter(p -> p.fabric() == fabric).toList();
                if (part.isEmpty()) continue;
                double max = LinkHeatMaps.max(part), scale = Charts.niceCeiling(max);
                page.heading(3, (fabric ? "Fabric links" : "Host links") + ": colour scale 0 to " + scale
                        + " (largest utilisation " + fmt(max, 3) + ")");
                List<java.util.function.Supplier<ChartFiles>> maps = new ArrayList<>();
                for (LinkHeatMaps.Panel p : part) maps.add(() -> Charts.heatMap(p.map(), scale, plots, "util-" + p.key()));
                page.galleryOf(maps);
            }
        }
        return page.write();
    }

    /** Whether the run has a step timeline (metrics.steps) with a step that started: something to draw. */
    static boolean hasSteps(RunResult r) {
        return r.steps() != null && r.steps().rows().stream().anyMatch(s -> !Double.isNaN(s.startNs()));
    }

    /** The collectives' steps per rank over time (steps.csv), the run's events marked. */
    private static void gantt(ReportPage page, RunResult r, Path plots) {
        page.heading(2, "Collective steps over time");
        List<Marker> events = FlowMetrics.eventMarkers(r.eventLog());
        ganttFigure(page, r, r.simTimeNs() / 1e3, events, "Collective steps per rank", "the run's events", plots, "steps-gantt");
    }

    /**
     * The Gantt chart of {@code r}'s steps as a figure of {@code page}, its time axis from 0 to at least
     * {@code endUs}, {@code events} drawn as dashed lines and named in the caption as {@code eventsName};
     * shared by the run and the compare report.
     */
    static void ganttFigure(ReportPage page, RunResult r, double endUs, List<Marker> events, String title, String eventsName, Path plots,
            String file) {
        StepGantt.Layout lay = StepGantt.layout(r.steps().rows(), endUs);
        StringBuilder caption = new StringBuilder("Each rank's steps (steps.csv, metrics.steps): a bar from the rank's first flow of the step")
                .append(" starting to its last one delivered, coloured by the step's number (light early, dark late); with pipelining")
                .append(" or several channels a rank's steps overlap, the later drawn on top. A step still unfinished when the run")
                .append(" stopped runs to the right edge.");
        if (lay.bands().size() < r.steps().rows().stream().map(s -> ((long) s.group() << 32) | s.rank()).distinct().count()) {
            caption.append(" Rows merge ranges of ranks (or of collectives, c = group) to keep at most ").append(StepGantt.MAX_ROWS)
                    .append(" rows; a bar spans what it merges.");
        }
        if (lay.stepsPerBar() > 1) caption.append(" Each bar merges ").append(lay.stepsPerBar()).append(" consecutive steps.");
        if (!events.isEmpty()) caption.append(" Dashed lines: ").append(eventsName).append(" (events.csv):");
        for (Marker m : events) caption.append(' ').append(m.label()).append(" at ").append(fmt(m.x(), 1)).append(" us;");
        page.figure(() -> StepGantt.draw(title, r.steps().rows(), events, endUs, plots, file), caption.toString());
    }

    /** Columns and rows of the utilisation-over-time heat map: beyond them windows lengthen and links merge into classes. */
    static final int TIME_WINDOWS = 48, TIME_ROWS = 64;

    /** The per-link series as a heat map over time windows, the run's events marked on its time axis. */
    private static void timeMap(ReportPage page, RunResult r, Path plots) {
        List<Marker> events = FlowMetrics.eventMarkers(r.eventLog());
        LinkTimeMaps.TimeMap tm = LinkTimeMaps.of(r.linkSeries(), TIME_WINDOWS, TIME_ROWS).marking(events);
        double scale = Charts.niceCeiling(Math.max(tm.max(), 1e-9));
        page.heading(2, "Link utilisation over time");
        StringBuilder caption = new StringBuilder("Bytes each ")
                .append(tm.byClass() ? "class of link directions (mean over its " + r.linkSeries().links() + " sampled directions)" : "sampled link direction")
                .append(" sent per window of ").append(ColourBar.label(tm.windowUs() * tm.unit().factor())).append(' ').append(tm.unit().name())
                .append(" over what its rate carries in the window (link_series.csv, metrics.series; colour scale 0 to ")
                .append(ColourBar.label(scale * 100)).append(" %, largest ").append(fmt(tm.max() * 100, 2)).append(" %).");
        if (!events.isEmpty()) caption.append(" Windows marked * hold the run's events:");
        for (Marker m : events) {
            int k = tm.column(m.x());
            caption.append(' ').append(m.label()).append(" at ").append(fmt(m.x() * tm.unit().factor(), 3)).append(' ').append(tm.unit().name())
                    .append(k < 0 ? " (after the series)" : " (window " + tm.map().columns().get(k).replace(" *", "") + ")").append(';');
        }
        page.figure(() -> Charts.heatMap(tm.map(), scale, plots, "util-over-time"), caption.toString());
    }

    public static String fmt(double x, int decimals) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", x);
    }
}

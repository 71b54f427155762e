package lbsim.metrics;

import java.util.List;
import java.util.Map;

/**
 * Everything one run reports: the summary scalars and the per-flow and per-link rows;
 * {@code slowdown} is null except for open-loop workloads, {@code collectives} empty except for kind collective,
 * {@code uplinks} null when the fabric has no ToR uplinks;
 * {@code commTimeNs} (union of collective groups' busy intervals) null except for finished collective and training runs;
 * {@code nic} the NIC profile in force and its fields, as summary.json reports them;
 * {@code eventLog} the run's failures, detections, reroutes and timeouts (events.csv);
 * {@code linkSeries} the per-link time series (link_series.csv), null unless {@code metrics.series} asks for it;
 * {@code steps} the collectives' per-step, per-rank timeline (steps.csv), null unless {@code metrics.steps} asks for it;
 * {@code cnps} the CNPs the receivers sent (a congestion control without CNPs sends none).
 */
public record RunResult(String scenario, String scheme, long seed, boolean completed, Long cctNs, long idealCctNs,
                        Stats fct, long packetsSent, long packetsDelivered, long packetsDropped,
                        long packetsRetransmitted, long packetsTrimmed, long ecnMarked, long pfcPauses, int maxQpsPerNic,
                        long outOfOrderPackets, long timeouts, long events, long packetHops, double simTimeNs,
                        long wallMs, List<FlowRecord> flows, List<LinkRecord> links, List<String> warnings,
                        Map<String, Long> lbCounters, ThroughputSeries throughput, List<LinkClassRecord> linkClasses,
                        Slowdown slowdown, List<CollectiveResult> collectives, int[] maxQpsByNic, UplinkLoad uplinks,
                        Long commTimeNs, Map<String, Object> nic, List<String> idealisations,
                        lbsim.engine.EventLog eventLog, LinkSeries linkSeries, String scenarioSha256,
                        StepTimeline steps, long cnps) {

    /** Completion normalised to the ideal: CCT for collectives, else the last flow's finish. */
    public double normalised() {
        if (idealCctNs <= 0) return Double.NaN;
        if (cctNs != null) return cctNs / (double) idealCctNs;
        return completed ? lastFinishNs() / idealCctNs : Double.NaN;
    }

    /** CCT for collectives, else the last flow's finish; NaN for an incomplete run, which has no completion. */
    public double completionNs() {
        if (!completed) return Double.NaN;
        return cctNs != null ? cctNs : lastFinishNs();
    }

    /** The latest finish of a finished flow; NaN when no flow finished. */
    public double lastFinishNs() {
        double m = -1; // unfinished flows have finish -1
        for (FlowRecord f : flows) m = Math.max(m, f.finishNs());
        return m < 0 ? Double.NaN : m;
    }

    /** The NIC in force as one line for reports: its description, then what the NIC idealises, if anything. */
    public String nicLine() {
        if (nic == null || nic.get("description") == null) return "";
        Object ideal = nic.get("idealisations");
        String s = String.valueOf(nic.get("description"));
        if (ideal instanceof List<?> l && !l.isEmpty()) s += ". Idealised: " + String.join("; ", l.stream().map(String::valueOf).toList());
        return s;
    }

    /** What the run idealises beyond its NIC: the scheme's own settings (e.g. ConWeave's unlimited reorder queues). */
    public List<String> schemeIdealisations() {
        if (idealisations == null) return List.of();
        Object nicOwn = nic == null ? null : nic.get("idealisations");
        return idealisations.stream().filter(i -> !(nicOwn instanceof List<?> l && l.contains(i))).toList();
    }

    /** The scheme's idealisations as one line ("conweave idealises: ..."), "" when it has none. */
    public String schemeIdealisationLine() {
        List<String> own = schemeIdealisations();
        return own.isEmpty() ? "" : scheme + " idealises: " + String.join("; ", own);
    }

    /** The NIC line, then the scheme's idealisations on a line of their own if any: the conditions of one run. */
    public String conditionsLine() {
        String nicPart = nicLine();
        String schemePart = schemeIdealisationLine();
        if (schemePart.isEmpty()) return nicPart;
        return nicPart.isEmpty() ? schemePart : nicPart + "\n" + schemePart;
    }

    /** For runs of one scenario under several schemes: the NIC line once, then each scheme's idealisation line. */
    public static String conditionsLines(List<RunResult> runs) {
        List<String> lines = new java.util.ArrayList<>();
        if (!runs.isEmpty() && !runs.get(0).nicLine().isEmpty()) lines.add(runs.get(0).nicLine());
        for (RunResult r : runs) if (!r.schemeIdealisationLine().isEmpty()) lines.add(r.schemeIdealisationLine());
        return String.join("\n", lines);
    }

    /** Flows that finished (were delivered) before the run ended. */
    public int finishedFlows() {
        int n = 0;
        for (FlowRecord f : flows) if (f.finishNs() >= 0) n++;
        return n;
    }
}

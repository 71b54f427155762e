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
 * {@code linkSeries} the per-link time series (link_series.csv), null unless {@code metrics.series} asks for it.
 */
public record RunResult(String scenario, String scheme, long seed, boolean completed, Long cctNs, long idealCctNs,
                        Stats fct, long packetsSent, long packetsDelivered, long packetsDropped,
                        long packetsRetransmitted, long packetsTrimmed, long ecnMarked, long pfcPauses, int maxQpsPerNic,
                        long outOfOrderPackets, long timeouts, long events, long packetHops, double simTimeNs,
                        long wallMs, List<FlowRecord> flows, List<LinkRecord> links, List<String> warnings,
                        Map<String, Long> lbCounters, ThroughputSeries throughput, List<LinkClassRecord> linkClasses,
                        Slowdown slowdown, List<CollectiveResult> collectives, int[] maxQpsByNic, UplinkLoad uplinks,
                        Long commTimeNs, Map<String, Object> nic, lbsim.engine.EventLog eventLog, LinkSeries linkSeries) {

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

    /** The NIC in force as one line for reports: its description, then what it idealises, if anything. */
    public String nicLine() {
        if (nic == null || nic.get("description") == null) return "";
        Object ideal = nic.get("idealisations");
        String s = String.valueOf(nic.get("description"));
        if (ideal instanceof List<?> l && !l.isEmpty()) s += ". Idealised: " + String.join("; ", l.stream().map(String::valueOf).toList());
        return s;
    }

    /** Flows that finished (were delivered) before the run ended. */
    public int finishedFlows() {
        int n = 0;
        for (FlowRecord f : flows) if (f.finishNs() >= 0) n++;
        return n;
    }
}

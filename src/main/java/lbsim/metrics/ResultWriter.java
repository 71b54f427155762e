package lbsim.metrics;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes summary.json, flows.csv, links.csv, throughput.csv, events.csv, link_series.csv and
 * steps.csv of one run; the large CSVs through {@link CsvRows}, which formats numbers without a String per cell.
 */
public final class ResultWriter {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ResultWriter() {}

    /** The summary as an ordered map (DESIGN.md field names). */
    public static Map<String, Object> summary(RunResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", r.scenario());
        m.put("scenario_sha256", r.scenarioSha256());
        m.put("scheme", r.scheme());
        m.put("seed", r.seed());
        m.put("completed", r.completed());
        m.put("cct_ns", r.cctNs());
        m.put("ideal_cct_ns", r.idealCctNs());
        m.put("normalised", roundOrNull(r.normalised()));
        if (r.commTimeNs() != null) m.put("comm_time_ns", r.commTimeNs());
        Map<String, Object> flows = new LinkedHashMap<>();
        flows.put("count", r.flows().size());
        // no finished flow: the statistics are undefined (null), not 0
        Stats st = r.fct();
        Map<String, Object> fct = new LinkedHashMap<>();
        fct.put("mean", roundOrNull(st.mean()));
        fct.put("p50", st.isEmpty() ? null : st.p50());
        fct.put("p99", st.isEmpty() ? null : st.p99());
        fct.put("max", st.isEmpty() ? null : st.max());
        flows.put("fct_ns", fct);
        // the worst-hit flow (McClure Fig. 2): most data packets lost, and the largest lost share of a flow's message
        long maxLost = 0;
        double maxLoss = 0;
        for (FlowRecord f : r.flows()) {
            maxLost = Math.max(maxLost, f.lostPackets());
            maxLoss = Math.max(maxLoss, f.lossFraction());
        }
        flows.put("max_lost_packets", maxLost);
        flows.put("max_loss_fraction", round(maxLoss));
        if (r.slowdown() != null) putSlowdown(flows, r.slowdown());
        m.put("flows", flows);
        if (!r.collectives().isEmpty()) m.put("collectives", collectives(r));
        if (!r.collectives().isEmpty()) m.put("collectives_mean", collectivesMean(r));
        Map<String, Object> packets = new LinkedHashMap<>();
        packets.put("sent", r.packetsSent());
        packets.put("delivered", r.packetsDelivered());
        packets.put("dropped", r.packetsDropped());
        packets.put("retransmitted", r.packetsRetransmitted());
        packets.put("trimmed", r.packetsTrimmed());
        packets.put("ecn_marked", r.ecnMarked());
        packets.put("out_of_order", r.outOfOrderPackets());
        m.put("packets", packets);
        m.put("timeouts", r.timeouts());
        m.put("pfc_pauses", r.pfcPauses());
        m.put("cnps", r.cnps());
        m.put("max_qps_per_nic", r.maxQpsPerNic());
        m.put("nic", r.nic());
        m.put("idealisations", r.idealisations());
        m.put("lb", new java.util.TreeMap<>(r.lbCounters()));
        Map<String, Object> tt = new LinkedHashMap<>();
        tt.put("interval_ns", round(r.throughput().intervalNs()));
        tt.put("max_gbps", round(r.throughput().maxGbps()));
        tt.put("mean_gbps", round(r.throughput().meanGbps()));
        m.put("throughput", tt);
        java.util.List<Map<String, Object>> classes = new java.util.ArrayList<>();
        for (LinkClassRecord c : r.linkClasses()) {
            Map<String, Object> lc = new LinkedHashMap<>();
            lc.put("class", c.linkClass());
            lc.put("links", c.links());
            lc.put("mean_utilisation", round4(c.meanUtilisation()));
            lc.put("stdev_utilisation", round4(c.stdevUtilisation()));
            lc.put("max_utilisation", round4(c.maxUtilisation()));
            lc.put("mean_before_failure", round4(c.meanBeforeFailure()));
            lc.put("mean_after_failure", round4(c.meanAfterFailure()));
            classes.add(lc);
        }
        m.put("link_classes", classes);
        if (r.uplinks() != null) m.put("uplinks", uplinks(r.uplinks()));
        m.put("sim_time_ns", round(r.simTimeNs()));
        m.put("events", r.events());
        m.put("packet_hops", r.packetHops());
        m.put("warnings", r.warnings());
        m.put("wall_ms", r.wallMs());
        return m;
    }

    private static Double round4(double x) {
        return Double.isNaN(x) ? null : Math.round(x * 10000.0) / 10000.0;
    }

    /**
     * flows.slowdown {mean, p99} (null when no flow finished) and flows.slowdown_bins [{min_bytes,
     * max_bytes (null = unbounded), count, mean, p99}] (only bins with flows, so empty then).
     */
    private static void putSlowdown(Map<String, Object> flows, Slowdown sd) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("mean", roundOrNull(sd.mean()));
        all.put("p99", roundOrNull(sd.p99()));
        flows.put("slowdown", all);
        List<Map<String, Object>> bins = new ArrayList<>();
        for (Slowdown.Bin b : sd.bins()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("min_bytes", b.minBytes());
            m.put("max_bytes", b.maxBytes() < 0 ? null : b.maxBytes());
            m.put("count", b.count());
            m.put("mean", round(b.mean()));
            m.put("p99", round(b.p99()));
            bins.add(m);
        }
        flows.put("slowdown_bins", bins);
    }

    private static List<Map<String, Object>> collectives(RunResult r) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (CollectiveResult c : r.collectives()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("group", c.group());
            m.put("label", c.label());
            m.put("op", c.op());
            m.put("algorithm", c.algorithm());
            m.put("size_bytes", c.sizeBytes());
            m.put("ranks", c.ranks());
            m.put("cct_ns", c.cctNs());
            m.put("ideal_cct_ns", c.idealNs());
            m.put("algbw_gbps", c.algbwGbps() == null ? null : round(c.algbwGbps()));
            m.put("busbw_gbps", c.busbwGbps() == null ? null : round(c.busbwGbps()));
            // NCCL-tests' unit: gigabytes per second (the Gbit/s field over 8)
            m.put("algbw_GBps", c.algbwGbps() == null ? null : round(c.algbwGbps() / 8));
            m.put("busbw_GBps", c.busbwGbps() == null ? null : round(c.busbwGbps() / 8));
            out.add(m);
        }
        return out;
    }

    /**
     * The mean over the run's collectives (jobs) of CCT, algbw and busbw, as NCCL-tests figures
     * average concurrent tasks (CTCCL §4.2); null while any collective is unfinished.
     */
    private static Map<String, Object> collectivesMean(RunResult r) {
        double cct = 0, alg = 0, bus = 0;
        boolean all = true;
        for (CollectiveResult c : r.collectives()) {
            if (c.cctNs() == null || c.algbwGbps() == null || c.busbwGbps() == null) {
                all = false;
                break;
            }
            cct += c.cctNs();
            alg += c.algbwGbps();
            bus += c.busbwGbps();
        }
        int n = r.collectives().size();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jobs", n);
        m.put("cct_ns", all ? round(cct / n) : null);
        m.put("algbw_gbps", all ? round(alg / n) : null);
        m.put("busbw_gbps", all ? round(bus / n) : null);
        m.put("algbw_GBps", all ? round(alg / n / 8) : null);
        m.put("busbw_GBps", all ? round(bus / n / 8) : null);
        return m;
    }

    /** summary.json {@code uplinks}: the ToR uplinks' utilisation and its variance in %² (metrics/UplinkLoad). */
    private static Map<String, Object> uplinks(UplinkLoad u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("links", u.links());
        m.put("down", u.down());
        m.put("mean_utilisation", round4(u.meanUtilisation()));
        m.put("max_utilisation", round4(u.maxUtilisation()));
        m.put("variance_pct2", round4(u.variancePct2()));
        m.put("mean_before_failure", round4(u.meanBeforeFailure()));
        m.put("variance_before_failure_pct2", round4(u.varianceBeforeFailurePct2()));
        m.put("mean_after_failure", round4(u.meanAfterFailure()));
        m.put("min_after_failure", round4(u.minAfterFailure()));
        m.put("max_after_failure", round4(u.maxAfterFailure()));
        m.put("variance_after_failure_pct2", round4(u.varianceAfterFailurePct2()));
        return m;
    }

    static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }

    /** As {@link #round}, but an undefined statistic (NaN) is null: Math.round would make it 0. */
    private static Double roundOrNull(double x) {
        return Double.isNaN(x) ? null : round(x);
    }

    public static String summaryJson(RunResult r) {
        return JSON.writeValueAsString(summary(r));
    }

    public static void write(RunResult r, Path dir) {
        try {
            Files.createDirectories(dir);
            AtomicFiles.writeString(dir.resolve("summary.json"), summaryJson(r) + "\n");
            writeFlows(r, dir.resolve("flows.csv"));
            writeLinks(r, dir.resolve("links.csv"));
            writeThroughput(r.throughput(), dir.resolve("throughput.csv"));
            writeEvents(r.eventLog(), dir.resolve("events.csv"));
            if (r.linkSeries() != null) writeLinkSeries(r.linkSeries(), dir.resolve("link_series.csv"));
            if (r.steps() != null) writeSteps(r.steps(), dir.resolve("steps.csv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String num(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : String.format(Locale.ROOT, "%.3f", x);
    }

    private static void writeFlows(RunResult r, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvRows csv = new CsvRows(w)) {
                csv.row("id", "src", "dst", "size_bytes", "group", "qps", "start_ns", "finish_ns", "fct_ns",
                        "fct_ack_ns", "retransmitted_packets", "timeouts", "path_changes", "lost_packets", "label", "slowdown");
                // times to the picosecond (3 decimals), empty when the flow never started or finished (negative)
                for (FlowRecord f : r.flows()) {
                    csv.integer(f.id()).integer(f.src()).integer(f.dst()).integer(f.sizeBytes()).integer(f.group()).integer(f.qps())
                            .fixed(f.startNs() < 0 ? Double.NaN : f.startNs(), 3).fixed(f.finishNs() < 0 ? Double.NaN : f.finishNs(), 3)
                            .fixed(f.fctNs() < 0 ? Double.NaN : f.fctNs(), 3).fixed(f.fctAckNs() < 0 ? Double.NaN : f.fctAckNs(), 3)
                            .integer(f.retransmittedPackets()).integer(f.timeouts()).integer(f.pathChanges()).integer(f.lostPackets())
                            .text(f.label()).fixed(f.slowdown(), 4).end();
                }
            }
        });
    }

    public static void writeThroughput(ThroughputSeries t, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvRows csv = new CsvRows(w)) {
                csv.row("time_us", "gbps");
                for (int i = 0; i < t.gbps().length; i++) csv.fixed((i + 1) * t.intervalNs() / 1000.0, 3).fixed(t.gbps()[i], 3).end();
            }
        });
    }

    private static void writeLinks(RunResult r, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvRows csv = new CsvRows(w)) {
                csv.row("link", "link_id", "from", "to", "gbps", "bytes", "utilisation", "max_queue_bytes", "drops", "ecn_marks",
                        "pfc_pauses", "paused_us", "state", "state_since_ns");
                for (LinkRecord l : r.links()) {
                    csv.text(l.link()).text(l.linkId()).text(l.from()).text(l.to()).fixed(l.gbps(), 3).integer(l.bytes())
                            .fixed(l.utilisation(), 4).integer(l.maxQueueBytes()).integer(l.drops()).integer(l.ecnMarks())
                            .integer(l.pfcPausesReceived()).fixed(l.pausedUs(), 3).text(l.state()).fixed(l.stateSinceNs(), 3).end();
                }
            }
        });
    }

    /**
     * events.csv: {@code time_ns, kind, subject, detail}, in simulated time order; then, for each
     * kind that ran past the log's cap, a row of kind {@code truncated} whose subject is that kind,
     * at the time of the last row left out, saying how many were left out.
     */
    static void writeEvents(lbsim.engine.EventLog log, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(w)) {
                csv.writeRecord("time_ns", "kind", "subject", "detail");
                for (lbsim.engine.EventLog.Entry e : log.entries()) {
                    csv.writeRecord(Long.toString(nanos(e.timePs())), e.kind(), e.subject(), e.detail());
                }
                for (lbsim.engine.EventLog.Overflow o : log.overflow()) {
                    csv.writeRecord(Long.toString(nanos(o.lastPs())), "truncated", o.kind(), o.omitted() + " more " + o.kind()
                            + " rows after the first " + log.maxPerKind() + " are left out");
                }
            }
        });
    }

    /**
     * link_series.csv: {@code time_us} (end of the interval), {@code link_id}, {@code utilisation}
     * (bytes serialised in the interval over the nominal rate x its length), {@code queue_bytes}
     * (waiting at its end), {@code pfc_paused} (share of it the port was paused), {@code ecn_marks},
     * {@code cnps} (CNPs the port started sending in it);
     * interval by interval, the links in links.csv order within one.
     */
    static void writeLinkSeries(LinkSeries s, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvRows csv = new CsvRows(w)) {
                csv.row("time_us", "link_id", "utilisation", "queue_bytes", "pfc_paused", "ecn_marks", "cnps");
                for (int k = 0; k < s.intervals(); k++) {
                    double time = s.endPs(k) / 1e6;
                    for (int i = 0; i < s.links(); i++) {
                        csv.fixed(time, 3).text(s.linkId(i)).fixed(s.utilisation(k, i), 4).integer(s.queueBytes(k, i))
                                .fixed(s.pausedShare(k, i), 4).integer(s.ecnMarks(k, i)).integer(s.cnps(k, i)).end();
                    }
                }
            }
        });
    }

    /**
     * steps.csv: {@code group, collective, step, step_name, rank, host, start_ns, end_ns, bytes,
     * flows}, by group, step and rank; times to the picosecond, empty when no flow of the row
     * started (start) or not all of them were delivered (end).
     */
    static void writeSteps(StepTimeline t, Path file) throws IOException {
        AtomicFiles.write(file, w -> {
            try (CsvRows csv = new CsvRows(w)) {
                csv.row("group", "collective", "step", "step_name", "rank", "host", "start_ns", "end_ns", "bytes", "flows");
                for (StepTimeline.Row r : t.rows()) {
                    csv.integer(r.group()).text(r.collective()).integer(r.step()).text(r.stepName()).integer(r.rank()).integer(r.host())
                            .fixed(r.startNs(), 3).fixed(r.endNs(), 3).integer(r.bytes()).integer(r.flows()).end();
                }
            }
        });
    }

    /** Picoseconds to whole nanoseconds, rounded half up. */
    private static long nanos(long ps) {
        return Math.floorDiv(ps + 500, 1000);
    }
}

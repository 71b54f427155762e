package lbsim.cli;

import java.util.List;
import java.util.Locale;
import lbsim.metrics.RunResult;
import lbsim.metrics.SeedComparison;
import lbsim.metrics.plot.RunReport;

/** Plain-text tables for the terminal. Undefined values (no completion, no finished flow) print as "-", never NaN or 0. */
final class Tables {
    private Tables() {}

    static String summaryLine(RunResult r) {
        String state;
        if (r.completed()) {
            state = String.format(Locale.ROOT, "completed, completion %s (normalised %s), %s", us(r.completionNs()), RunReport.fmt(r.normalised(), 2),
                    fctPercentiles(r));
        } else if (r.fct().isEmpty()) {
            state = "INCOMPLETE, no flow finished";
        } else {
            state = String.format(Locale.ROOT, "INCOMPLETE (%d of %d flows finished), %s of those", r.finishedFlows(), r.flows().size(),
                    fctPercentiles(r));
        }
        return String.format(Locale.ROOT, "%s: %s, drops %d, retx %d, max QPs/NIC %d", r.scheme(), state, r.packetsDropped(),
                r.packetsRetransmitted(), r.maxQpsPerNic());
    }

    private static String fctPercentiles(RunResult r) {
        return String.format(Locale.ROOT, "FCT p50 %.1f us p99 %.1f us", r.fct().p50() / 1e3, r.fct().p99() / 1e3);
    }

    static String us(double ns) {
        return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }

    static String compare(List<RunResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-16s %14s %10s %12s %12s %9s %9s %8s %8s%n", "scheme", "completion_us", "normalised",
                "fct_p50_us", "fct_p99_us", "dropped", "retx", "ooo", "max_qps"));
        for (RunResult r : results) {
            boolean noFct = r.fct().isEmpty();
            sb.append(String.format(Locale.ROOT, "%-16s %14s %10s %12s %12s %9d %9d %8d %8d%n", r.scheme(),
                    RunReport.fmt(r.completionNs() / 1e3, 1), RunReport.fmt(r.normalised(), 3), RunReport.fmt(noFct ? Double.NaN : r.fct().p50() / 1e3, 1),
                    RunReport.fmt(noFct ? Double.NaN : r.fct().p99() / 1e3, 1), r.packetsDropped(), r.packetsRetransmitted(),
                    r.outOfOrderPackets(), r.maxQpsPerNic()));
        }
        // every scheme of a compare runs on the same NIC (the scenario's nic section)
        String conditions = RunResult.conditionsLines(results);
        if (!conditions.isEmpty()) sb.append(conditions).append('\n');
        return sb.toString();
    }

    /**
     * The compare table. One seed: {@link #compare(List)} as before, then the line saying that one
     * seed gives no noise estimate. Several seeds: per scheme the means over the seeds (counts
     * rounded), the completion's sample sd ({@code sd_us}) and how it stands against the best
     * ({@code vs_best}), then the NIC, the rule, the verdict with what it holds for, and the noise.
     */
    static String compare(SeedComparison c) {
        List<RunResult> first = c.rows().stream().map(SeedComparison.Row::first).toList();
        if (c.seeds() <= 1) return compare(first) + (c.rows().isEmpty() ? "" : c.verdictLine() + "\n");
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-16s %14s %8s %10s %12s %12s %9s %9s %8s %8s  %s%n", "scheme", "completion_us", "sd_us",
                "normalised", "fct_p50_us", "fct_p99_us", "dropped", "retx", "ooo", "max_qps", "vs_best"));
        for (SeedComparison.Row r : c.rows()) {
            sb.append(String.format(Locale.ROOT, "%-16s %14s %8s %10s %12s %12s %9s %9s %8s %8s  %s", r.scheme(),
                    RunReport.fmt(r.completionMeanNs() / 1e3, 1), RunReport.fmt(r.completionSdNs() / 1e3, 1), RunReport.fmt(r.normalisedMean(), 3),
                    RunReport.fmt(r.fctP50MeanNs() / 1e3, 1), RunReport.fmt(r.fctP99MeanNs() / 1e3, 1), RunReport.fmt(r.dropped(), 0),
                    RunReport.fmt(r.retransmitted(), 0), RunReport.fmt(r.outOfOrder(), 0), RunReport.fmt(r.maxQpsPerNic(), 0),
                    r.vsBest(c.best())).stripTrailing()).append('\n');
        }
        if (!c.conditionsLine().isEmpty()) sb.append(c.conditionsLine()).append('\n');
        sb.append("means over ").append(c.seedRange()).append(" per scheme; sd_us: the completion's sample sd over them; ")
                .append(SeedComparison.ruleLine()).append('\n');
        sb.append(c.verdictLine()).append('\n');
        sb.append(c.noiseLine()).append('\n');
        return sb.toString();
    }
}

package lbsim.cli;

import java.util.List;
import java.util.Locale;
import lbsim.metrics.RunResult;
import lbsim.metrics.plot.RunReport;

/** Plain-text tables for the terminal. Undefined values (no completion, no finished flow) print as "-", never NaN or 0. */
final class Tables {
    private Tables() {}

    static String summaryLine(RunResult r) {
        String state;
        if (r.completed()) {
            state = String.format(Locale.ROOT, "completed, completion %s (%sx ideal), %s", us(r.completionNs()), RunReport.fmt(r.normalised(), 2),
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
        sb.append(String.format(Locale.ROOT, "%-16s %14s %8s %12s %12s %9s %9s %8s %8s%n", "scheme", "completion_us", "x_ideal",
                "fct_p50_us", "fct_p99_us", "dropped", "retx", "ooo", "max_qps"));
        for (RunResult r : results) {
            boolean noFct = r.fct().isEmpty();
            sb.append(String.format(Locale.ROOT, "%-16s %14s %8s %12s %12s %9d %9d %8d %8d%n", r.scheme(),
                    RunReport.fmt(r.completionNs() / 1e3, 1), RunReport.fmt(r.normalised(), 3), RunReport.fmt(noFct ? Double.NaN : r.fct().p50() / 1e3, 1),
                    RunReport.fmt(noFct ? Double.NaN : r.fct().p99() / 1e3, 1), r.packetsDropped(), r.packetsRetransmitted(),
                    r.outOfOrderPackets(), r.maxQpsPerNic()));
        }
        // every scheme of a compare runs on the same NIC (the scenario's nic section)
        if (!results.isEmpty() && !results.get(0).nicLine().isEmpty()) sb.append(results.get(0).nicLine()).append('\n');
        return sb.toString();
    }
}

package lbsim.cli;

import java.util.List;
import java.util.Locale;
import lbsim.metrics.RunResult;

/** Plain-text tables for the terminal. */
final class Tables {
    private Tables() {}

    static String summaryLine(RunResult r) {
        return String.format(Locale.ROOT, "%s: %s, completion %s (%.2fx ideal), FCT p50 %.1f us p99 %.1f us, drops %d, retx %d, max QPs/NIC %d",
                r.scheme(), r.completed() ? "completed" : "INCOMPLETE", r.cctNs() != null ? us(r.cctNs()) : us(r.lastFinishNs()),
                r.normalised(), r.fct().p50() / 1e3, r.fct().p99() / 1e3, r.packetsDropped(), r.packetsRetransmitted(),
                r.maxQpsPerNic());
    }

    static String us(double ns) {
        return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }

    static String compare(List<RunResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-16s %14s %8s %12s %12s %9s %9s %8s %8s%n", "scheme", "completion_us", "x_ideal",
                "fct_p50_us", "fct_p99_us", "dropped", "retx", "ooo", "max_qps"));
        for (RunResult r : results) {
            double c = r.cctNs() != null ? r.cctNs() : r.lastFinishNs();
            sb.append(String.format(Locale.ROOT, "%-16s %14.1f %8.3f %12.1f %12.1f %9d %9d %8d %8d%n", r.scheme(), c / 1e3,
                    r.normalised(), r.fct().p50() / 1e3, r.fct().p99() / 1e3, r.packetsDropped(), r.packetsRetransmitted(),
                    r.outOfOrderPackets(), r.maxQpsPerNic()));
        }
        return sb.toString();
    }
}

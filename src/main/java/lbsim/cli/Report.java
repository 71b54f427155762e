package lbsim.cli;

import java.util.List;
import java.util.Locale;
import lbsim.metrics.RunResult;

/** A self-contained HTML page for a comparison (tables only for now; charts come with the plots issue). */
final class Report {
    private Report() {}

    static String compareHtml(List<RunResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lbsim compare</title>\n")
                .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#eee}</style></head><body>\n");
        String scenario = results.isEmpty() ? "" : results.get(0).scenario();
        sb.append("<h1>lbsim compare: ").append(escape(scenario)).append("</h1>\n");
        sb.append("<p>Completion is the collective completion time (CCT) for collectives, else the last flow's finish; ")
                .append("x ideal divides it by the workload's lower bound with no queueing or loss.</p>\n<table>\n")
                .append("<tr><th>scheme</th><th>completion (us)</th><th>x ideal</th><th>FCT p50 (us)</th><th>FCT p99 (us)</th>")
                .append("<th>dropped</th><th>retransmitted</th><th>out of order</th><th>PFC pauses</th><th>max QPs/NIC</th></tr>\n");
        for (RunResult r : results) {
            double c = r.cctNs() != null ? r.cctNs() : r.lastFinishNs();
            sb.append(String.format(Locale.ROOT,
                    "<tr><td style=\"text-align:left\">%s</td><td>%.1f</td><td>%.3f</td><td>%.1f</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>%n",
                    escape(r.scheme()), c / 1e3, r.normalised(), r.fct().p50() / 1e3, r.fct().p99() / 1e3, r.packetsDropped(),
                    r.packetsRetransmitted(), r.outOfOrderPackets(), r.pfcPauses(), r.maxQpsPerNic()));
        }
        sb.append("</table>\n</body></html>\n");
        return sb.toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

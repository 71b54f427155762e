package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Locale;
import lbsim.experiment.SweepSpec;

/** report.html of a reproduction: the comparison table; charts are appended in their own section. */
public final class ReproduceReport {
    private ReproduceReport() {}

    /**
     * @param charts HTML fragments (e.g. inline SVG or img tags) placed in the "charts"
     *               section; empty until a chart module supplies them
     */
    public static String html(Preset p, String scale, SweepSpec spec, List<Reproduce.Row> rows, List<String> charts) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lbsim reproduce ").append(esc(p.id()))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#eee}td.l{text-align:left}")
                .append(".nr{color:#888}</style></head><body>\n");
        sb.append("<h1>").append(esc(p.id())).append(": ").append(esc(p.figure())).append("</h1>\n");
        sb.append("<p><i>").append(esc(p.paper())).append("</i></p>\n");
        sb.append("<p>").append(esc(p.description())).append("</p>\n");
        sb.append("<p>Scale: <b>").append(esc(scale)).append("</b>, ").append(spec.runs().size()).append(" runs (")
                .append(spec.points()).append(" grid points x ").append(spec.seeds().length).append(" seeds). Metric: ")
                .append(esc(p.metricLabel())).append(" (summary field <code>").append(esc(p.metric())).append("</code>).</p>\n");
        sb.append("<h2>Ours next to the paper</h2>\n<table>\n<tr><th>cell</th><th>ours (mean)</th><th>ours (SD)</th>")
                .append("<th>seeds</th><th>paper</th><th>difference</th><th>note</th></tr>\n");
        for (Reproduce.Row r : rows) {
            sb.append(r.ran() ? "<tr>" : "<tr class=\"nr\">").append("<td class=\"l\">").append(esc(r.cell().name())).append("</td>");
            if (r.ran()) {
                sb.append(String.format(Locale.ROOT, "<td>%.3f</td><td>%.3f</td><td>%d</td><td>%.3f</td><td>%+.3f</td>", r.mean(),
                        r.sd(), r.n(), r.paper(), r.difference()));
            } else {
                sb.append(String.format(Locale.ROOT, "<td colspan=\"3\">not run at this scale</td><td>%.3f</td><td></td>", r.paper()));
            }
            sb.append("<td class=\"l\">").append(esc(r.note())).append("</td></tr>\n");
        }
        sb.append("</table>\n");
        sb.append("<h2>Differences from the paper's setup</h2>\n<ul>\n");
        for (String d : p.deviations()) sb.append("<li>").append(esc(d)).append("</li>\n");
        sb.append("</ul>\n");
        sb.append("<h2>Charts</h2>\n<div id=\"charts\">\n");
        if (charts.isEmpty()) sb.append("<!-- charts: filled in by the chart module -->\n<p class=\"nr\">(no charts yet)</p>\n");
        for (String c : charts) sb.append(c).append('\n');
        sb.append("</div>\n<p>Per-run results: <a href=\"results.csv\">results.csv</a>; cells: ")
                .append("<a href=\"comparison.csv\">comparison.csv</a>.</p>\n</body></html>\n");
        return sb.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

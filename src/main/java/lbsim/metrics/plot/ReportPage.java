package lbsim.metrics.plot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A self-contained HTML page in one directory. Charts are referenced by a relative path
 * inside that directory (the PNG is shown, the SVG of the same chart is linked), so the
 * directory can be copied or zipped as a whole; nothing is fetched from the network.
 */
public final class ReportPage {
    private final Path dir;
    private final StringBuilder body = new StringBuilder();
    private final String title;

    public ReportPage(Path dir, String title) {
        this.dir = dir;
        this.title = title;
    }

    public ReportPage heading(int level, String text) {
        body.append("<h").append(level).append('>').append(escape(text)).append("</h").append(level).append(">\n");
        return this;
    }

    public ReportPage paragraph(String text) {
        body.append("<p>").append(escape(text)).append("</p>\n");
        return this;
    }

    /** Pre-built HTML (for example a table); the caller escapes its own text. */
    public ReportPage html(String html) {
        body.append(html).append('\n');
        return this;
    }

    /** A table: the first column left-aligned, the others right-aligned; no header row when every header is blank. */
    public ReportPage table(List<String> header, List<List<String>> rows) {
        body.append("<table>\n");
        if (header.stream().anyMatch(h -> !h.isBlank())) { // no empty header row (a key/value table has none)
            body.append("<tr>");
            for (String h : header) body.append("<th>").append(escape(h)).append("</th>");
            body.append("</tr>\n");
        }
        for (List<String> r : rows) {
            body.append("<tr>");
            for (int i = 0; i < r.size(); i++) {
                body.append(i == 0 ? "<td class=\"l\">" : "<td>").append(escape(r.get(i))).append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</table>\n");
        return this;
    }

    /** One chart: its PNG inline on the page and a link to its SVG. */
    public ReportPage figure(ChartFiles chart, String caption) {
        String png = relative(chart.png()), svg = relative(chart.svg());
        body.append("<figure><img src=\"").append(escape(png)).append("\" alt=\"").append(escape(chart.title()))
                .append("\"><figcaption>").append(escape(caption)).append(" (<a href=\"").append(escape(svg))
                .append("\">SVG</a>)</figcaption></figure>\n");
        return this;
    }

    /** Several charts side by side (wrapping), for example one heat map per scheme. */
    public ReportPage gallery(List<ChartFiles> charts) {
        body.append("<div class=\"gallery\">\n");
        for (ChartFiles c : charts) figure(c, c.title());
        body.append("</div>\n");
        return this;
    }

    private String relative(Path file) {
        Path rel = dir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize());
        if (rel.startsWith("..")) throw new IllegalArgumentException(file + " is outside the report directory " + dir);
        return rel.toString().replace('\\', '/');
    }

    public String render() {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title>\n"
                + "<style>body{font-family:sans-serif;margin:2em;max-width:1700px}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#eee}td.l{text-align:left}"
                + "figure{display:inline-block;margin:1em 1em 1em 0;vertical-align:top}img{max-width:100%;border:1px solid #eee}"
                + ".gallery figure{max-width:48%}figcaption{font-size:90%;color:#444}</style></head><body>\n"
                + "<h1>" + escape(title) + "</h1>\n" + body + "</body></html>\n";
    }

    /** Writes {@code report.html} into the directory and returns its path. */
    public Path write() {
        Path file = dir.resolve("report.html");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, render());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

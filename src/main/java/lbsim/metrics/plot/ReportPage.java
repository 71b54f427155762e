package lbsim.metrics.plot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A self-contained HTML page in one directory. Charts are referenced by a relative path
 * inside that directory (the PNG is shown, the SVG of the same chart is linked), so the
 * directory can be copied or zipped as a whole; nothing is fetched from the network.
 * Charts given as drawing tasks ({@link #figure(Supplier, String)}) are drawn on all cores while
 * the page is assembled; the page waits for them when it is rendered, in the order they were added.
 */
public final class ReportPage {
    private final Path dir;
    private StringBuilder body = new StringBuilder();
    /** The page so far, in order: HTML text and charts still being drawn (each rendered when done). */
    private final List<Object> parts = new ArrayList<>();
    private final String title;
    private ExecutorService drawers;

    public ReportPage(Path dir, String title) {
        this.dir = dir;
        this.title = title;
    }

    /** Headings of level 2 and 3, in order, for {@link #tableOfContents()}: level, anchor id, text. */
    private final List<String[]> headings = new ArrayList<>();
    private static final String TOC = "<!--lbsim-toc-->";

    /** A heading; levels 2 and 3 get an anchor ({@code id="s-N"}) and an entry in the table of contents. */
    public ReportPage heading(int level, String text) {
        if (level == 2 || level == 3) {
            String id = "s-" + (headings.size() + 1);
            headings.add(new String[] {Integer.toString(level), id, text});
            body.append("<h").append(level).append(" id=\"").append(id).append("\">");
        } else {
            body.append("<h").append(level).append('>');
        }
        body.append(escape(text)).append("</h").append(level).append(">\n");
        return this;
    }

    /** A table of contents here: links to every level-2 and level-3 heading of the page (also those added later). */
    public ReportPage tableOfContents() {
        body.append(TOC).append('\n');
        return this;
    }

    private String contents() {
        StringBuilder sb = new StringBuilder("<nav class=\"toc\"><b>Contents</b>\n<ul>\n");
        boolean inner = false;
        for (String[] h : headings) {
            boolean sub = h[0].equals("3");
            if (sub && !inner) sb.append("<ul>\n");
            if (!sub && inner) sb.append("</ul>\n");
            inner = sub;
            sb.append("<li><a href=\"#").append(h[1]).append("\">").append(escape(h[2])).append("</a></li>\n");
        }
        if (inner) sb.append("</ul>\n");
        return sb.append("</ul></nav>").toString();
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
        // the PNG has ChartWriter.PNG_SCALE pixels per chart pixel (for print): shown at the chart's size
        String width = chart.width() > 0 ? "\" width=\"" + chart.width() : "";
        body.append("<figure><img src=\"").append(escape(png)).append(width).append("\" alt=\"").append(escape(chart.title()))
                .append("\"><figcaption>").append(escape(caption)).append(" (<a href=\"").append(escape(svg))
                .append("\">SVG</a>");
        if (chart.pdf() != null) body.append(", <a href=\"").append(escape(relative(chart.pdf()))).append("\">PDF</a>");
        body.append(")</figcaption></figure>\n");
        return this;
    }

    /** Several charts side by side (wrapping), for example one heat map per scheme. */
    public ReportPage gallery(List<ChartFiles> charts) {
        body.append("<div class=\"gallery\">\n");
        for (ChartFiles c : charts) figure(c, c.title());
        body.append("</div>\n");
        return this;
    }

    /** One chart drawn by {@code draw} beside the rest of the page's work (the files do not depend on the order). */
    public ReportPage figure(Supplier<ChartFiles> draw, String caption) {
        return later(draw, c -> figure(c, caption));
    }

    /** Several charts side by side, each drawn beside the rest of the page's work; captioned with their titles. */
    public ReportPage galleryOf(List<Supplier<ChartFiles>> draws) {
        body.append("<div class=\"gallery\">\n");
        for (Supplier<ChartFiles> d : draws) later(d, c -> figure(c, c.title()));
        body.append("</div>\n");
        return this;
    }

    /** A part of the page that needs a chart: drawn on a worker now, written into the page when rendered. */
    private ReportPage later(Supplier<ChartFiles> draw, java.util.function.Consumer<ChartFiles> place) {
        if (drawers == null) {
            int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
            drawers = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "lbsim-chart");
                t.setDaemon(true);   // a failed page never keeps the JVM alive
                return t;
            });
        }
        parts.add(body);
        parts.add(new Pending(CompletableFuture.supplyAsync(draw, drawers), place));
        body = new StringBuilder();
        return this;
    }

    private record Pending(CompletableFuture<ChartFiles> chart, java.util.function.Consumer<ChartFiles> place) {}

    /** Waits for the charts still being drawn and puts them into the page in order; a drawing's failure is thrown here. */
    private void finishCharts() {
        if (parts.isEmpty()) return;
        StringBuilder rest = body;
        List<Object> pending = new ArrayList<>(parts);
        parts.clear();
        body = new StringBuilder();
        try {
            for (Object part : pending) {
                if (part instanceof Pending p) p.place().accept(join(p.chart()));
                else body.append((CharSequence) part);
            }
        } finally {
            drawers.shutdown();
            drawers = null;
        }
        body.append(rest);
    }

    private static ChartFiles join(CompletableFuture<ChartFiles> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    private String relative(Path file) {
        Path rel = dir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize());
        if (rel.startsWith("..")) throw new IllegalArgumentException(file + " is outside the report directory " + dir);
        return rel.toString().replace('\\', '/');
    }

    public String render() {
        finishCharts();
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title>\n"
                + "<style>body{font-family:sans-serif;margin:2em;max-width:1700px}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#eee}td.l{text-align:left}"
                + "figure{display:inline-block;margin:1em 1em 1em 0;vertical-align:top}img{max-width:100%;border:1px solid #eee}"
                + ".gallery figure{max-width:48%}figcaption{font-size:90%;color:#444}img{height:auto}"
                + "nav.toc{border:1px solid #ddd;padding:0.5em 1em;display:inline-block}nav.toc ul{margin:0.2em 0}</style></head><body>\n"
                + "<h1>" + escape(title) + "</h1>\n" + body.toString().replace(TOC, contents()) + "</body></html>\n";
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

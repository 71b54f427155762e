package lbsim.experiment.reproduce;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lbsim.metrics.AtomicFiles;
import lbsim.metrics.plot.Bar;
import lbsim.metrics.plot.BarGroup;
import lbsim.metrics.plot.ChartFiles;
import lbsim.metrics.plot.PaperFigureCharts;
import lbsim.metrics.plot.ReportPage;

/**
 * summary.html across every preset's stored results ({@code lbsim reproduce --summary --out DIR}): the verdict
 * counts per preset and per paper as stacked bars, the table of {@link Verdicts#summaryMarkdown} with a link to
 * each preset's folder (its report.html when there is one), and every claim's verdict and cause.
 */
public final class SummaryPage {
    public static final String FILE = "summary.html";

    /** The verdicts in stacking order, with their legend names and colours (Okabe-Ito green, orange, vermillion; grey). */
    static final List<String> PARTS = List.of("reproduces", "direction (partly)", "contradicts", "not run");
    private static final List<Color> COLOURS = List.of(new Color(0x009E73), new Color(0xE69F00), new Color(0xD55E00), new Color(0xBBBBBB));

    private SummaryPage() {}

    /** Writes {@code out/summary.html} and its charts (out/plots) from the stored results under {@code root}; returns the page. */
    public static Path write(Path root, Path out) {
        List<Verdicts.Stored> stored = Verdicts.stored(root);
        ReportPage page = new ReportPage(out, "lbsim reproduce: verdicts across all presets");
        page.paragraph("Every preset's stored reproduction under " + root + ": how many of the paper's claims lbsim reproduces, "
                + "reproduces only in direction (partly), contradicts, or did not run at the scale stored. " + Verdicts.RULE);
        page.tableOfContents();
        Verdicts.Counts total = new Verdicts.Counts(0, 0, 0, 0);
        Map<String, Verdicts.Counts> byPaper = new LinkedHashMap<>();
        List<Verdicts.Stored> present = new ArrayList<>();
        for (Verdicts.Stored s : stored) {
            if (!s.present() || s.counts() == null) continue;
            present.add(s);
            total = total.plus(s.counts());
            byPaper.merge(shortPaper(s.preset().paper()), s.counts(), Verdicts.Counts::plus);
        }
        page.heading(2, "Verdict counts");
        page.paragraph("All presets: " + total + ".");
        Path plots = out.resolve("plots");
        if (!present.isEmpty()) {
            Map<String, Verdicts.Counts> byPreset = new LinkedHashMap<>();
            for (Verdicts.Stored s : present) byPreset.put(s.preset().id(), s.counts());
            ChartFiles perPreset = PaperFigureCharts.stackedBars("Verdicts per preset", "preset", "claims (cells)", groups(byPreset),
                    COLOURS, plots, "verdicts-per-preset");
            page.figure(perPreset, "One bar per preset with stored results: its cells by verdict (green reproduces, orange "
                    + "direction only, vermillion contradicts, grey not run at the stored scale).");
            ChartFiles perPaper = PaperFigureCharts.stackedBars("Verdicts per paper", "paper", "claims (cells)", groups(byPaper),
                    COLOURS, plots, "verdicts-per-paper");
            page.figure(perPaper, "The same counts summed over each paper's presets.");
            writeCountsCsv(byPreset, plots.resolve("verdicts.csv"));
            page.html("<p>The counts behind the charts: <a href=\"plots/verdicts.csv\">plots/verdicts.csv</a>.</p>");
        }
        page.heading(2, "Presets");
        page.html(presetTable(stored, root, out));
        for (Verdicts.Stored s : present) {
            Preset p = s.preset();
            page.heading(3, p.id() + ": " + p.figure());
            page.html("<p><i>" + ReportPage.escape(p.paper()) + "</i>; " + ReportPage.escape(s.provenance().scale()) + " scale, "
                    + s.counts() + ".</p>");
            page.html(cellTable(root.resolve(p.id()).resolve("comparison.csv")));
        }
        Path file = out.resolve(FILE);
        try {
            Files.createDirectories(out);
            AtomicFiles.writeString(file, page.render());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** One group per verdict, one bar per category (preset or paper) with that verdict's count. */
    static List<BarGroup> groups(Map<String, Verdicts.Counts> counts) {
        List<BarGroup> out = new ArrayList<>();
        for (int v = 0; v < PARTS.size(); v++) {
            List<Bar> bars = new ArrayList<>();
            for (var e : counts.entrySet()) {
                Verdicts.Counts c = e.getValue();
                int n = switch (v) {
                    case 0 -> c.reproduces();
                    case 1 -> c.direction();
                    case 2 -> c.contradicts();
                    default -> c.notRun();
                };
                bars.add(new Bar(e.getKey(), n, 0));
            }
            out.add(new BarGroup(PARTS.get(v), bars));
        }
        return out;
    }

    /** "Ethereal (Addanki)", "McClure", "Hopper (Nosrati)": a paper's system, where it names one, and first author. */
    static String shortPaper(String paper) {
        String author = paper.split("[:,]")[0].replace(" et al.", "").trim();
        String system = null;
        String[] parts = paper.split(":");
        // "Li et al.: CTCCL: ..." names it after the authors; "...: Predictive Load Balancing ... (Hopper)" at the end
        if (parts.length > 2 && !parts[1].trim().contains(" ")) system = parts[1].trim();
        int paren = paper.lastIndexOf('(');
        if (system == null && paren >= 0 && paper.endsWith(")")) system = paper.substring(paren + 1, paper.length() - 1).split(";")[0].trim();
        return system == null ? author : system + " (" + author + ")";
    }

    private static void writeCountsCsv(Map<String, Verdicts.Counts> byPreset, Path file) {
        StringBuilder sb = new StringBuilder("preset,reproduces,direction,contradicts,not_run\n");
        for (var e : byPreset.entrySet()) {
            Verdicts.Counts c = e.getValue();
            sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d%n", e.getKey(), c.reproduces(), c.direction(), c.contradicts(), c.notRun()));
        }
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.writeString(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String presetTable(List<Verdicts.Stored> stored, Path root, Path out) {
        StringBuilder sb = new StringBuilder("<table>\n<tr><th>preset</th><th>figure</th><th>scale run</th><th>runs</th><th>run time</th>"
                + "<th>cells</th><th>reproduces</th><th>direction</th><th>contradicts</th><th>not run</th><th>commit</th></tr>\n");
        for (Verdicts.Stored s : stored) {
            Preset p = s.preset();
            sb.append("<tr><td class=\"l\">").append(link(root, out, p.id())).append("</td><td class=\"l\">").append(ReportPage.escape(p.figure()))
                    .append("</td>");
            if (!s.present() || s.counts() == null) {
                sb.append("<td class=\"l\" colspan=\"9\">none stored</td></tr>\n");
                continue;
            }
            Provenance pv = s.provenance();
            Verdicts.Counts c = s.counts();
            sb.append(String.format(Locale.ROOT, "<td class=\"l\">%s%s</td><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td>"
                            + "<td>%d</td><td>%d</td><td>%s</td></tr>%n", ReportPage.escape(pv.scale()), s.current() ? "" : " (stale: the preset "
                            + "changed since)", pv.runs(), Verdicts.duration(pv.runSeconds()), c.total(), c.reproduces(), c.direction(),
                    c.contradicts(), c.notRun(), ReportPage.escape(pv.commit())));
        }
        return sb.append("</table>").toString();
    }

    /** The preset's id, linked to its report.html (or, without one, its comparison.csv) relative to the page. */
    static String link(Path root, Path out, String id) {
        Path dir = root.resolve(id);
        Path target = Files.exists(dir.resolve("report.html")) ? dir.resolve("report.html")
                : Files.exists(dir.resolve("comparison.csv")) ? dir.resolve("comparison.csv") : null;
        if (target == null) return "<code>" + ReportPage.escape(id) + "</code>";
        String rel = out.toAbsolutePath().normalize().relativize(target.toAbsolutePath().normalize()).toString().replace('\\', '/');
        return "<a href=\"" + ReportPage.escape(rel) + "\"><code>" + ReportPage.escape(id) + "</code></a>";
    }

    /** A stored comparison.csv as an HTML table: cell, ours (mean ± sd, n), paper, verdict, cause. */
    static String cellTable(Path comparisonCsv) {
        StringBuilder sb = new StringBuilder("<table>\n<tr><th>cell</th><th>ours</th><th>paper</th><th>verdict</th><th>cause</th></tr>\n");
        for (Verdicts.StoredCell c : Verdicts.storedCells(comparisonCsv)) {
            sb.append("<tr><td class=\"l\">").append(ReportPage.escape(c.cell())).append("</td><td>").append(ReportPage.escape(c.ours()))
                    .append("</td><td>").append(ReportPage.escape(c.paper())).append("</td><td>").append(ReportPage.escape(c.verdict()))
                    .append("</td><td class=\"l\">").append(ReportPage.escape(c.cause())).append("</td></tr>\n");
        }
        return sb.append("</table>").toString();
    }
}

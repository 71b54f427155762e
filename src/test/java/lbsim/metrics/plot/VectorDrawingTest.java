package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** XChart's drawings written as SVG and PDF from the recorded commands: well-formed, every segment and label there. */
class VectorDrawingTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    private static Series series(String name, int points, double scale) {
        double[] x = new double[points], y = new double[points];
        for (int i = 0; i < points; i++) {
            x[i] = 10.0 * i;
            y[i] = scale * (1 + Math.sin(i));
        }
        return new Series(name, x, y);
    }

    /** Lines with more points than are marked: one line element per segment plus the legend's sample, per series colour. */
    @Test
    void aLineChartHasEverySegmentOfEverySeriesAndEveryLabelAsText() throws Exception {
        int a = 53, b = 71;   // above Charts.MARKED_POINTS: no markers, only segments
        ChartFiles c = Charts.throughput("Two lines", List.of(series("first", a, 100), series("second", b, 50)), tmp, "two");
        Document svg = ReportCheck.parseXml(c.svg());
        assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
        String text = Files.readString(c.svg());
        for (int k = 0; k < 2; k++) {
            Color col = SeriesStyle.of(k).colour();
            String stroke = "stroke:rgb(" + col.getRed() + "," + col.getGreen() + "," + col.getBlue() + ");stroke-width:2;";
            assertThat(Pattern.compile(Pattern.quote(stroke)).matcher(text).results().count()).as("series %d", k).isEqualTo(k == 0 ? a : b);
        }
        List<String> labels = VectorTextTest.contents(VectorTextTest.svgTexts(c.svg()));
        assertThat(labels).contains("Two lines", "simulated time (us)", "throughput (Gbit/s)", "first", "second", "0", "680", "180");
        // no label is left as filled outlines: the only filled paths are the grid lines and the few legend shapes
        NodeList paths = svg.getElementsByTagName("path");
        assertThat(paths.getLength()).isLessThan(30);
        // the series are clipped to the plot area
        assertThat(svg.getElementsByTagName("clipPath").getLength()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void thePdfsTableOfObjectsIsRightAndItsLabelsAreText() throws Exception {
        ChartFiles c = Charts.throughput("Two lines", List.of(series("first (a)", 5, 100)), tmp, "pdf");
        assertPdfWellFormed(c.pdf());
        assertThat(VectorTextTest.pdfContent(c.pdf())).contains("(Two lines) Tj", "(first \\(a\\)) Tj", "(simulated time \\(us\\)) Tj");
    }

    static void assertPdfWellFormed(Path file) throws Exception {
        String pdf = Files.readString(file, StandardCharsets.ISO_8859_1);
        assertThat(pdf).startsWith("%PDF-1.4\n").endsWith("%%EOF\n");
        int xref = Integer.parseInt(pdf.substring(pdf.lastIndexOf("startxref") + 10, pdf.lastIndexOf("%%EOF")).trim());
        assertThat(pdf.substring(xref)).startsWith("xref");
        Matcher m = Pattern.compile("(\\d{10}) 00000 n ").matcher(pdf.substring(xref));
        int object = 1;
        while (m.find()) assertThat(pdf.substring(Integer.parseInt(m.group(1)))).startsWith(object++ + " 0 obj");
        assertThat(object).isEqualTo(9);   // catalog, pages, page, content, two fonts, invisible state, info
    }

    /** Transforms, nested graphics, clips and transparency, as any Java2D drawing may use them. */
    @Test
    void transformsClipsAndNestedGraphicsAreKept() throws Exception {
        ChartWriter.Drawing d = new ChartWriter.Drawing("raw", 200, 100, g -> {
            g.setColor(Color.WHITE);
            g.fill(new Rectangle2D.Double(0, 0, 200, 100));
            g.setClip(new Rectangle2D.Double(10, 10, 100, 50));
            Graphics2D inner = (Graphics2D) g.create();
            inner.translate(20, 30);
            inner.rotate(Math.PI / 2);
            inner.setColor(new Color(255, 0, 0, 128));
            inner.setStroke(new BasicStroke(3f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_BEVEL, 10, new float[] {4, 2}, 0));
            inner.draw(new Line2D.Double(0, 0, 40, 0));
            inner.dispose();
            g.setClip(null);
            g.setColor(Color.BLUE);
            g.fill(new Rectangle2D.Double(150, 70, 10, 10));   // after the nested graphics: untransformed, unclipped
        });
        ChartFiles c = ChartWriter.write(d, tmp, "raw");
        Document svg = ReportCheck.parseXml(c.svg());
        NodeList lines = svg.getElementsByTagName("line");
        assertThat(lines.getLength()).isEqualTo(1);
        Element line = (Element) lines.item(0);
        assertThat(line.getAttribute("style")).contains("stroke:rgb(255,0,0)", "stroke-opacity:0.502", "stroke-width:3",
                "stroke-linecap:round", "stroke-linejoin:bevel", "stroke-dasharray:4,2");
        Element transformed = (Element) line.getParentNode();
        assertThat(transformed.getAttribute("transform")).isEqualTo("matrix(0 1 -1 0 20 30)");
        assertThat(((Element) transformed.getParentNode()).getAttribute("clip-path")).isEqualTo("url(#clip1)");
        Element blue = (Element) svg.getElementsByTagName("rect").item(1);
        assertThat(blue.getAttribute("style")).startsWith("fill:rgb(0,0,255)");
        assertThat(((Element) blue.getParentNode()).getTagName()).isEqualTo("svg");
        assertPdfWellFormed(c.pdf());
        String content = VectorTextTest.pdfContent(c.pdf());
        assertThat(content).contains("10 10 m 110 10 l 110 60 l 10 60 l 10 10 l h W n", "0 1 -1 0 20 30 cm /A128 gs", "3 w 1 J 2 j 10 M [4 2] 0 d");
        assertThat(Files.readString(c.pdf(), StandardCharsets.ISO_8859_1)).contains("/A128 << /ca 0.502 /CA 0.502 >>");
    }
}

package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Heat maps written straight as PNG, SVG and PDF: one shape per cell (or run of equal cells), the same picture in all three. */
class HeatMapDrawingTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    private static List<String> names(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(prefix + i);
        return out;
    }

    private static List<Element> cells(Path svg) throws Exception {
        NodeList rects = ReportCheck.parseXml(svg).getElementsByTagName("rect");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < rects.getLength(); i++) {
            Element e = (Element) rects.item(i);
            if (e.getAttribute("shape-rendering").equals("crispEdges")) out.add(e);
        }
        return out;
    }

    /** Every value its own colour (30 values spread over the ramp), one missing: one rectangle per existing cell. */
    @Test
    void svgHasOneRectanglePerCellAndTheLabelsAsText() throws Exception {
        int rows = 5, cols = 6;
        double[][] v = new double[rows][cols];
        for (int r = 0; r < rows; r++) for (int k = 0; k < cols; k++) v[r][k] = (r * cols + k) / (double) (rows * cols - 1);
        v[2][3] = Double.NaN;
        ChartFiles c = Charts.heatMap(new HeatMap("tor \u2192 agg (up) utilisation", "tor", "agg link", names("tor", rows), names("agg", cols), v),
                1.0, tmp, "m");
        List<Element> cells = cells(c.svg());
        // the colour bar's 100 bands are cells too
        assertThat(cells).hasSize(rows * cols - 1 + 100);
        assertThat(VectorTextTest.contents(VectorTextTest.svgTexts(c.svg())))
                .contains("tor \u2192 agg (up) utilisation", "tor", "agg link", "utilisation (%)", "0", "100")
                .containsAll(names("tor", rows)).containsAll(names("agg", cols));
        // the PNG shows each cell's colour at the middle of the SVG's rectangle (twice the pixels)
        BufferedImage png = ImageIO.read(c.png().toFile());
        assertThat(png.getWidth()).isEqualTo(2 * c.width());
        for (Element e : cells) {
            double x = Double.parseDouble(e.getAttribute("x")) + Double.parseDouble(e.getAttribute("width")) / 2;
            double y = Double.parseDouble(e.getAttribute("y")) + Double.parseDouble(e.getAttribute("height")) / 2;
            Color want = Color.decode(e.getAttribute("fill"));
            assertThat(new Color(png.getRGB((int) (2 * x), (int) (2 * y)))).isEqualTo(want);
        }
        // the missing cell stays white: 29 distinct ramp colours among the cells, every one of the map's values
        for (int r = 0; r < rows; r++) {
            for (int k = 0; k < cols; k++) {
                if (Double.isNaN(v[r][k])) continue;
                String hex = String.format("#%06x", ColourBar.colour(Charts.RAMP, v[r][k]).getRGB() & 0xffffff);
                assertThat(cells).as("cell %d,%d", r, k).anyMatch(e -> e.getAttribute("fill").equals(hex));
            }
        }
    }

    @Test
    void equalNeighboursInARowAreOneRectangle() throws Exception {
        double[][] v = new double[4][10];
        for (int r = 0; r < 4; r++) java.util.Arrays.fill(v[r], 0.1 * r);
        ChartFiles c = Charts.heatMap(new HeatMap("flat", "r", "c", names("r", 4), names("c", 10), v), 1.0, tmp, "flat");
        assertThat(cells(c.svg())).hasSize(4 + 100);
    }

    /** Row names that would overlap are thinned to every n-th, evenly, the first always labelled. */
    @Test
    void aTallMapLabelsEveryNthRowWithoutOverlap() throws Exception {
        int rows = 1000;
        double[][] v = new double[rows][2];
        ChartFiles c = Charts.heatMap(new HeatMap("tall", "tor", "agg", names("tor", rows), names("agg", 2), v), 1.0, tmp, "tall");
        List<Element> labels = VectorTextTest.svgTexts(c.svg()).stream().filter(t -> t.getTextContent().startsWith("tor") && t.getTextContent().length() > 3).toList();
        assertThat(labels.size()).isBetween(20, 400);
        assertThat(labels.get(0).getTextContent()).isEqualTo("tor0");
        for (int i = 1; i < labels.size(); i++) {
            double gap = Double.parseDouble(labels.get(i - 1).getAttribute("y")) - Double.parseDouble(labels.get(i).getAttribute("y"));
            assertThat(gap).isGreaterThanOrEqualTo(8.0);   // at least the labels' font size apart
        }
    }

    /** The PDF's cross-reference table points at its objects, and the labels are there as text. */
    @Test
    void pdfObjectsAreWhereItsTableSays() throws Exception {
        ChartFiles c = Charts.heatMap(new HeatMap("leaf \u2192 spine", "leaf", "spine", names("leaf", 2), names("spine", 3),
                new double[][] {{0.1, 0.2, 0.3}, {0.4, Double.NaN, 0.6}}), 1.0, tmp, "p");
        String pdf = Files.readString(c.pdf(), StandardCharsets.ISO_8859_1);
        int xref = Integer.parseInt(pdf.substring(pdf.lastIndexOf("startxref") + 10, pdf.lastIndexOf("%%EOF")).trim());
        assertThat(pdf.substring(xref)).startsWith("xref");
        Matcher m = Pattern.compile("(\\d{10}) 00000 n ").matcher(pdf.substring(xref));
        int object = 1;
        while (m.find()) assertThat(pdf.substring(Integer.parseInt(m.group(1)))).startsWith(object++ + " 0 obj");
        assertThat(object).isGreaterThan(7);
        assertThat(VectorTextTest.pdfContent(c.pdf())).contains("(leaf -> spine) Tj", "(spine2) Tj", "(leaf1) Tj", "(utilisation \\(%\\)) Tj");
    }
}

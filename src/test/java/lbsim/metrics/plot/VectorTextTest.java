package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.awt.Font;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * SVG charts carry their labels as text elements, PDF charts as (invisible) text over the exact
 * outlines, placed where the outline was: found by a search, selected, copied.
 */
class VectorTextTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    static List<Element> svgTexts(Path svg) throws Exception {
        NodeList nodes = ReportCheck.parseXml(svg).getElementsByTagName("text");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) out.add((Element) nodes.item(i));
        return out;
    }

    static List<String> contents(List<Element> texts) {
        return texts.stream().map(Element::getTextContent).toList();
    }

    /** The PDF's content streams, inflated, as Latin-1 text. */
    static String pdfContent(Path pdf) throws Exception {
        byte[] b = Files.readAllBytes(pdf);
        String raw = new String(b, StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder();
        for (int at = raw.indexOf("stream"); at >= 0; at = raw.indexOf("stream", at + 1)) {
            if (at >= 3 && raw.startsWith("end", at - 3)) continue;
            int start = at + "stream".length();
            while (raw.charAt(start) == '\r' || raw.charAt(start) == '\n') start++;
            int end = raw.indexOf("endstream", start);
            byte[] data = java.util.Arrays.copyOfRange(b, start, end);
            try (InflaterInputStream in = new InflaterInputStream(new java.io.ByteArrayInputStream(data))) {
                out.append(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
            } catch (java.util.zip.ZipException notDeflated) {
                out.append(new String(data, StandardCharsets.ISO_8859_1));
            }
        }
        return out.toString();
    }

    private ChartFiles throughput() {
        return Charts.throughput("Total throughput over time",
                List.of(new Series("ecmp", new double[] {0, 100, 200}, new double[] {100, 380, 50}),
                        new Series("reps", new double[] {0, 100, 200}, new double[] {90, 300, 70})),
                List.of(new Marker(50, "link-down leaf0-spine1")), tmp, "t");
    }

    @Test
    void lineChartLabelsAreSvgTextWhereTheAxesAre() throws Exception {
        ChartFiles c = throughput();
        List<Element> texts = svgTexts(c.svg());
        assertThat(contents(texts)).contains("Total throughput over time", "simulated time (us)", "throughput (Gbit/s)",
                "ecmp", "reps", "0", "100", "200", "350", "link-down leaf0-spine1");
        // placed as in the PNG: the x axis title centred at the bottom, the y axis title turned up the left side
        Element x = texts.stream().filter(t -> t.getTextContent().equals("simulated time (us)")).findFirst().orElseThrow();
        double[] xm = matrix((Element) x.getParentNode());
        assertThat(xm[4]).isBetween(250.0, 450.0);
        assertThat(xm[5]).isBetween(440.0, 480.0);
        Element y = texts.stream().filter(t -> t.getTextContent().equals("throughput (Gbit/s)")).findFirst().orElseThrow();
        double[] ym = matrix((Element) y.getParentNode());
        assertThat(ym[0]).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-9));   // a quarter turn
        assertThat(ym[1]).isEqualTo(-1.0);
        assertThat(ym[4]).isLessThan(40.0);
        // text without its own size is 12 px, as drawn (SVG's default would be 16)
        assertThat(ReportCheck.parseXml(c.svg()).getDocumentElement().getAttribute("font-size")).isEqualTo("12px");
        assertThat(Files.readString(c.svg())).contains("font-family:&quot;DejaVu Sans&quot;,sans-serif;")
                .doesNotContain("font-family:&quot;SansSerif");
    }

    /** a b c d e f of the element's transform (identity for none; translate(x y) as 1 0 0 1 x y). */
    private static double[] matrix(Element g) {
        String t = g.getAttribute("transform");
        if (t.isEmpty()) return new double[] {1, 0, 0, 1, 0, 0};
        String[] n = t.replaceAll("^[a-z]+\\(|\\)$", "").trim().split("[ ,]+");
        if (t.startsWith("translate")) return new double[] {1, 0, 0, 1, Double.parseDouble(n[0]), Double.parseDouble(n[1])};
        double[] m = new double[6];
        for (int i = 0; i < 6; i++) m[i] = Double.parseDouble(n[i]);
        return m;
    }

    @Test
    void pdfKeepsTheOutlinesAndAddsTheSameTextInvisibly() throws Exception {
        ChartFiles c = throughput();
        String content = pdfContent(c.pdf());
        assertThat(content).contains("(simulated time \\(us\\)) Tj", "(throughput \\(Gbit/s\\)) Tj", "(ecmp) Tj", "(link-down leaf0-spine1) Tj");
        assertThat(Files.readString(c.pdf(), StandardCharsets.ISO_8859_1)).contains("/ca 0");   // the text's fill is transparent
        // the outlines are still there: far more path segments than labels
        assertThat(java.util.regex.Pattern.compile("\\d c\\b").matcher(content).results().count()).isGreaterThan(500);
    }

    @Test
    void heatMapTitlesLegendAndLabelsAreText() throws Exception {
        ChartFiles c = Charts.heatMap(new HeatMap("leaf \u2192 spine (up) utilisation", "leaf", "spine link",
                List.of("leaf0", "leaf1"), List.of("spine0", "spine1", "spine2"),
                new double[][] {{0.1, 0.9, Double.NaN}, {1.0, 0.0, 0.5}}), 0.5, tmp, "heat");
        assertThat(contents(svgTexts(c.svg()))).contains("leaf \u2192 spine (up) utilisation", "leaf0", "spine2", "spine link",
                "utilisation (%)", "0", "10", "50");   // the colour bar: its title and ticks in percent
        // the PDF's standard encoding has no arrow: its invisible text spells it
        assertThat(pdfContent(c.pdf())).contains("(leaf -> spine \\(up\\) utilisation) Tj", "(50) Tj");
    }

    @Test
    void latin1SpellsWhatWinAnsiLacks() {
        assertThat(ChartWriter.latin1("h \u2192 leaf \u2190 x \u00b5s \u00b1 1 \u2264")).isEqualTo("h -> leaf <- x \u00b5s \u00b1 1 ?");
    }

    @Test
    void aStringsOutlineIsFoundUnderAnyRotationAndTranslationButNotScaledOrAnother() {
        FontRenderContext frc = new FontRenderContext(null, true, true);
        Font f = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        Shape outline = new TextLayout("spine12 (us)", f, frc).getOutline(null);
        TextGraphics.Path ref = TextGraphics.Path.of(outline, null);
        qt().withFixedSeed(29L).withExamples(200)
                .forAll(doubles().between(-Math.PI, Math.PI), integers().between(-2000, 2000), integers().between(-2000, 2000))
                .checkAssert((angle, dx, dy) -> {
                    AffineTransform at = AffineTransform.getTranslateInstance(dx / 3.0, dy / 7.0);
                    at.rotate(angle);
                    AffineTransform found = ref.rigidMapOnto(TextGraphics.Path.of(outline, at));
                    assertThat(found).isNotNull();
                    double[] want = new double[6], got = new double[6];
                    at.getMatrix(want);
                    found.getMatrix(got);
                    for (int i = 0; i < 6; i++) assertThat(got[i]).isCloseTo(want[i], org.assertj.core.data.Offset.offset(1e-3));
                    AffineTransform scaled = new AffineTransform(at);
                    scaled.scale(1.01, 1.01);
                    assertThat(ref.rigidMapOnto(TextGraphics.Path.of(outline, scaled))).isNull();
                });
        Shape other = new TextLayout("spine13 (us)", f, frc).getOutline(null);
        assertThat(ref.rigidMapOnto(TextGraphics.Path.of(other, null))).isNull();
        Shape dash = new TextLayout("-", f, frc).getOutline(null);
        // a rectangle of another size than the dash's is not the dash
        assertThat(TextGraphics.Path.of(dash, null).rigidMapOnto(TextGraphics.Path.of(new java.awt.Rectangle(0, 0, 10, 2), null))).isNull();
    }
}

package lbsim.metrics.plot;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * Writes an XChart chart as {@code name.png} (at {@link #PNG_SCALE} times its size: about 190 dpi
 * for an 800-pixel chart printed 8.5 inches wide), {@code name.svg} and {@code name.pdf};
 * rendering never needs a display and the same chart gives the same bytes. Labels are text in the
 * SVG and invisible text over their outlines in the PDF ({@link TextGraphics}, {@link VectorDrawing}).
 */
final class ChartWriter {
    /** PNG pixels per chart pixel. */
    static final int PNG_SCALE = 2;

    static {
        Headless.ensure();
    }

    private ChartWriter() {}

    static ChartFiles write(Chart<?, ?> chart, Path dir, String name) {
        traceFonts(chart.getStyler());
        int w = chart.getWidth(), h = chart.getHeight();
        return write(new Drawing(chart.getTitle(), w, h, g -> chart.paint(g, w, h)), dir, name);
    }

    /**
     * Any drawing, as PNG, SVG and PDF; its text is written as text where it is drawn as XChart
     * draws it (the outline of a {@code TextLayout} in a {@link TracedFont}, see {@link ColourBar}).
     */
    static ChartFiles write(Drawing d, Path dir, String name) {
        Path png = checked(dir, name, ".png");
        Path svg = dir.resolve(name + ".svg");
        Path pdf = dir.resolve(name + ".pdf");
        try {
            Files.createDirectories(dir);
            writePng(d, png);
            VectorDrawing v = VectorDrawing.of(d);   // painted once for both vector files
            Files.writeString(svg, v.svg());
            Files.write(pdf, v.pdf());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + png, e);
        }
        return new ChartFiles(d.title(), png, svg, pdf, d.width());
    }

    /** A {@link Scene} as PNG (painted as any drawing), SVG and PDF (each written straight from the scene). */
    static ChartFiles write(Scene scene, Path dir, String name) {
        Path png = checked(dir, name, ".png"), svg = dir.resolve(name + ".svg"), pdf = dir.resolve(name + ".pdf");
        try {
            Files.createDirectories(dir);
            writePng(new Drawing(scene.title, scene.width, scene.height, scene::paint), png);
            Files.writeString(svg, scene.svg());
            Files.write(pdf, scene.pdf());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + png, e);
        }
        return new ChartFiles(scene.title, png, svg, pdf, scene.width);
    }

    private static Path checked(Path dir, String name, String ext) {
        if (!name.matches("[A-Za-z0-9._-]+")) throw new IllegalArgumentException("chart file name '" + name + "' must be [A-Za-z0-9._-]+");
        return dir.resolve(name + ext);
    }

    /** A picture of {@code width} x {@code height} pixels that {@code painter} draws (the same calls for every file). */
    record Drawing(String title, int width, int height, java.util.function.Consumer<Graphics2D> painter) {
        void paint(Graphics2D g) {
            painter.accept(g);
        }
    }

    private static void writePng(Drawing chart, Path png) throws IOException {
        int w = chart.width(), h = chart.height();
        BufferedImage img = new BufferedImage(w * PNG_SCALE, h * PNG_SCALE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
            g.scale(PNG_SCALE, PNG_SCALE);
            chart.paint(g);
        } finally {
            g.dispose();
        }
        PngWriter.write(img, png);
    }

    /** Every font XChart draws labels in, traced, so {@link TextGraphics} can write the labels as text. */
    static void traceFonts(Styler s) {
        s.setChartTitleFont(TracedFont.of(s.getChartTitleFont()));
        s.setLegendFont(TracedFont.of(s.getLegendFont()));
        s.setAnnotationTextFont(TracedFont.of(s.getAnnotationTextFont()));
        s.setAnnotationTextPanelFont(TracedFont.of(s.getAnnotationTextPanelFont()));
        if (s instanceof AxesChartStyler a) {
            a.setAxisTitleFont(TracedFont.of(a.getAxisTitleFont()));
            a.setAxisTickLabelsFont(TracedFont.of(a.getAxisTickLabelsFont()));
        }
    }

    /**
     * The label in characters a PDF's standard (WinAnsi) encoding holds, as the PDFs' invisible text is written:
     * arrows become {@code ->} and {@code <-}, anything else beyond Latin-1 {@code ?}.
     */
    static String latin1(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\u2192') b.append("->");
            else if (c == '\u2190') b.append("<-");
            else b.append(c < 0x20 || (c > 0x7e && c < 0xa0) || c > 0xff ? '?' : c);
        }
        return b.toString();
    }
}

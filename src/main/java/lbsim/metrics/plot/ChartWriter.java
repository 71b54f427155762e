package lbsim.metrics.plot;

import de.erichseifert.vectorgraphics2d.Document;
import de.erichseifert.vectorgraphics2d.Processor;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.intermediate.CommandSequence;
import de.erichseifert.vectorgraphics2d.intermediate.MutableCommandSequence;
import de.erichseifert.vectorgraphics2d.intermediate.commands.Command;
import de.erichseifert.vectorgraphics2d.intermediate.commands.DrawStringCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetFontCommand;
import de.erichseifert.vectorgraphics2d.pdf.PDFProcessor;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes an XChart chart as {@code name.png} (at {@link #PNG_SCALE} times its size: about 190 dpi
 * for an 800-pixel chart printed 8.5 inches wide), {@code name.svg} and {@code name.pdf};
 * rendering never needs a display and the same chart gives the same bytes.
 */
final class ChartWriter {
    /** PNG pixels per chart pixel. */
    static final int PNG_SCALE = 2;

    static {
        Headless.ensure();
    }

    private ChartWriter() {}

    static ChartFiles write(Chart<?, ?> chart, Path dir, String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) throw new IllegalArgumentException("chart file name '" + name + "' must be [A-Za-z0-9._-]+");
        Path png = dir.resolve(name + ".png");
        Path svg = dir.resolve(name + ".svg");
        Path pdf = dir.resolve(name + ".pdf");
        try {
            Files.createDirectories(dir);
            writePng(chart, png);
            writeVector(chart, new SVGProcessor(), svg);
            writeVector(chart, new PDFProcessor(true), pdf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + png, e);
        }
        return new ChartFiles(chart.getTitle(), png, svg, pdf, chart.getWidth());
    }

    private static void writePng(Chart<?, ?> chart, Path png) throws IOException {
        int w = chart.getWidth(), h = chart.getHeight();
        BufferedImage img = new BufferedImage(w * PNG_SCALE, h * PNG_SCALE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
            g.scale(PNG_SCALE, PNG_SCALE);
            chart.paint(g, w, h);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(img, "png", png.toFile())) throw new IOException("no PNG writer");
    }

    /**
     * The commands without font changes when no text is drawn as text (XChart fills glyph outlines):
     * the PDF processor looks up the physical font for every graphics state that carries one, which
     * made a PDF cost ten times its SVG; the drawing is the same without them.
     */
    static CommandSequence withoutUnusedFonts(CommandSequence commands) {
        for (Command<?> c : commands) if (c instanceof DrawStringCommand) return commands;
        MutableCommandSequence out = new MutableCommandSequence();
        for (Command<?> c : commands) if (!(c instanceof SetFontCommand)) out.add(c);
        return out;
    }

    private static void writeVector(Chart<?, ?> chart, Processor processor, Path file) throws IOException {
        VectorGraphics2D g = new VectorGraphics2D();
        chart.paint(g, chart.getWidth(), chart.getHeight());
        Document doc = processor.getDocument(withoutUnusedFonts(g.getCommands()), new PageSize(0, 0, chart.getWidth(), chart.getHeight()));
        try (OutputStream o = Files.newOutputStream(file)) {
            doc.writeTo(o);
        }
    }
}

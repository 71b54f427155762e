package lbsim.metrics.plot;

import static lbsim.metrics.plot.Scene.num;

import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.PathIterator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;

/**
 * A one-page PDF written without a library: the caller's content stream (deflated), the standard
 * Helvetica and Helvetica-Bold as {@code /F1} and {@code /F2} (WinAnsi, not embedded), a fully
 * transparent graphics state {@code /Invisible} for text laid over its outlines, and the
 * cross-reference table. Shared by {@link Scene} and {@link VectorDrawing}.
 */
final class PdfPage {
    private PdfPage() {}

    /**
     * The PDF of a {@code width} x {@code height} pt page whose content is {@code content};
     * {@code moreStates} are further {@code /Name << ... >>} entries of the page's ExtGState resources.
     */
    static byte[] write(int width, int height, CharSequence content, String title, String moreStates) {
        byte[] deflated = deflate(content.toString().getBytes(StandardCharsets.ISO_8859_1));
        Objects out = new Objects();
        out.object("<< /Type /Catalog /Pages 2 0 R >>");
        out.object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
        out.object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + width + " " + height + "] /Contents 4 0 R /Resources << "
                + "/Font << /F1 5 0 R /F2 6 0 R >> /ExtGState << /Invisible 7 0 R" + moreStates + " >> >> >>");
        out.stream(deflated);
        out.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
        out.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
        out.object("<< /Type /ExtGState /ca 0 /CA 0 >>");
        return out.finish("<< /Title (" + string(ChartWriter.latin1(title)) + ") >>");
    }

    /** The colour operator {@code op} (rg: fill, RG: stroke) for {@code c}'s red, green and blue. */
    static String rgb(Color c, String op) {
        return num(c.getRed() / 255.0) + " " + num(c.getGreen() / 255.0) + " " + num(c.getBlue() / 255.0) + " " + op + " ";
    }

    /** The shape's outline as PDF path operators (quadratic pieces raised to cubic ones). */
    static void path(StringBuilder c, Shape s) {
        double[] p = new double[6];
        double cx = 0, cy = 0;
        for (PathIterator it = s.getPathIterator(null); !it.isDone(); it.next()) {
            switch (it.currentSegment(p)) {
                case PathIterator.SEG_MOVETO -> { c.append(num(p[0])).append(' ').append(num(p[1])).append(" m "); cx = p[0]; cy = p[1]; }
                case PathIterator.SEG_LINETO -> { c.append(num(p[0])).append(' ').append(num(p[1])).append(" l "); cx = p[0]; cy = p[1]; }
                case PathIterator.SEG_QUADTO -> {
                    c.append(num(cx + 2.0 / 3 * (p[0] - cx))).append(' ').append(num(cy + 2.0 / 3 * (p[1] - cy))).append(' ')
                            .append(num(p[2] + 2.0 / 3 * (p[0] - p[2]))).append(' ').append(num(p[3] + 2.0 / 3 * (p[1] - p[3]))).append(' ')
                            .append(num(p[2])).append(' ').append(num(p[3])).append(" c ");
                    cx = p[2];
                    cy = p[3];
                }
                case PathIterator.SEG_CUBICTO -> {
                    for (int i = 0; i < 6; i++) c.append(num(p[i])).append(' ');
                    c.append("c ");
                    cx = p[4];
                    cy = p[5];
                }
                default -> c.append("h ");
            }
        }
    }

    /** A PDF literal string's characters: backslash, parentheses escaped. */
    static String string(String s) {
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)");
    }

    private static byte[] deflate(byte[] in) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION);
        d.setInput(in);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length / 4 + 64);
        byte[] buf = new byte[1 << 16];
        while (!d.finished()) out.write(buf, 0, d.deflate(buf));
        d.end();
        return out.toByteArray();
    }

    /** The file assembled object by object, with its cross-reference table. */
    private static final class Objects {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final List<Integer> offsets = new ArrayList<>();

        Objects() {
            write("%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n");
        }

        private void write(String s) {
            bytes.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        void object(String body) {
            offsets.add(bytes.size());
            write(offsets.size() + " 0 obj\n" + body + "\nendobj\n");
        }

        void stream(byte[] deflated) {
            offsets.add(bytes.size());
            write(offsets.size() + " 0 obj\n<< /Length " + deflated.length + " /Filter /FlateDecode >>\nstream\n");
            bytes.writeBytes(deflated);
            write("\nendstream\nendobj\n");
        }

        byte[] finish(String info) {
            object(info);
            int xref = bytes.size();
            StringBuilder b = new StringBuilder("xref\n0 ").append(offsets.size() + 1).append("\n0000000000 65535 f \n");
            for (int o : offsets) b.append(String.format(Locale.ROOT, "%010d 00000 n \n", o));
            b.append("trailer\n<< /Size ").append(offsets.size() + 1).append(" /Root 1 0 R /Info ").append(offsets.size()).append(" 0 R >>\nstartxref\n")
                    .append(xref).append("\n%%EOF\n");
            write(b.toString());
            return bytes.toByteArray();
        }
    }
}

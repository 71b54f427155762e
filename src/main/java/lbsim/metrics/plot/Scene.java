package lbsim.metrics.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.PathIterator;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;

/**
 * A picture made only of filled rectangles and circles, straight lines and horizontal or upward
 * text, written three ways without a charting library: painted on Java2D graphics (the PNG),
 * as SVG with every label a {@code <text>} element, and as PDF with every label its glyph outlines
 * plus the same text invisibly on top (searchable, no font embedded). Coordinates are CSS pixels,
 * y down. Far cheaper than drawing through XChart: heat maps (hundreds of thousands of cells on
 * large fabrics) and the fabric drawing are drawn this way.
 */
final class Scene {
    /** Where a text's anchor point is along its baseline. */
    enum Anchor { START, MIDDLE, END }

    private sealed interface Item permits Box, Dot, Segment, Label {}
    private record Box(double x, double y, double w, double h, Color fill, Color stroke) implements Item {}
    private record Dot(double cx, double cy, double r, Color fill) implements Item {}
    private record Segment(double x1, double y1, double x2, double y2, Color colour, double width, double dash) implements Item {}
    private record Label(String text, Font font, double x, double y, Anchor anchor, boolean upwards, Color colour) implements Item {}

    /** Text is laid out as XChart lays it out: antialiased, fractional metrics. */
    static final FontRenderContext FRC = new FontRenderContext(null, true, true);
    private static final Font PLAIN = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    final String title;
    final int width, height;
    private final List<Item> items = new ArrayList<>();

    Scene(String title, int width, int height) {
        this.title = title;
        this.width = width;
        this.height = height;
    }

    Scene fill(double x, double y, double w, double h, Color fill) {
        items.add(new Box(x, y, w, h, fill, null));
        return this;
    }

    Scene frame(double x, double y, double w, double h, Color stroke) {
        items.add(new Box(x, y, w, h, null, stroke));
        return this;
    }

    Scene dot(double cx, double cy, double r, Color fill) {
        items.add(new Dot(cx, cy, r, fill));
        return this;
    }

    /** A line {@code width} px wide; dashed ({@code dash} px on, 0.8 x that off) when {@code dash} > 0. */
    Scene line(double x1, double y1, double x2, double y2, Color colour, double width, double dash) {
        items.add(new Segment(x1, y1, x2, y2, colour, width, dash));
        return this;
    }

    /** {@code text} with its baseline through (x, y), or turned a quarter up about (x, y) when {@code upwards}. */
    Scene text(String text, Font font, double x, double y, Anchor anchor, boolean upwards, Color colour) {
        if (!text.isEmpty()) items.add(new Label(text, font, x, y, anchor, upwards, colour));
        return this;
    }

    /** The width of {@code text} in {@code font}. */
    static double advance(String text, Font font) {
        return text.isEmpty() ? 0 : new TextLayout(text, font, FRC).getAdvance();
    }

    private static double shift(Label l) {
        return switch (l.anchor) {
            case START -> 0;
            case MIDDLE -> -advance(l.text, l.font) / 2;
            case END -> -advance(l.text, l.font);
        };
    }

    /** The label's glyph outlines where it is drawn. */
    private static Shape outline(Label l) {
        AffineTransform at = AffineTransform.getTranslateInstance(l.x, l.y);
        if (l.upwards) at.rotate(-Math.PI / 2);
        at.translate(shift(l), 0);
        return new TextLayout(l.text, l.font, FRC).getOutline(at);
    }

    private static BasicStroke stroke(double width, double dash) {
        return dash > 0 ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {(float) dash, (float) (0.8 * dash)}, 0)
                : new BasicStroke((float) width);
    }

    /** Paints the scene on {@code g} (white background); rectangles without antialiasing, so adjacent cells leave no seam. */
    void paint(Graphics2D g) {
        g.setColor(Color.WHITE);
        g.fill(new Rectangle2D.Double(0, 0, width, height));
        for (Item it : items) {
            if (it instanceof Box b) {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
                Rectangle2D r = new Rectangle2D.Double(b.x, b.y, b.w, b.h);
                if (b.fill != null) {
                    g.setColor(b.fill);
                    g.fill(r);
                } else {
                    g.setColor(b.stroke);
                    g.setStroke(new BasicStroke(1f));
                    g.draw(r);
                }
            } else if (it instanceof Dot d) {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                g.setColor(d.fill);
                g.fill(new Ellipse2D.Double(d.cx - d.r, d.cy - d.r, 2 * d.r, 2 * d.r));
            } else if (it instanceof Segment s) {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                g.setColor(s.colour);
                g.setStroke(stroke(s.width, s.dash));
                g.draw(new Line2D.Double(s.x1, s.y1, s.x2, s.y2));
            } else if (it instanceof Label l) {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                g.setColor(l.colour);
                g.fill(outline(l));
            }
        }
    }

    // ---- SVG ----

    /** The SVG document: shapes as shapes, labels as {@code <text>} in the installed font the logical one stands for. */
    String svg() {
        StringBuilder b = new StringBuilder(64 + 48 * items.size());
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
                .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-size=\"12px\" font-family=\"").append(xml(FontFamilies.css(PLAIN))).append("\">\n<title>").append(xml(title)).append("</title>\n")
                .append("<rect width=\"").append(width).append("\" height=\"").append(height).append("\" fill=\"#ffffff\"/>\n");
        for (Item it : items) {
            if (it instanceof Box r) {
                b.append("<rect x=\"").append(num(r.x)).append("\" y=\"").append(num(r.y)).append("\" width=\"").append(num(r.w))
                        .append("\" height=\"").append(num(r.h));
                if (r.fill != null) b.append("\" fill=\"").append(hex(r.fill)).append("\" shape-rendering=\"crispEdges\"/>\n");
                else b.append("\" fill=\"none\" stroke=\"").append(hex(r.stroke)).append("\"/>\n");
            } else if (it instanceof Dot d) {
                b.append("<circle cx=\"").append(num(d.cx)).append("\" cy=\"").append(num(d.cy)).append("\" r=\"").append(num(d.r))
                        .append("\" fill=\"").append(hex(d.fill)).append("\"/>\n");
            } else if (it instanceof Segment s) {
                b.append("<line x1=\"").append(num(s.x1)).append("\" y1=\"").append(num(s.y1)).append("\" x2=\"").append(num(s.x2))
                        .append("\" y2=\"").append(num(s.y2)).append("\" stroke=\"").append(hex(s.colour)).append("\" stroke-width=\"").append(num(s.width));
                if (s.dash > 0) b.append("\" stroke-dasharray=\"").append(num(s.dash)).append(' ').append(num(0.8 * s.dash));
                b.append("\"/>\n");
            } else if (it instanceof Label l) {
                b.append("<text x=\"").append(num(l.x)).append("\" y=\"").append(num(l.y)).append('"');
                if (l.upwards) b.append(" transform=\"rotate(-90 ").append(num(l.x)).append(' ').append(num(l.y)).append(")\"");
                if (l.anchor != Anchor.START) b.append(" text-anchor=\"").append(l.anchor == Anchor.MIDDLE ? "middle" : "end").append('"');
                if (!FontFamilies.css(l.font).equals(FontFamilies.css(PLAIN))) b.append(" font-family=\"").append(xml(FontFamilies.css(l.font))).append('"');
                b.append(" font-size=\"").append(num(l.font.getSize2D())).append("px\"");
                if (l.font.isBold()) b.append(" font-weight=\"bold\"");
                if (!l.colour.equals(Color.BLACK)) b.append(" fill=\"").append(hex(l.colour)).append('"');
                b.append('>').append(xml(l.text)).append("</text>\n");
            }
        }
        return b.append("</svg>\n").toString();
    }

    static String xml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String hex(Color c) {
        String h = Integer.toHexString(0x1000000 | (c.getRGB() & 0xffffff));
        return "#" + h.substring(1);
    }

    /** At most 3 decimals, no trailing zeros, never an exponent: the same number gives the same bytes. */
    static String num(double v) {
        long m = Math.round(v * 1000);
        if (m % 1000 == 0) return Long.toString(m / 1000);
        long a = Math.abs(m), frac = a % 1000;
        StringBuilder b = new StringBuilder(12);
        if (m < 0) b.append('-');
        b.append(a / 1000).append('.').append((char) ('0' + frac / 100));
        if (frac % 100 != 0) b.append((char) ('0' + frac / 10 % 10));
        if (frac % 10 != 0) b.append((char) ('0' + frac % 10));
        return b.toString();
    }

    // ---- PDF ----

    /**
     * A one-page PDF of the scene (page size = the scene in points). Labels are their exact glyph
     * outlines, with the text on top in the standard Helvetica, WinAnsi-encoded
     * ({@link ChartWriter#latin1}), fully transparent: found by a search and copied, drawn by the outlines.
     */
    byte[] pdf() {
        StringBuilder c = new StringBuilder(64 + 40 * items.size());
        c.append("1 0 0 -1 0 ").append(height).append(" cm\n");   // y down, as in the scene
        for (Item it : items) {
            if (it instanceof Box r) {
                if (r.fill != null) c.append(PdfPage.rgb(r.fill, "rg")).append(num(r.x)).append(' ').append(num(r.y)).append(' ').append(num(r.w))
                        .append(' ').append(num(r.h)).append(" re f\n");
                else c.append(PdfPage.rgb(r.stroke, "RG")).append("1 w [] 0 d ").append(num(r.x)).append(' ').append(num(r.y)).append(' ')
                        .append(num(r.w)).append(' ').append(num(r.h)).append(" re S\n");
            } else if (it instanceof Dot d) {
                c.append(PdfPage.rgb(d.fill, "rg"));
                PdfPage.path(c, new Ellipse2D.Double(d.cx - d.r, d.cy - d.r, 2 * d.r, 2 * d.r));
                c.append("f\n");
            } else if (it instanceof Segment s) {
                c.append(PdfPage.rgb(s.colour, "RG")).append(num(s.width)).append(" w ");
                c.append(s.dash > 0 ? "[" + num(s.dash) + " " + num(0.8 * s.dash) + "] 0 d " : "[] 0 d ");
                c.append(num(s.x1)).append(' ').append(num(s.y1)).append(" m ").append(num(s.x2)).append(' ').append(num(s.y2)).append(" l S\n");
            } else if (it instanceof Label l) {
                Shape o = outline(l);
                c.append(PdfPage.rgb(l.colour, "rg"));
                PdfPage.path(c, o);
                c.append(o.getPathIterator(null).getWindingRule() == PathIterator.WIND_EVEN_ODD ? "f*\n" : "f\n");
                // the text, invisible, from the same baseline point, un-mirrored
                double sh = shift(l), size = l.font.getSize2D();
                double tx = l.x + (l.upwards ? 0 : sh), ty = l.y - (l.upwards ? sh : 0);
                String m = l.upwards ? "0 -1 -1 0 " : "1 0 0 -1 ";
                c.append("q /Invisible gs BT /F").append(l.font.isBold() ? 2 : 1).append(' ').append(num(size)).append(" Tf ").append(m)
                        .append(num(tx)).append(' ').append(num(ty)).append(" Tm (").append(PdfPage.string(ChartWriter.latin1(l.text))).append(") Tj ET Q\n");
            }
        }
        return PdfPage.write(width, height, c, title, "");
    }
}

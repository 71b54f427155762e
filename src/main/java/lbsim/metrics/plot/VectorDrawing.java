package lbsim.metrics.plot;

import static lbsim.metrics.plot.Scene.num;
import static lbsim.metrics.plot.Scene.xml;

import de.erichseifert.vectorgraphics2d.intermediate.commands.AffineTransformCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.Command;
import de.erichseifert.vectorgraphics2d.intermediate.commands.CreateCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.DisposeCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.DrawImageCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.DrawShapeCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.DrawStringCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.FillShapeCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetClipCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetColorCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetFontCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetPaintCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetStrokeCommand;
import de.erichseifert.vectorgraphics2d.intermediate.commands.SetTransformCommand;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.PathIterator;
import java.awt.geom.Rectangle2D;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A drawing recorded once on {@link TextGraphics} and written as SVG and as PDF straight from the
 * recorded commands, without VectorGraphics2D's processors (whose SVG builds a DOM and serialises it
 * through the JDK's XSLT classes: most of a small report's class loading and compiling). Shapes keep
 * the user space they were drawn in (a transformed group around them), clips become clip paths,
 * labels are {@code <text>} in the SVG and outlines plus invisible text in the PDF, as in {@link Scene}.
 * SVG styles are written as VectorGraphics2D wrote them ({@code style="fill:none;stroke:rgb(...);..."}).
 */
final class VectorDrawing {
    private final String title;
    private final int width, height;
    private final List<Command<?>> commands = new ArrayList<>();

    private VectorDrawing(String title, int width, int height) {
        this.title = title;
        this.width = width;
        this.height = height;
    }

    /** Paints {@code d} once on recording graphics. */
    static VectorDrawing of(ChartWriter.Drawing d) {
        VectorDrawing v = new VectorDrawing(d.title(), d.width(), d.height());
        for (Command<?> c : TextGraphics.paint(d::paint).getCommands()) v.commands.add(c);
        return v;
    }

    /** The graphics state the commands set: colour, stroke, font, transform, and the clip in page coordinates (null: none). */
    private static final class State {
        Color colour = Color.BLACK;
        Stroke stroke = new BasicStroke(1f);
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        AffineTransform at = new AffineTransform();
        Shape clip;

        State copy() {
            State s = new State();
            s.colour = colour;
            s.stroke = stroke;
            s.font = font;
            s.at = new AffineTransform(at);
            s.clip = clip;
            return s;
        }
    }

    /** What a file does with each drawn element; {@code clip} is called when the clip in effect changes. */
    private interface Sink {
        void clip(Shape pageClip);

        void fill(Shape s, State st);

        void stroke(Shape s, State st);

        /** Text whose baseline origin is at {@code place} (page coordinates), with its outline in user space. */
        void label(String text, Font font, AffineTransform place, Shape outline, State st);
    }

    private void replay(Sink out) {
        Deque<State> saved = new ArrayDeque<>();
        State st = new State();
        Shape clipInEffect = null;
        for (Command<?> c : commands) {
            if (c instanceof SetColorCommand k) st.colour = k.getValue();
            else if (c instanceof SetPaintCommand k) { if (k.getValue() instanceof Color col) st.colour = col; }
            else if (c instanceof SetStrokeCommand k) st.stroke = k.getValue();
            else if (c instanceof SetFontCommand k) st.font = k.getValue();
            else if (c instanceof SetTransformCommand k) st.at = new AffineTransform(k.getValue());
            else if (c instanceof AffineTransformCommand k) {
                st.at = new AffineTransform(st.at);
                st.at.concatenate(k.getValue());
            } else if (c instanceof SetClipCommand k) st.clip = k.getValue() == null ? null : st.at.createTransformedShape(k.getValue());
            else if (c instanceof CreateCommand) {
                saved.push(st);
                st = st.copy();
            } else if (c instanceof DisposeCommand) {
                if (!saved.isEmpty()) st = saved.pop();
            } else if (c instanceof DrawImageCommand) {
                throw new IllegalStateException(title + ": images are not written to SVG or PDF");
            } else if (c instanceof FillShapeCommand || c instanceof DrawShapeCommand || c instanceof TextGraphics.Label
                    || c instanceof DrawStringCommand) {
                if (st.colour.getAlpha() == 0) continue;   // nothing to see
                if (!Objects.equals(st.clip, clipInEffect)) {
                    out.clip(st.clip);
                    clipInEffect = st.clip;
                }
                if (c instanceof FillShapeCommand k) out.fill(k.getValue(), st);
                else if (c instanceof DrawShapeCommand k) out.stroke(k.getValue(), st);
                else if (c instanceof TextGraphics.Label l) {
                    AffineTransform place = new AffineTransform(st.at);
                    place.concatenate(l.place);
                    out.label(l.getValue(), l.font, place, l.outline, st);
                } else if (c instanceof DrawStringCommand k) {
                    AffineTransform place = new AffineTransform(st.at);
                    place.translate(k.getX(), k.getY());
                    Shape outline = new TextLayout(k.getValue(), st.font, Scene.FRC).getOutline(AffineTransform.getTranslateInstance(k.getX(), k.getY()));
                    out.label(k.getValue(), st.font, place, outline, st);
                }
            }   // hints, background, composite: nothing in these files
        }
    }

    // ---- SVG ----

    /** The SVG document: every element in the user space it was drawn in, labels as {@code <text>}. */
    String svg() {
        StringBuilder b = new StringBuilder(4096 + 160 * commands.size());
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
                .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-size=\"12px\">\n<title>").append(xml(title)).append("</title>\n");
        boolean[] clipped = {false};
        int[] clips = {0};
        replay(new Sink() {
            @Override
            public void clip(Shape pageClip) {
                if (clipped[0]) b.append("</g>\n");
                clipped[0] = pageClip != null;
                if (pageClip == null) return;
                String id = "clip" + ++clips[0];
                b.append("<clipPath id=\"").append(id).append("\"><path d=\"").append(svgPath(pageClip)).append("\"/></clipPath>\n");
                b.append("<g clip-path=\"url(#").append(id).append(")\">\n");
            }

            @Override
            public void fill(Shape s, State st) {
                open(st.at);
                element(s, fillStyle(st.colour, s));
                close(st.at);
            }

            @Override
            public void stroke(Shape s, State st) {
                open(st.at);
                element(s, strokeStyle(st.colour, st.stroke));
                close(st.at);
            }

            @Override
            public void label(String text, Font font, AffineTransform place, Shape outline, State st) {
                b.append("<g transform=\"").append(transform(place)).append("\"><text x=\"0\" y=\"0\" style=\"")
                        .append(fillStyle(st.colour, null)).append("font-family:").append(xml(FontFamilies.css(font)))
                        .append(";font-size:").append(num(font.getSize2D())).append("px;");
                if (font.isBold()) b.append("font-weight:bold;");
                if (font.isItalic()) b.append("font-style:italic;");
                b.append("\">").append(xml(text)).append("</text></g>\n");
            }

            private void open(AffineTransform at) {
                if (!at.isIdentity()) b.append("<g transform=\"").append(transform(at)).append("\">");
            }

            private void close(AffineTransform at) {
                if (!at.isIdentity()) b.append("</g>");
                b.append('\n');
            }

            private void element(Shape s, String style) {
                if (s instanceof Line2D l) {
                    b.append("<line x1=\"").append(num(l.getX1())).append("\" y1=\"").append(num(l.getY1())).append("\" x2=\"")
                            .append(num(l.getX2())).append("\" y2=\"").append(num(l.getY2()));
                } else if (s instanceof Rectangle2D r) {
                    b.append("<rect x=\"").append(num(r.getX())).append("\" y=\"").append(num(r.getY())).append("\" width=\"")
                            .append(num(r.getWidth())).append("\" height=\"").append(num(r.getHeight()));
                } else {
                    b.append("<path d=\"").append(svgPath(s));
                }
                b.append("\" style=\"").append(style).append("\"/>");
            }
        });
        if (clipped[0]) b.append("</g>\n");
        return b.append("</svg>\n").toString();
    }

    private static String transform(AffineTransform at) {
        if (at.getType() == AffineTransform.TYPE_TRANSLATION || at.isIdentity()) {
            return "translate(" + num(at.getTranslateX()) + " " + num(at.getTranslateY()) + ")";
        }
        return "matrix(" + num(at.getScaleX()) + " " + num(at.getShearY()) + " " + num(at.getShearX()) + " " + num(at.getScaleY()) + " "
                + num(at.getTranslateX()) + " " + num(at.getTranslateY()) + ")";
    }

    private static String rgb(Color c) {
        return "rgb(" + c.getRed() + "," + c.getGreen() + "," + c.getBlue() + ")";
    }

    /** fill:rgb(...);stroke:none; (with its opacity and the even-odd rule where they apply). */
    private static String fillStyle(Color c, Shape s) {
        StringBuilder b = new StringBuilder("fill:").append(rgb(c)).append(';');
        if (c.getAlpha() < 255) b.append("fill-opacity:").append(num(c.getAlpha() / 255.0)).append(';');
        if (s != null && s.getPathIterator(null).getWindingRule() == PathIterator.WIND_EVEN_ODD) b.append("fill-rule:evenodd;");
        return b.append("stroke:none;").toString();
    }

    /** fill:none;stroke:rgb(...);stroke-width:...; then what differs from SVG's defaults, the dashes last. */
    private static String strokeStyle(Color c, Stroke stroke) {
        StringBuilder b = new StringBuilder("fill:none;");
        if (c.getAlpha() < 255) b.append("stroke-opacity:").append(num(c.getAlpha() / 255.0)).append(';');
        b.append("stroke:").append(rgb(c)).append(';');
        if (stroke instanceof BasicStroke s) {
            if (s.getLineWidth() != 1f) b.append("stroke-width:").append(num(s.getLineWidth())).append(';');
            if (s.getMiterLimit() != 4f) b.append("stroke-miterlimit:").append(num(s.getMiterLimit())).append(';');
            if (s.getEndCap() != BasicStroke.CAP_BUTT) b.append("stroke-linecap:").append(s.getEndCap() == BasicStroke.CAP_ROUND ? "round" : "square").append(';');
            if (s.getLineJoin() != BasicStroke.JOIN_MITER) b.append("stroke-linejoin:").append(s.getLineJoin() == BasicStroke.JOIN_ROUND ? "round" : "bevel").append(';');
            if (s.getDashArray() != null) {
                if (s.getDashPhase() != 0f) b.append("stroke-dashoffset:").append(num(s.getDashPhase())).append(';');
                b.append("stroke-dasharray:");
                float[] d = s.getDashArray();
                for (int i = 0; i < d.length; i++) b.append(i > 0 ? "," : "").append(num(d[i]));
                b.append(';');
            }
        }
        return b.toString();
    }

    private static String svgPath(Shape s) {
        StringBuilder b = new StringBuilder();
        double[] p = new double[6];
        for (PathIterator it = s.getPathIterator(null); !it.isDone(); it.next()) {
            if (b.length() > 0) b.append(' ');
            switch (it.currentSegment(p)) {
                case PathIterator.SEG_MOVETO -> b.append('M').append(num(p[0])).append(',').append(num(p[1]));
                case PathIterator.SEG_LINETO -> b.append('L').append(num(p[0])).append(',').append(num(p[1]));
                case PathIterator.SEG_QUADTO -> b.append('Q').append(num(p[0])).append(',').append(num(p[1])).append(' ')
                        .append(num(p[2])).append(',').append(num(p[3]));
                case PathIterator.SEG_CUBICTO -> b.append('C').append(num(p[0])).append(',').append(num(p[1])).append(' ')
                        .append(num(p[2])).append(',').append(num(p[3])).append(' ').append(num(p[4])).append(',').append(num(p[5]));
                default -> b.append('Z');
            }
        }
        return b.toString();
    }

    // ---- PDF ----

    /**
     * A one-page PDF ({@link PdfPage}; page size = the drawing in points). Each element is drawn in
     * its own user space ({@code cm}); labels are their exact outlines with the text on top in the
     * standard Helvetica, invisible, as {@link Scene#pdf} writes them.
     */
    byte[] pdf() {
        StringBuilder c = new StringBuilder(4096 + 120 * commands.size());
        c.append("1 0 0 -1 0 ").append(height).append(" cm\n");   // y down, as drawn
        TreeMap<Integer, String> alphas = new TreeMap<>();
        boolean[] clipped = {false};
        replay(new Sink() {
            @Override
            public void clip(Shape pageClip) {
                if (clipped[0]) c.append("Q\n");
                clipped[0] = pageClip != null;
                if (pageClip == null) return;
                c.append("q ");
                PdfPage.path(c, pageClip);
                c.append(pageClip.getPathIterator(null).getWindingRule() == PathIterator.WIND_EVEN_ODD ? "W* n\n" : "W n\n");
            }

            @Override
            public void fill(Shape s, State st) {
                open(st.at, st.colour);
                c.append(PdfPage.rgb(st.colour, "rg"));
                PdfPage.path(c, s);
                c.append(s.getPathIterator(null).getWindingRule() == PathIterator.WIND_EVEN_ODD ? "f*" : "f").append(" Q\n");
            }

            @Override
            public void stroke(Shape s, State st) {
                open(st.at, st.colour);
                c.append(PdfPage.rgb(st.colour, "RG"));
                if (st.stroke instanceof BasicStroke bs) {
                    c.append(num(bs.getLineWidth())).append(" w ").append(bs.getEndCap()).append(" J ").append(bs.getLineJoin()).append(" j ")
                            .append(num(bs.getMiterLimit())).append(" M [");
                    float[] d = bs.getDashArray();
                    if (d != null) for (int i = 0; i < d.length; i++) c.append(i > 0 ? " " : "").append(num(d[i]));
                    c.append("] ").append(num(bs.getDashPhase())).append(" d ");
                }
                PdfPage.path(c, s);
                c.append("S Q\n");
            }

            @Override
            public void label(String text, Font font, AffineTransform place, Shape outline, State st) {
                fill(outline, st);
                // the text, invisible, from the same baseline origin, un-mirrored: (a, b, -c, -d, e, f) of the placement
                c.append("q /Invisible gs BT /F").append(font.isBold() ? 2 : 1).append(' ').append(num(font.getSize2D())).append(" Tf ")
                        .append(num(place.getScaleX())).append(' ').append(num(place.getShearY())).append(' ')
                        .append(num(-place.getShearX())).append(' ').append(num(-place.getScaleY())).append(' ')
                        .append(num(place.getTranslateX())).append(' ').append(num(place.getTranslateY())).append(" Tm (")
                        .append(PdfPage.string(ChartWriter.latin1(text))).append(") Tj ET Q\n");
            }

            /** q, the element's user space and its opacity (closed by the caller's Q). */
            private void open(AffineTransform at, Color colour) {
                c.append("q ");
                if (!at.isIdentity()) {
                    c.append(num(at.getScaleX())).append(' ').append(num(at.getShearY())).append(' ').append(num(at.getShearX())).append(' ')
                            .append(num(at.getScaleY())).append(' ').append(num(at.getTranslateX())).append(' ').append(num(at.getTranslateY()))
                            .append(" cm ");
                }
                if (colour.getAlpha() < 255) {
                    alphas.put(colour.getAlpha(), num(colour.getAlpha() / 255.0));
                    c.append("/A").append(colour.getAlpha()).append(" gs ");
                }
            }
        });
        if (clipped[0]) c.append("Q\n");
        StringBuilder states = new StringBuilder();
        alphas.forEach((a, v) -> states.append(" /A").append(a).append(" << /ca ").append(v).append(" /CA ").append(v).append(" >>"));
        return PdfPage.write(width, height, c, title, states.toString());
    }
}

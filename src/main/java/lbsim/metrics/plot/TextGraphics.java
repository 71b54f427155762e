package lbsim.metrics.plot;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.intermediate.MutableCommandSequence;
import de.erichseifert.vectorgraphics2d.intermediate.commands.Command;
import java.awt.Font;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.awt.geom.PathIterator;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;

/**
 * Vector graphics that record XChart's labels as text, so an SVG or PDF chart can be searched,
 * selected and edited. XChart fills each label's glyph outlines; when a filled shape is exactly the
 * outline of a string recently laid out in a {@link TracedFont} (moved and turned, never scaled), a
 * {@link Label} is recorded instead: the string, its font, where it goes and the outline, from which
 * {@link VectorDrawing} writes a {@code <text>} (SVG) or the outline with the text invisibly over it
 * (PDF: looks the same in every viewer without the font, and still finds and copies). Any other
 * shape stays a filled shape.
 */
final class TextGraphics extends VectorGraphics2D {
    private static final ThreadLocal<TextGraphics> PAINTING = new ThreadLocal<>();
    /** Strings laid out but not yet drawn are looked up among the latest this many. */
    private static final int RECENT = 48;
    /** Largest distance (px) between a filled point and the string's outline point. */
    private static final double EPS = 1e-3;

    private final ArrayDeque<Laid> recent = new ArrayDeque<>();

    private TextGraphics() {}

    /** A label: {@code text} in {@code font} with its baseline origin at {@code place} (user space), and the outline XChart filled. */
    static final class Label extends Command<String> {
        final Font font;
        final AffineTransform place;
        final Shape outline;

        Label(String text, Font font, AffineTransform place, Shape outline) {
            super(text);
            this.font = font;
            this.place = place;
            this.outline = outline;
        }
    }

    /** Runs {@code paint} on new text-recording graphics on this thread and returns them. */
    static TextGraphics paint(java.util.function.Consumer<TextGraphics> paint) {
        TextGraphics g = new TextGraphics();
        TextGraphics outer = PAINTING.get();
        PAINTING.set(g);
        try {
            paint.accept(g);
        } finally {
            if (outer == null) PAINTING.remove();
            else PAINTING.set(outer);
        }
        return g;
    }

    static TextGraphics painting() {
        return PAINTING.get();
    }

    /** {@code text} was laid out in {@code font} for {@code frc} (XChart uses the graphics' and its own). */
    void laidOut(String text, Font font, FontRenderContext frc) {
        if (text.isBlank()) return;
        for (Laid l : recent) if (l.text.equals(text) && l.font.equals(font) && l.frc.equals(frc)) return;
        recent.addFirst(new Laid(text, font, frc));
        if (recent.size() > RECENT) recent.removeLast();
    }

    @Override
    public void fill(Shape s) {
        if (recent.isEmpty() || !asText(s)) super.fill(s);
    }

    private boolean asText(Shape s) {
        Path got = Path.of(s, null);
        for (Iterator<Laid> it = recent.iterator(); it.hasNext(); ) {
            Laid l = it.next();
            if (l.outline == null) l.outline = Path.of(new TextLayout(l.text, l.font, l.frc).getOutline(null), null);
            AffineTransform at = l.outline.rigidMapOnto(got);
            if (at == null) continue;
            if (isDisposed()) return true;
            ((MutableCommandSequence) getCommands()).add(new Label(l.text, l.font, at, new java.awt.geom.Path2D.Double(s)));
            return true;
        }
        return false;
    }

    private static final class Laid {
        final String text;
        final Font font;
        final FontRenderContext frc;
        Path outline;

        Laid(String text, Font font, FontRenderContext frc) {
            this.text = text;
            this.font = font;
            this.frc = frc;
        }
    }

    /** A shape's segment kinds and points. */
    record Path(int[] kinds, double[] xy) {
        static Path of(Shape s, AffineTransform at) {
            int[] kinds = new int[64];
            double[] xy = new double[256];
            int k = 0, n = 0;
            double[] c = new double[6];
            for (PathIterator it = s.getPathIterator(at); !it.isDone(); it.next()) {
                int kind = it.currentSegment(c);
                int pts = switch (kind) {
                    case PathIterator.SEG_MOVETO, PathIterator.SEG_LINETO -> 1;
                    case PathIterator.SEG_QUADTO -> 2;
                    case PathIterator.SEG_CUBICTO -> 3;
                    default -> 0;
                };
                if (k == kinds.length) kinds = Arrays.copyOf(kinds, 2 * k);
                kinds[k++] = kind;
                if (n + 2 * pts > xy.length) xy = Arrays.copyOf(xy, 2 * xy.length + 2 * pts);
                System.arraycopy(c, 0, xy, n, 2 * pts);
                n += 2 * pts;
            }
            return new Path(Arrays.copyOf(kinds, k), Arrays.copyOf(xy, n));
        }

        /**
         * The rotation plus translation that maps every point of this path onto {@code other}'s (same
         * segments), or null when there is none: a string's outline moved and turned into place.
         */
        AffineTransform rigidMapOnto(Path other) {
            if (xy.length < 6 || !Arrays.equals(kinds, other.kinds) || xy.length != other.xy.length) return null;
            // the rotation from the point farthest from the first one; a rigid map keeps their distance
            int far = 0;
            double best = 0;
            for (int i = 2; i < xy.length; i += 2) {
                double d = Math.hypot(xy[i] - xy[0], xy[i + 1] - xy[1]);
                if (d > best) { best = d; far = i; }
            }
            if (best < 1e-6) return null;
            double ux = xy[far] - xy[0], uy = xy[far + 1] - xy[1];
            double vx = other.xy[far] - other.xy[0], vy = other.xy[far + 1] - other.xy[1];
            if (Math.abs(Math.hypot(vx, vy) - best) > EPS) return null;
            double angle = Math.atan2(vy, vx) - Math.atan2(uy, ux);
            double cos = Math.cos(angle), sin = Math.sin(angle);
            // snap to the exact quarter turns XChart uses for vertical labels
            if (Math.abs(cos) < 1e-9) cos = 0;
            if (Math.abs(sin) < 1e-9) sin = 0;
            double tx = other.xy[0] - (cos * xy[0] - sin * xy[1]), ty = other.xy[1] - (sin * xy[0] + cos * xy[1]);
            for (int i = 0; i < xy.length; i += 2) {
                double x = cos * xy[i] - sin * xy[i + 1] + tx, y = sin * xy[i] + cos * xy[i + 1] + ty;
                if (Math.abs(x - other.xy[i]) > EPS || Math.abs(y - other.xy[i + 1]) > EPS) return null;
            }
            return new AffineTransform(cos, sin, -sin, cos, tx, ty);
        }
    }
}

package lbsim.metrics.plot;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.LineMetrics;

/**
 * A font that tells the {@link TextGraphics} painting on this thread which strings are laid out
 * with it. XChart draws every label as the glyph outlines of a {@code TextLayout} and never hands
 * the string to the graphics; the JDK's {@code TextLayout} asks its font for the line metrics of
 * exactly that string first, which is where this font notes it. Drawing is unchanged: it is the
 * same font.
 */
final class TracedFont extends Font {
    private static final long serialVersionUID = 1L;
    private final Font plain;

    private TracedFont(Font plain) {
        super(plain);
        this.plain = plain;
    }

    /** {@code font} traced (a traced font is returned as it is; null stays null). */
    static Font of(Font font) {
        return font == null || font instanceof TracedFont ? font : new TracedFont(font);
    }

    @Override
    public LineMetrics getLineMetrics(char[] chars, int beginIndex, int limit, FontRenderContext frc) {
        TextGraphics g = TextGraphics.painting();
        if (g != null) g.laidOut(new String(chars, beginIndex, limit - beginIndex), plain, frc);
        return super.getLineMetrics(chars, beginIndex, limit, frc);
    }
}

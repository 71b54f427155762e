package lbsim.metrics.plot;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The colour scale drawn beside a heat map (XChart's own shows only its two ends, without a
 * title): the ramp from 0 to {@code max} as stacked bands, ticks at round values shown times
 * {@code factor} (100 for percent), and {@code title} with the unit up its right side.
 */
record ColourBar(Color[] ramp, double max, double factor, String title) {
    /** Pixels to the right of the heat map the bar takes. */
    static final int WIDTH = 96;
    private static final int BANDS = 100, TOP = 40, BOTTOM = 70, LEFT = 10, BAR = 18;
    private static final Font TICKS = TracedFont.of(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    private static final Font TITLE = TracedFont.of(new Font(Font.SANS_SERIF, Font.BOLD, 12));

    /** The ramp's colour at {@code f} in [0, 1]: linear between its evenly spaced stops, as XChart colours the cells. */
    static Color colour(Color[] ramp, double f) {
        double x = Math.max(0, Math.min(1, f)) * (ramp.length - 1);
        int i = Math.min(ramp.length - 2, (int) Math.floor(x));
        double t = x - i;
        Color a = ramp[i], b = ramp[i + 1];
        return new Color((int) Math.round(a.getRed() + t * (b.getRed() - a.getRed())),
                (int) Math.round(a.getGreen() + t * (b.getGreen() - a.getGreen())),
                (int) Math.round(a.getBlue() + t * (b.getBlue() - a.getBlue())));
    }

    /** Tick values (in data units, 0 and max included when max is round): steps of 1, 2, 2.5 or 5 x 10^k, about 5 of them. */
    List<Double> ticks() {
        double shown = max * factor, raw = shown / 5, p = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = p * 10;
        for (double m : new double[] {1, 2, 2.5, 5, 10}) if (raw <= m * p + 1e-12) { step = m * p; break; }
        List<Double> out = new ArrayList<>();
        for (int k = 0; k * step <= shown * (1 + 1e-9); k++) out.add(k * step / factor);
        return out;
    }

    static String label(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** Draws the bar in [0, WIDTH) x [0, height) of {@code g}. */
    void paint(Graphics2D g, int height) {
        double top = TOP, bottom = height - BOTTOM, h = bottom - top;
        for (int k = 0; k < BANDS; k++) {   // from the top (max) down; each band its middle's colour
            g.setColor(colour(ramp, 1 - (k + 0.5) / BANDS));
            g.fill(new Rectangle2D.Double(LEFT, top + k * h / BANDS, BAR, h / BANDS + 0.5));
        }
        g.setColor(Color.GRAY);
        g.draw(new Rectangle2D.Double(LEFT, top, BAR, h));
        g.setColor(Color.BLACK);
        for (double v : ticks()) {
            double y = bottom - v / max * h;
            g.draw(new java.awt.geom.Line2D.Double(LEFT + BAR, y, LEFT + BAR + 4, y));
            text(g, label(v * factor), TICKS, LEFT + BAR + 7, y + 4, false);
        }
        text(g, title, TITLE, WIDTH - 8, (top + bottom) / 2, true);
    }

    /** Adds the bar to {@code s} in [x0, x0 + WIDTH) x [0, height): the same bar as {@link #paint}. */
    void addTo(Scene s, double x0, int height) {
        double top = TOP, bottom = height - BOTTOM, h = bottom - top, left = x0 + LEFT;
        for (int k = 0; k < BANDS; k++) s.fill(left, top + k * h / BANDS, BAR, h / BANDS + 0.5, colour(ramp, 1 - (k + 0.5) / BANDS));
        s.frame(left, top, BAR, h, Color.GRAY);
        for (double v : ticks()) {
            double y = bottom - v / max * h;
            s.line(left + BAR, y, left + BAR + 4, y, Color.BLACK, 1, 0);
            s.text(label(v * factor), PLAIN_TICKS, left + BAR + 7, y + 4, Scene.Anchor.START, false, Color.BLACK);
        }
        s.text(title, PLAIN_TITLE, x0 + WIDTH - 8, (top + bottom) / 2, Scene.Anchor.MIDDLE, true, Color.BLACK);
    }

    private static final Font PLAIN_TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font PLAIN_TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 12);

    /** Text as XChart draws it (filled outlines of a laid-out string), so vector files write it as text the same way. */
    static void text(Graphics2D g, String s, Font font, double x, double y, boolean upwards) {
        TextLayout layout = new TextLayout(s, font, g.getFontRenderContext());
        AffineTransform at = AffineTransform.getTranslateInstance(x, y);
        if (upwards) {
            at.rotate(-Math.PI / 2);
            at.translate(-layout.getAdvance() / 2, 0);
        }
        Shape outline = layout.getOutline(at);
        g.fill(outline);
    }
}

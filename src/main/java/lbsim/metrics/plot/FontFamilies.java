package lbsim.metrics.plot;

import java.awt.Font;
import java.awt.GraphicsEnvironment;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The installed font family a logical Java font (SansSerif, Dialog, ...) draws Latin text in, for
 * the font-family of SVG labels: the first installed family whose plain face lays out a test string
 * exactly as the logical font does. Looked up once per logical family and process (the lookup lays
 * the string out in installed families until one matches; VectorGraphics2D's own lookup laid it out
 * in every installed face, for every size and style, which cost a small report about 0.1 s CPU).
 */
final class FontFamilies {
    private static final Set<String> LOGICAL = Set.of(Font.DIALOG, Font.DIALOG_INPUT, Font.SANS_SERIF, Font.SERIF, Font.MONOSPACED);
    private static final String TEST = "Quizzical jackdaws vex 0123456789 BLOWZY FIGHTS (us) -> %";
    private static final FontRenderContext FRC = new FontRenderContext(null, false, true);
    private static final Map<String, String> CSS = new ConcurrentHashMap<>();

    private FontFamilies() {}

    /** {@code "DejaVu Sans",sans-serif}: the family {@code f} draws in, quoted, then any sans-serif font. */
    static String css(Font f) {
        return CSS.computeIfAbsent(f.getFamily(Locale.ROOT), family -> "\"" + installed(family) + "\",sans-serif");
    }

    /** The installed family a logical family stands for (itself when it is not logical or nothing matches). */
    static String installed(String family) {
        if (!LOGICAL.contains(family)) return family;
        TextLayout want = new TextLayout(TEST, new Font(family, Font.PLAIN, 12), FRC);
        Set<String> tried = new HashSet<>();
        for (Font face : GraphicsEnvironment.getLocalGraphicsEnvironment().getAllFonts()) {
            String name = face.getFamily(Locale.ROOT);
            if (LOGICAL.contains(name) || !tried.add(name)) continue;
            TextLayout got = new TextLayout(TEST, new Font(name, Font.PLAIN, 12), FRC);
            if (got.getAdvance() == want.getAdvance() && got.getAscent() == want.getAscent() && got.getDescent() == want.getDescent()
                    && got.getBounds().equals(want.getBounds())) {
                return name;
            }
        }
        return family;
    }
}

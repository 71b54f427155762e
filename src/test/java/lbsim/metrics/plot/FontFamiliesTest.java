package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Font;
import java.awt.GraphicsEnvironment;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FontFamiliesTest {
    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    /** The family found is installed, not logical, and lays out other text as the logical font does too. */
    @Test
    void theLogicalSansSerifIsAnInstalledFamilyThatDrawsTheSame() {
        String found = FontFamilies.installed(Font.SANS_SERIF);
        List<String> installed = List.of(GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames(java.util.Locale.ROOT));
        if (!installed.contains(found)) {   // no installed font matches: the logical name stays (nothing else to check)
            assertThat(found).isEqualTo(Font.SANS_SERIF);
            return;
        }
        assertThat(found).isNotIn(Font.SANS_SERIF, Font.DIALOG, Font.SERIF, Font.MONOSPACED, Font.DIALOG_INPUT);
        FontRenderContext frc = new FontRenderContext(null, true, true);
        for (String s : List.of("spine12 (us)", "FCT slowdown by flow size", "0.125")) {
            assertThat(new TextLayout(s, new Font(found, Font.PLAIN, 11), frc).getAdvance())
                    .isEqualTo(new TextLayout(s, new Font(Font.SANS_SERIF, Font.PLAIN, 11), frc).getAdvance());
        }
        assertThat(FontFamilies.css(new Font(Font.SANS_SERIF, Font.BOLD, 14))).isEqualTo("\"" + found + "\",sans-serif");
    }

    @Test
    void anInstalledFamilyIsItself() {
        assertThat(FontFamilies.installed("Some Family")).isEqualTo("Some Family");
    }
}

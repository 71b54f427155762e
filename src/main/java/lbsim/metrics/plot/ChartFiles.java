package lbsim.metrics.plot;

import java.nio.file.Path;

/**
 * Where one chart was written: a PNG for the page (at {@link ChartWriter#PNG_SCALE} times the
 * chart's size, for print), and the same chart as SVG and PDF ({@code pdf} null when not written).
 * {@code width} is the chart's size in CSS pixels (0 when unknown): the page shows the PNG at that width.
 */
public record ChartFiles(String title, Path png, Path svg, Path pdf, int width) {
    public ChartFiles(String title, Path png, Path svg) {
        this(title, png, svg, null, 0);
    }
}

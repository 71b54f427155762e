package lbsim.metrics.plot;

import java.nio.file.Path;

/** Where one chart was written: a PNG for the page and an SVG of the same chart for print. */
public record ChartFiles(String title, Path png, Path svg) {
}

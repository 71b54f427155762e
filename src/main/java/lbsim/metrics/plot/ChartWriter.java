package lbsim.metrics.plot;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Writes an XChart chart as {@code name.png} and {@code name.svg}; rendering never needs a display. */
final class ChartWriter {
    static {
        Headless.ensure();
    }

    private ChartWriter() {}

    static ChartFiles write(Chart<?, ?> chart, Path dir, String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) throw new IllegalArgumentException("chart file name '" + name + "' must be [A-Za-z0-9._-]+");
        Path png = dir.resolve(name + ".png");
        Path svg = dir.resolve(name + ".svg");
        try {
            Files.createDirectories(dir);
            try (OutputStream o = Files.newOutputStream(png)) {
                BitmapEncoder.saveBitmap(chart, o, BitmapEncoder.BitmapFormat.PNG);
            }
            try (OutputStream o = Files.newOutputStream(svg)) {
                VectorGraphicsEncoder.saveVectorGraphic(chart, o, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + png, e);
        }
        return new ChartFiles(chart.getTitle(), png, svg);
    }
}

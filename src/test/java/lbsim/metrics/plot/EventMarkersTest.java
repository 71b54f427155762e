package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import lbsim.engine.EventLog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failures and their detection become markers on the throughput chart's time axis. */
class EventMarkersTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void failuresAndDetectionsBecomeMarkersInMicroseconds() {
        EventLog log = new EventLog();
        log.record(50_000_000L, "link-down", "leaf0-spine1", "");
        log.record(50_000_000L, "link-down", "leaf0-spine2", "");
        log.record(60_000_000L, "timeout", "qp 0", "");
        log.record(100_050_000_000L, "link-detected", "leaf0-spine1", "");
        log.record(100_050_000_000L, "reroute", "switches", "");
        assertThat(FlowMetrics.eventMarkers(log)).containsExactly(new Marker(50, "link-down 2 links"),
                new Marker(100_050, "link-detected leaf0-spine1"));
    }

    /** The marker is drawn: its colour appears as a vertical line near its x, and nowhere without it. */
    @Test
    void aMarkerIsAVerticalLineAtItsTime() throws Exception {
        Series tput = new Series("ecmp", new double[] {0, 100, 200, 300, 400}, new double[] {100, 380, 50, 300, 300});
        BufferedImage with = ImageIO.read(Charts.throughput("t", List.of(tput), List.of(new Marker(300, "link-down l")), tmp, "with").png().toFile());
        BufferedImage without = ImageIO.read(Charts.throughput("t", List.of(tput), List.of(), tmp, "without").png().toFile());
        assertThat(columnsWithMarkerColour(without)).isEmpty();
        List<Integer> cols = columnsWithMarkerColour(with);
        assertThat(cols).isNotEmpty();
        // the plot spans most of the width; 300 of 400 us lies right of the middle
        int width = with.getWidth();
        assertThat(cols).anySatisfy(x -> assertThat(x).isBetween(width / 2, width - 20));
    }

    /** Columns holding at least 40 pixels of the marker colour (a vertical dashed line, not the label text alone). */
    private static List<Integer> columnsWithMarkerColour(BufferedImage img) {
        List<Integer> out = new java.util.ArrayList<>();
        int rgb = Charts.MARKER.getRGB() & 0xFFFFFF;
        for (int x = 0; x < img.getWidth(); x++) {
            int n = 0;
            for (int y = 0; y < img.getHeight(); y++) if ((img.getRGB(x, y) & 0xFFFFFF) == rgb) n++;
            if (n >= 40) out.add(x);
        }
        return out;
    }
}

package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PNG writer round-trips through the JDK's PNG reader pixel for pixel. */
class PngWriterTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    private static BufferedImage random(int w, int h, long seed, boolean flat) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(seed);
        int[] few = {0xffffff, 0xfde725, 0x440154, 0x000000};
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) img.setRGB(x, y, flat ? few[r.nextInt(few.length)] : r.nextInt());
        return img;
    }

    private void assertRoundTrip(BufferedImage img, Path file) throws Exception {
        PngWriter.write(img, file);
        BufferedImage back = ImageIO.read(file.toFile());
        assertThat(back.getWidth()).isEqualTo(img.getWidth());
        assertThat(back.getHeight()).isEqualTo(img.getHeight());
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                assertThat(back.getRGB(x, y) & 0xffffff).as("pixel %d,%d", x, y).isEqualTo(img.getRGB(x, y) & 0xffffff);
            }
        }
    }

    @Test
    void randomImagesReadBackPixelForPixel() {
        qt().withFixedSeed(7L).withExamples(40).forAll(integers().between(1, 90), integers().between(1, 70), longs().all())
                .checkAssert((w, h, seed) -> {
                    try {
                        assertRoundTrip(random(w, h, seed, seed % 2 == 0), tmp.resolve("r.png"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }

    /** More compressed data than one IDAT chunk holds: the reader joins the chunks. */
    @Test
    void aLargeNoisyImageSpansSeveralChunks() throws Exception {
        Path f = tmp.resolve("big.png");
        assertRoundTrip(random(400, 300, 3, false), f);
        assertThat(Files.size(f)).isGreaterThan(3L * (1 << 16));
    }

    @Test
    void sameImageSameBytes() throws Exception {
        BufferedImage img = random(50, 40, 11, true);
        PngWriter.write(img, tmp.resolve("a.png"));
        PngWriter.write(img, tmp.resolve("b.png"));
        assertThat(Files.readAllBytes(tmp.resolve("a.png"))).isEqualTo(Files.readAllBytes(tmp.resolve("b.png")));
    }
}

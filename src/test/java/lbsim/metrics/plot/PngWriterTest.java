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

    /** A chart-like picture: flat background, rectangles and lines, so most rows repeat or differ in a short span. */
    private static BufferedImage blocky(int w, int h, long seed) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(seed);
        java.awt.Graphics2D g = img.createGraphics();
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, w, h);
        for (int k = r.nextInt(12); k > 0; k--) {
            g.setColor(new java.awt.Color(r.nextInt()));
            if (r.nextBoolean()) g.fillRect(r.nextInt(w), r.nextInt(h), 1 + r.nextInt(w), 1 + r.nextInt(h));
            else g.drawLine(r.nextInt(w), r.nextInt(h), r.nextInt(w), r.nextInt(h));
        }
        g.dispose();
        return img;
    }

    /** The image data as the PNG specification's Up filter makes it, computed row by row in full (the oracle). */
    private static byte[] upFiltered(BufferedImage img) {
        int w = img.getWidth(), h = img.getHeight();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int y = 0; y < h; y++) {
            out.write(2);
            for (int x = 0; x < w; x++) {
                int p = img.getRGB(x, y), q = y > 0 ? img.getRGB(x, y - 1) : 0;
                for (int shift = 16; shift >= 0; shift -= 8) out.write(((p >> shift) & 0xff) - ((q >> shift) & 0xff));
            }
        }
        return out.toByteArray();
    }

    /** The concatenated IDAT chunks of a PNG file, inflated. */
    private static byte[] imageData(Path png) throws Exception {
        java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(Files.readAllBytes(png)));
        in.skipBytes(8);
        java.io.ByteArrayOutputStream idat = new java.io.ByteArrayOutputStream();
        while (true) {
            int len = in.readInt();
            byte[] type = new byte[4], data = new byte[len];
            in.readFully(type);
            in.readFully(data);
            in.readInt();   // CRC
            String t = new String(type, java.nio.charset.StandardCharsets.US_ASCII);
            if (t.equals("IDAT")) idat.writeBytes(data);
            if (t.equals("IEND")) break;
        }
        return new java.util.zip.InflaterInputStream(new java.io.ByteArrayInputStream(idat.toByteArray())).readAllBytes();
    }

    /** Rows equal to the one above, or equal outside a span, are written as full Up-filtered rows all the same. */
    @Test
    void repeatedRowsAndSpansGiveExactlyTheUpFilteredData() {
        qt().withFixedSeed(13L).withExamples(60).forAll(integers().between(1, 120), integers().between(1, 90), longs().all())
                .checkAssert((w, h, seed) -> {
                    try {
                        BufferedImage img = seed % 3 == 0 ? random(w, h, seed, true) : blocky(w, h, seed);
                        Path f = tmp.resolve("b.png");
                        assertRoundTrip(img, f);
                        assertThat(imageData(f)).isEqualTo(upFiltered(img));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }
}

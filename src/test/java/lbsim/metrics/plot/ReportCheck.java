package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/** Checks that a report.html is self-contained: every reference is a readable file in its directory. */
public final class ReportCheck {
    private static final Pattern REF = Pattern.compile("(?:src|href)=\"([^\"]*)\"");

    private ReportCheck() {}

    /**
     * Asserts every src/href resolves inside the page's directory (or, for {@code #id}, to an id on the page),
     * PNGs decode, SVGs parse, PDFs start with %PDF-; returns the file references.
     */
    public static List<String> assertSelfContained(Path html) throws Exception {
        Headless.ensure();
        Path dir = html.getParent().toAbsolutePath().normalize();
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("</html>");
        List<String> refs = new ArrayList<>();
        Matcher m = REF.matcher(page);
        while (m.find()) refs.add(m.group(1).replace("&amp;", "&"));
        List<String> files = new ArrayList<>();
        for (String ref : refs) {
            if (ref.startsWith("#")) {   // a link within the page (table of contents) must name an id on it
                assertThat(page).as("anchor %s", ref).contains("id=\"" + ref.substring(1) + "\"");
                continue;
            }
            files.add(ref);
            assertThat(ref).as("reference %s must be a relative path", ref).doesNotContain(":").doesNotStartWith("/");
            Path f = dir.resolve(ref).normalize();
            assertThat(f.startsWith(dir)).as("%s stays inside %s", ref, dir).isTrue();
            assertThat(f).as(ref).isRegularFile();
            if (ref.endsWith(".png")) {
                BufferedImage img = ImageIO.read(f.toFile());
                assertThat(img).as("%s decodes as an image", ref).isNotNull();
                assertThat(img.getWidth()).as(ref).isBetween(200, 4000);
                assertThat(img.getHeight()).as(ref).isBetween(150, 5000);
            } else if (ref.endsWith(".svg")) {
                Document d = parseXml(f);
                assertThat(d.getDocumentElement().getTagName()).as(ref).isEqualTo("svg");
            } else if (ref.endsWith(".pdf")) {
                byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(f), 5);
                assertThat(new String(head, java.nio.charset.StandardCharsets.US_ASCII)).as(ref).isEqualTo("%PDF-");
            }
        }
        return files;
    }

    /** Parses XML without fetching the DTD the SVG names (no network). */
    static Document parseXml(Path f) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        dbf.setValidating(false);
        dbf.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        try {
            return dbf.newDocumentBuilder().parse(f.toFile());
        } catch (IOException e) {
            throw new AssertionError(f + " is not well-formed XML", e);
        }
    }
}

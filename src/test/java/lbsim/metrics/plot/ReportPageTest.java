package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts drawn beside the page's assembly land in the page in the order they were added, whatever order they finish in. */
class ReportPageTest {
    @TempDir
    Path tmp;

    private ChartFiles files(String name) {
        return new ChartFiles(name, tmp.resolve("plots").resolve(name + ".png"), tmp.resolve("plots").resolve(name + ".svg"));
    }

    @Test
    void drawnChartsKeepTheOrderTheyWereAddedIn() throws Exception {
        // the first chart may only finish after the last one started: with one core the pool runs
        // them in order anyway; with several the first waits for the last
        CountDownLatch lastStarted = new CountDownLatch(1);
        int cores = Runtime.getRuntime().availableProcessors();
        ReportPage page = new ReportPage(tmp, "t");
        page.heading(2, "before");
        page.figure(() -> {
            try {
                if (cores > 1) lastStarted.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return files("first");
        }, "caption one");
        page.paragraph("between");
        List<Supplier<ChartFiles>> gallery = new ArrayList<>();
        for (String n : List.of("g1", "g2")) gallery.add(() -> files(n));
        page.galleryOf(gallery);
        page.figure(() -> {
            lastStarted.countDown();
            return files("last");
        }, "caption last");
        page.paragraph("after");
        String html = page.render();
        List<String> order = List.of("before", "plots/first.png", "caption one", "between", "class=\"gallery\"", "plots/g1.png",
                "plots/g2.png", "</div>", "plots/last.png", "caption last", "after");
        int at = -1;
        for (String s : order) {
            int i = html.indexOf(s, at + 1);
            assertThat(i).as(s + " after the previous part in\n" + html).isGreaterThan(at);
            at = i;
        }
        assertThat(page.render()).as("rendering twice gives the same page").isEqualTo(html);
    }

    @Test
    void aChartThatFailsFailsThePageWithItsOwnError() {
        ReportPage page = new ReportPage(tmp, "t");
        page.figure(() -> {
            throw new UncheckedIOException("cannot write chart x.png", new java.io.IOException("disk full"));
        }, "c");
        assertThatThrownBy(page::write).isInstanceOf(UncheckedIOException.class).hasMessageContaining("x.png");
    }
}

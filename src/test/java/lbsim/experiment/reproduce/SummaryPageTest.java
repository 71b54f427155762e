package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * summary.html across the presets' stored results in docs/results: the verdict counts behind its stacked bars are
 * the verdict column of each comparison.csv counted here independently, every preset is listed and linked, and
 * every claim is on the page.
 */
class SummaryPageTest {
    static final Path ROOT = StoredResultsTest.ROOT;

    @Test
    void theChartsCountsAreEachStoredComparisonsVerdictsAndEveryPresetIsLinked(@TempDir Path tmp) throws IOException {
        Path page = SummaryPage.write(ROOT, tmp);
        String html = Files.readString(page);
        Map<String, int[]> counted = new HashMap<>();
        int cells = 0;
        for (Preset p : Presets.all()) {
            Path cmp = ROOT.resolve(p.id()).resolve("comparison.csv");
            if (!Files.exists(cmp)) continue;
            int[] n = new int[4];
            try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(cmp)) {
                for (NamedCsvRecord x : r) {
                    n[List.of("reproduces", "direction", "contradicts", "not-run").indexOf(x.getField("verdict"))]++;
                    cells++;
                    assertThat(html).contains(escaped(x.getField("cell")));
                }
            }
            counted.put(p.id(), n);
            // the page links the preset's report where one was drawn (a local re-run), else its comparison.csv (a clone)
            Path report = ROOT.resolve(p.id()).resolve("report.html");
            Path target = Files.exists(report) ? report : cmp;
            assertThat(html).as(p.id()).contains("<a href=\"" + tmp.toAbsolutePath().relativize(target.toAbsolutePath()).toString()
                    .replace('\\', '/') + "\"><code>" + p.id() + "</code></a>");
        }
        assertThat(counted).isNotEmpty();
        Map<String, int[]> drawn = new HashMap<>();
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(tmp.resolve("plots/verdicts.csv"))) {
            for (NamedCsvRecord x : r) {
                drawn.put(x.getField("preset"), new int[] {Integer.parseInt(x.getField("reproduces")), Integer.parseInt(x.getField("direction")),
                        Integer.parseInt(x.getField("contradicts")), Integer.parseInt(x.getField("not_run"))});
            }
        }
        assertThat(drawn.keySet()).containsExactlyInAnyOrderElementsOf(counted.keySet());
        for (var e : counted.entrySet()) assertThat(drawn.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
        assertThat(html).contains("All presets: " + cells + " cells");
        assertThat(tmp.resolve("plots/verdicts-per-preset.png")).exists();
        assertThat(tmp.resolve("plots/verdicts-per-paper.png")).exists();
    }

    private static String escaped(String s) {
        return lbsim.metrics.plot.ReportPage.escape(s);
    }

    @Test
    void eachPaperGetsItsOwnShortName() {
        assertThat(Presets.all().stream().map(p -> SummaryPage.shortPaper(p.paper())).distinct())
                .containsExactlyInAnyOrder("Ethereal (Addanki)", "McClure", "ParaLet (Cao)", "CTCCL (Li)", "Hopper (Nosrati)");
    }
}

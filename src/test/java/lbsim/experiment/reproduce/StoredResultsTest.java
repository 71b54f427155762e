package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reproductions kept in docs/results/&lt;id&gt;/ are what the docs report, so they must be the presets' as
 * they are now: made by the same preset (fingerprint), with a comparison.csv that the stored runs give again
 * byte for byte (nothing typed by hand, notes and causes current), and the summary page generated from them.
 */
class StoredResultsTest {
    static final Path ROOT = Path.of("docs/results");

    static Stream<Preset> presets() {
        return Presets.all().stream();
    }

    @ParameterizedTest
    @MethodSource("presets")
    void everyPresetHasStoredResultsMadeByThePresetAsItIsNow(Preset p) {
        Provenance pv = Provenance.read(ROOT.resolve(p.id()));
        assertThat(pv).as("%s: no stored results; run ./lbsim reproduce %s --out docs/results/%s", p.id(), p.id(), p.id()).isNotNull();
        assertThat(pv.preset()).isEqualTo(p.id());
        assertThat(pv.fingerprint()).as("%s changed since its stored %s-scale results were made (commit %s): re-run "
                        + "./lbsim reproduce %s --scale %s --out docs/results/%s (remove the folder first if its grid changed)",
                p.id(), pv.scale(), pv.commit(), p.id(), pv.scale(), p.id()).isEqualTo(Provenance.fingerprint(p, pv.scale()));
        assertThat(pv.runs()).as("%s: every run of its scale finished", p.id()).isEqualTo(Reproduce.spec(p, pv.scale(), List.of()).runs().size());
    }

    /**
     * Each stored run (sensitivity runs included) was made from the scenario its grid point resolves to
     * today, defaults included: a changed default (a NIC's cache size, an ECN threshold) makes it stale.
     */
    @ParameterizedTest
    @MethodSource("presets")
    void everyStoredRunWasMadeFromTheScenarioItsGridPointResolvesToNow(Preset p) throws IOException {
        Path dir = ROOT.resolve(p.id());
        Provenance pv = Provenance.read(dir);
        if (pv == null) return; // the first test reports it
        List<String> stale = new ArrayList<>();
        stale.addAll(staleRuns(Reproduce.spec(p, pv.scale(), List.of()), dir));
        for (Sensitivity s : Sensitivities.of(p.id())) {
            for (String v : s.values()) {
                // a setting of one grid value rewrites the preset, so its runs have other keys than a --set would give
                Path sd = dir.resolve("sensitivity").resolve(Sensitivity.folder(s.name(), v));
                Sensitivity.Applied a = s.apply(p, v, List.of());
                if (Files.isDirectory(sd)) stale.addAll(staleRuns(Reproduce.spec(a.preset(), pv.scale(), a.overrides()), sd));
            }
        }
        assertThat(stale).as("%s: stored runs made with other settings than the preset resolves to now (a default changed?): "
                + "remove them and re-run ./lbsim reproduce %s --scale %s --sensitivity --out docs/results/%s", p.id(), p.id(),
                pv.scale(), p.id()).isEmpty();
    }

    private static List<String> staleRuns(lbsim.experiment.SweepSpec spec, Path dir) throws IOException {
        List<String> stale = new ArrayList<>();
        for (lbsim.experiment.SweepSpec.Run r : spec.runs()) {
            Path summary = dir.resolve("runs").resolve(r.key()).resolve("summary.json");
            if (!Files.exists(summary)) continue; // the run count is the first test's
            String why = lbsim.experiment.Sweep.staleness(summary, spec.scenario(r).resolvedSha256());
            if (why != null) stale.add(dir.relativize(summary) + " " + why);
        }
        return stale;
    }

    @ParameterizedTest
    @MethodSource("presets")
    void theStoredComparisonIsWhatTheStoredRunsGive(Preset p, @TempDir Path tmp) throws IOException {
        Path dir = ROOT.resolve(p.id());
        Provenance pv = Provenance.read(dir);
        if (pv == null) return; // the test above reports it
        List<Reproduce.Row> rows = Reproduce.comparison(p, pv.scale(), dir, List.of());
        Reproduce.writeCsv(rows, tmp.resolve("comparison.csv"));
        assertThat(Files.readString(tmp.resolve("comparison.csv")))
                .as("%s: comparison.csv differs from what its runs give now (a note, cause or verdict rule changed): re-run "
                        + "./lbsim reproduce %s --scale %s --out docs/results/%s (it runs nothing new)", p.id(), p.id(), pv.scale(), p.id())
                .isEqualTo(Files.readString(dir.resolve("comparison.csv")));
    }

    @Test
    void theSummaryPageIsGeneratedFromTheStoredResults() throws IOException {
        String page = Files.readString(ROOT.resolve("README.md"));
        assertThat(page).as("docs/results/README.md: regenerate its table with ./lbsim reproduce --summary")
                .contains(Verdicts.summaryMarkdown(ROOT));
        List<String> stale = new ArrayList<>();
        for (Verdicts.Stored s : Verdicts.stored(ROOT)) if (s.present() && !s.current()) stale.add(s.preset().id());
        assertThat(stale).isEmpty();
    }
}

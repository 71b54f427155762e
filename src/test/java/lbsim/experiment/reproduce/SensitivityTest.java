package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.Sweep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SensitivityTest {
    @TempDir
    Path tmp;

    /** A differing cell without an analysed cause that reproduces at some value of a setting is attributed to that setting. */
    @Test
    void aCellThatReproducesOnlyAtAnotherValueIsAttributedToTheSetting() {
        Cell c = Cell.improvement("c", java.util.Map.of("s", "a"), java.util.Map.of("s", "b"), 30, "");
        Cell analysed = Cell.improvement("d", java.util.Map.of("s", "a"), java.util.Map.of("s", "b"), 30, "")
                .because(Cell.Cause.Kind.MODEL, "why");
        Reproduce.Row main = new Reproduce.Row(c, 10, 0, 1, 30, null, "m");
        Reproduce.Row kept = new Reproduce.Row(analysed, 10, 0, 1, 30, null, "m");
        List<Reproduce.SensitivityRow> sens = List.of(
                new Reproduce.SensitivityRow("k", "1", new Reproduce.Row(c, 12, 0, 1, 30, null, "m")),
                new Reproduce.SensitivityRow("k", "2", new Reproduce.Row(c, 29, 0, 1, 30, null, "m")),
                new Reproduce.SensitivityRow("k", "2", new Reproduce.Row(analysed, 29, 0, 1, 30, null, "m")));
        List<Reproduce.Row> rows = Reproduce.withSensitivityCauses(List.of(main, kept), sens);
        assertThat(rows.get(0).verdict()).isEqualTo(Verdict.DIRECTION);
        assertThat(rows.get(0).causeKind()).isEqualTo("unstated-setting");
        assertThat(rows.get(0).causeDetail()).isEqualTo("reproduces with k=2 (sensitivity run)");
        assertThat(rows.get(1).causeKind()).isEqualTo("model");
        assertThat(Reproduce.withSensitivityCauses(List.of(main), List.of()).get(0).causeKind()).isEqualTo("unexplained");
    }

    /** Every declared unstated setting names a preset and a value every grid point of both scales accepts. */
    @Test
    void everyDeclaredSettingIsAValueEveryGridPointAccepts() {
        assertThat(Sensitivities.presetIds()).isNotEmpty();
        for (String id : Sensitivities.presetIds()) {
            Preset p = Presets.get(id);
            for (Sensitivity s : Sensitivities.of(id)) {
                for (String v : s.values()) {
                    for (String scale : Preset.SCALES) {
                        Reproduce.spec(p, scale, List.of(s.key() + "=" + v)).validate(); // a bad value throws (exit 2)
                    }
                }
            }
        }
    }

    /**
     * One preset (McClure Table 2 on a k = 4 fat-tree, a few seconds) run at one other value of an unstated setting:
     * a resumable reproduction of its own under sensitivity/, whose provenance carries the setting, and one row per
     * cell in sensitivity.csv with its verdict.
     */
    @Test
    void eachValueIsAReproductionOfItsOwnWithEveryCellsVerdict() throws Exception {
        Preset p = Presets.get("mcclure-table2");
        List<String> small = List.of("topology.k=4");
        Reproduce.run(p, "quick", tmp, 2, small, Sweep.Listener.NONE);
        Sensitivity rto = new Sensitivity("transport.timeout_us", List.of("200"), "test");
        List<Reproduce.SensitivityRow> rows = Reproduce.runSensitivity(p, List.of(rto), "quick", tmp, 2, small, Sweep.Listener.NONE);
        assertThat(rows).hasSize(p.cells().size());
        Path sub = tmp.resolve("sensitivity").resolve("transport.timeout_us=200");
        Provenance pv = Provenance.read(sub);
        assertThat(pv.fingerprint()).isEqualTo(Provenance.fingerprint(p, "quick", List.of("topology.k=4", "transport.timeout_us=200")))
                .isNotEqualTo(Provenance.read(tmp).fingerprint());
        List<NamedCsvRecord> csv = new ArrayList<>();
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(tmp.resolve(Reproduce.SENSITIVITY_CSV))) {
            r.forEach(csv::add);
        }
        assertThat(csv).hasSize(p.cells().size()).allSatisfy(r -> {
            assertThat(r.getField("setting")).isEqualTo("transport.timeout_us");
            assertThat(r.getField("value")).isEqualTo("200");
            assertThat(r.getField("verdict")).isIn("reproduces", "direction", "contradicts", "not-run");
        });
    }
}

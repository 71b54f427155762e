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

package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.nio.file.Files;
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
                        Sensitivity.Applied a = s.apply(p, v, List.of());
                        Reproduce.spec(a.preset(), scale, a.overrides()).validate(); // a bad value throws (exit 2)
                    }
                }
            }
        }
    }

    /**
     * A setting of one grid value (FlowBender's signal in hopper-fig4) changes only that grid value's runs: they read the
     * value, every other run keeps its scenario and so its run key, and those runs are taken over from the main
     * reproduction instead of being run again.
     */
    @Test
    void aSettingOfOneGridValueChangesOnlyThatGridValuesRuns() throws Exception {
        Preset p = Presets.get("hopper-fig4");
        Sensitivity signal = Sensitivity.ofGridValue("flowbender", "load_balancer.signal", List.of("rtt"), "test");
        List<String> none = List.of();
        Sensitivity.Applied a = signal.apply(p, "rtt", none);
        assertThat(a.overrides()).isEmpty();
        assertThat(signal.name()).isEqualTo("load_balancer.signal (flowbender)");
        for (String scale : Preset.SCALES) {
            lbsim.experiment.SweepSpec main = Reproduce.spec(p, scale, none), changed = Reproduce.spec(a.preset(), scale, none);
            assertThat(changed.runs()).hasSameSizeAs(main.runs());
            for (int i = 0; i < main.runs().size(); i++) {
                lbsim.experiment.SweepSpec.Run m = main.runs().get(i), c = changed.runs().get(i);
                boolean fb = m.labels().contains("flowbender");
                String read = changed.scenario(c).resolved().path("load_balancer").path("signal").asText();
                if (fb) {
                    assertThat(read).isEqualTo("rtt");
                    assertThat(c.key()).isNotEqualTo(m.key());
                } else {
                    assertThat(c.key()).isEqualTo(m.key());
                    assertThat(changed.scenario(c).resolved()).isEqualTo(main.scenario(m).resolved());
                }
            }
        }
        assertThatThrownBy(() -> Sensitivity.ofGridValue("nope", "load_balancer.signal", List.of("rtt"), "t").apply(p, "rtt", none))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("grid.load_balancer.nope");

        // a finished main run of an unchanged grid point is copied, a changed one is not
        lbsim.experiment.SweepSpec main = Reproduce.spec(p, "quick", none), changed = Reproduce.spec(a.preset(), "quick", none);
        Path mainOut = tmp.resolve("main");
        for (lbsim.experiment.SweepSpec.Run r : main.runs()) {
            Files.createDirectories(mainOut.resolve("runs").resolve(r.key()));
            Files.writeString(mainOut.resolve("runs").resolve(r.key()).resolve("summary.json"), "{}");
        }
        Path dir = tmp.resolve("sens");
        Reproduce.reuseUnchangedRuns(main, changed, mainOut, dir);
        for (lbsim.experiment.SweepSpec.Run r : changed.runs()) {
            assertThat(Files.exists(dir.resolve("runs").resolve(r.key()).resolve("summary.json")))
                    .isEqualTo(!r.labels().contains("flowbender"));
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
        // re-made from the stored runs, the comparison keeps naming the build that ran them
        Provenance made = Provenance.read(tmp);
        new Provenance(made.preset(), made.scale(), made.fingerprint(), "0.0.1", "0123abcd", made.runs(), made.runSeconds()).write(tmp);
        assertThat(Reproduce.run(p, "quick", tmp, 2, small, Sweep.Listener.NONE).sweep().ran()).isZero();
        assertThat(Provenance.read(tmp).commit()).isEqualTo("0123abcd");
        assertThat(Provenance.read(tmp).version()).isEqualTo("0.0.1");
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

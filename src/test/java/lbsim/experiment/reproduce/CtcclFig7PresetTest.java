package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import lbsim.experiment.SweepSpec;
import org.junit.jupiter.api.Test;

/** ctccl-fig7: switch detection as a grid column, every value shorter than NCCL 2.19's QP timer; a cell per value. */
class CtcclFig7PresetTest {
    @Test
    void detectionTimeIsAGridColumnWithACellPerValue() {
        Preset p = Presets.get("ctccl-fig7");
        for (String scale : Preset.SCALES) {
            SweepSpec spec = Reproduce.spec(p, scale, List.of());
            assertThat(spec.runs()).as(scale).hasSize(4 * 2 * 2);
            Set<String> labels = spec.runs().stream().map(r -> r.labels().get(0)).collect(Collectors.toSet());
            assertThat(labels).as(scale).containsExactlyInAnyOrderElementsOf(CtcclPresets.DETECTION.keySet());
        }
        // one cell on the preset's metric (the variance after the failure) per detection time; others name their own field
        List<Cell> after = p.cells().stream().filter(c -> c.metric() == null).toList();
        assertThat(after).hasSize(CtcclPresets.DETECTION.size());
        assertThat(after.stream().map(c -> c.select().get("failures[0].detect_ms")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(CtcclPresets.DETECTION.keySet());
        // the NIC deviation states the QP timer (the shared 1 ms one is not this preset's)
        assertThat(p.deviations()).anySatisfy(d -> assertThat(d).startsWith("NIC:").contains("1.07 s"));
        assertThat(p.deviations()).noneSatisfy(d -> assertThat(d).contains("timeout_us 1000"));
    }
}

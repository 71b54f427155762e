package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.metrics.plot.Bar;
import lbsim.metrics.plot.BarGroup;
import org.junit.jupiter.api.Test;

/** The generic sweep charts' data: which columns play which role, and bars = mean ± sample sd over seeds. */
class SweepChartsTest {
    private static SweepData.Row row(String algo, String size, String lb, long seed, String cct) {
        return new SweepData.Row(List.of(algo, size, lb), seed, Path.of("none"), Map.of("cct_ns", cct, "normalised", ""));
    }

    private static final List<String> COLS = List.of("workload.algorithm", "workload.size_bytes", "load_balancer");

    @Test
    void axesAreDetectedFromTheGridUnlessTheHintNamesThem() {
        assertThat(SweepCharts.Axes.AUTO.resolve(COLS)).isEqualTo(new SweepCharts.Axes("load_balancer", "workload.size_bytes"));
        assertThat(SweepCharts.Axes.AUTO.resolve(List.of("load_balancer.scheme", "topology.port_buffer_bytes")))
                .isEqualTo(new SweepCharts.Axes("load_balancer.scheme", null));
        assertThat(SweepCharts.Axes.AUTO.resolve(List.of())).isEqualTo(new SweepCharts.Axes(null, null));
        assertThat(new SweepCharts.Axes("workload.algorithm", "").resolve(COLS)).isEqualTo(new SweepCharts.Axes("workload.algorithm", null));
        assertThatThrownBy(() -> new SweepCharts.Axes("transport.cc", null).resolve(COLS)).hasMessageContaining("transport.cc");
    }

    @Test
    void barsAreTheMeanAndSampleSdOverSeedsPerGridPointFacetedByTheFirstOtherColumn() {
        SweepData d = new SweepData("t", COLS, List.of(
                row("ata", "16MB", "ecmp", 1, "1000"), row("ata", "16MB", "ecmp", 2, "3000"),
                row("ata", "16MB", "eth", 1, "2000"), row("ata", "16MB", "eth", 2, ""),      // a null CCT is left out
                row("ata", "64MB", "ecmp", 1, "5000"), row("ata", "64MB", "ecmp", 2, "5000"),
                row("rd", "16MB", "ecmp", 1, "7000")), 8);
        Map<String, List<BarGroup>> f = SweepCharts.barGroups(d, "cct_ns", SweepCharts.Axes.AUTO);
        assertThat(f.keySet()).containsExactly("ata", "rd");
        List<BarGroup> ata = f.get("ata");
        assertThat(ata).extracting(BarGroup::series).containsExactly("ecmp", "eth");
        Bar b = ata.get(0).bars().get(0);
        assertThat(b.category()).isEqualTo("16MB");
        // ns -> us; mean of 1 and 3 us, sample sd sqrt(((1-2)^2 + (3-2)^2) / 1)
        assertThat(b.mean()).isCloseTo(2.0, within(1e-12));
        assertThat(b.sd()).isCloseTo(Math.sqrt(2), within(1e-12));
        assertThat(ata.get(0).bars().get(1)).isEqualTo(new Bar("64MB", 5.0, 0.0));
        assertThat(ata.get(1).bars()).containsExactly(new Bar("16MB", 2.0, 0.0));
        assertThat(f.get("rd").get(0).bars()).containsExactly(new Bar("16MB", 7.0, 0.0));
        // no numbers at all: no chart
        assertThat(SweepCharts.barGroups(d, "normalised", SweepCharts.Axes.AUTO)).isEmpty();
    }

    @Test
    void withoutASeriesColumnEveryGridPointIsOneBarOfOneSeries() {
        SweepData d = new SweepData(null, List.of("topology.spines"), List.of(
                new SweepData.Row(List.of("2"), 1, Path.of("x"), Map.of("normalised", "1.5")),
                new SweepData.Row(List.of("4"), 1, Path.of("x"), Map.of("normalised", "1.25"))), 2);
        Map<String, List<BarGroup>> f = SweepCharts.barGroups(d, "normalised", SweepCharts.Axes.AUTO);
        assertThat(f.keySet()).containsExactly("");
        assertThat(f.get("").get(0).bars()).containsExactly(new Bar("2", 1.5, 0), new Bar("4", 1.25, 0));
        assertThat(SweepCharts.label("normalised")).isEqualTo("normalised (completion / ideal)");
        assertThat(SweepCharts.label("flows.fct_ns.p99")).isEqualTo("flows.fct.p99 (us)");
    }

    /** normalised between 1.25 and 1.5: the bars start at the ideal, 1.0, and the caption says so; 0.9 brings the axis back to 0. */
    @Test
    void normalisedBarsStandOnTheIdealWhenNoneReachesBelowIt(@org.junit.jupiter.api.io.TempDir Path tmp) {
        SweepData above = new SweepData(null, List.of("topology.spines"), List.of(
                new SweepData.Row(List.of("2"), 1, Path.of("x"), Map.of("normalised", "1.5")),
                new SweepData.Row(List.of("4"), 1, Path.of("x"), Map.of("normalised", "1.25"))), 2);
        assertThat(SweepCharts.metricBars(above, "normalised", SweepCharts.Axes.AUTO, tmp, "a").get(0).caption())
                .contains("the axis starts at 1.0");
        SweepData below = new SweepData(null, List.of("topology.spines"), List.of(
                new SweepData.Row(List.of("2"), 1, Path.of("x"), Map.of("normalised", "0.9"))), 1);
        assertThat(SweepCharts.metricBars(below, "normalised", SweepCharts.Axes.AUTO, tmp, "b").get(0).caption())
                .doesNotContain("axis starts");
    }
}

package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

class LinkHeatMapsTest {
    /** Every link direction of the run shows up in exactly one cell, with its own utilisation. */
    private static void assertEveryLinkOnce(RunResult r, List<LinkHeatMaps.Panel> panels) {
        int cells = 0;
        for (LinkHeatMaps.Panel p : panels) {
            for (double[] row : p.map().values()) for (double v : row) if (!Double.isNaN(v)) cells++;
        }
        assertThat(cells).isEqualTo(r.links().size());
        Map<Double, Integer> want = new HashMap<>(), got = new HashMap<>();
        for (LinkRecord l : r.links()) want.merge(l.utilisation(), 1, Integer::sum);
        for (LinkHeatMaps.Panel p : panels) {
            for (double[] row : p.map().values()) for (double v : row) if (!Double.isNaN(v)) got.merge(v, 1, Integer::sum);
        }
        assertThat(got).isEqualTo(want);
    }

    @Test
    void leafSpineIsALeavesBySpinesMatrixPerDirection() {
        RunResult r = Scenarios.run("""
                topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts_per_leaf: 2, parallel_links: 2}
                workload: {kind: permutation, size_bytes: 50000}
                """);
        List<LinkHeatMaps.Panel> panels = LinkHeatMaps.panels("", r.links());
        assertThat(panels).extracting(LinkHeatMaps.Panel::key).containsExactly("h-leaf", "leaf-spine", "spine-leaf", "leaf-h");
        HeatMap up = panels.get(1).map();
        assertThat(up.rows()).containsExactly("leaf0", "leaf1", "leaf2");
        assertThat(up.columns()).containsExactly("spine0/0", "spine0/1", "spine1/0", "spine1/1");
        HeatMap down = panels.get(2).map();
        assertThat(down.rows()).containsExactly("spine0", "spine1");
        assertThat(down.columns()).hasSize(6);
        // host panels: the ToR is the row, its hosts the columns
        assertThat(panels.get(0).map().rows()).containsExactly("leaf0", "leaf1", "leaf2");
        assertThat(panels.get(0).map().columns()).containsExactly("#0", "#1");
        assertThat(panels.get(0).fabric()).isFalse();
        assertThat(panels.get(1).fabric()).isTrue();
        assertEveryLinkOnce(r, panels);
        // the cell of leaf1 -> spine1 (member 0) is that link's utilisation
        LinkRecord l = r.links().stream().filter(x -> x.from().equals("leaf1") && x.to().equals("spine1") && x.link().endsWith("/0"))
                .findFirst().orElseThrow();
        assertThat(up.values()[1][2]).isEqualTo(l.utilisation());
    }

    @Test
    void fatTreeHasUpAndDownPanelsForEachTierPair() {
        RunResult r = Scenarios.run("""
                topology: {kind: fat-tree, k: 4}
                workload: {kind: permutation, size_bytes: 20000}
                """);
        List<LinkHeatMaps.Panel> panels = LinkHeatMaps.panels("", r.links());
        assertThat(panels).extracting(LinkHeatMaps.Panel::key)
                .containsExactly("h-tor", "tor-agg", "agg-core", "core-agg", "agg-tor", "tor-h");
        HeatMap torAgg = panels.get(1).map();
        assertThat(torAgg.rows()).hasSize(8);
        assertThat(torAgg.columns()).hasSize(2); // k/2 uplinks per ToR
        assertThat(panels.get(2).map().rows()).hasSize(8);
        assertThat(panels.get(3).map().rows()).containsExactly("core0", "core1", "core2", "core3");
        assertThat(panels.get(3).map().columns()).hasSize(4); // one link to each pod
        assertEveryLinkOnce(r, panels);
        List<String> titles = new ArrayList<>();
        for (var p : panels) titles.add(p.map().title());
        assertThat(titles.get(1)).contains("tor \u2192 agg (up)");
        assertThat(titles.get(4)).contains("(down)");
    }

    @Test
    void namesSortWithTheirNumbersAsNumbers() {
        List<String> names = new ArrayList<>(List.of("leaf10", "leaf2", "leaf1", "h3", "leaf0-spine1/10", "leaf0-spine1/9"));
        names.sort(LinkHeatMaps::natural);
        assertThat(names).containsExactly("h3", "leaf0-spine1/9", "leaf0-spine1/10", "leaf1", "leaf2", "leaf10");
        // leading zeros do not count: 007 is 7, below 8 and equal to 7; 000 is 0
        assertThat(LinkHeatMaps.natural("a007", "a8")).isNegative();
        assertThat(LinkHeatMaps.natural("a007b", "a7b")).isZero();
        assertThat(LinkHeatMaps.natural("a000", "a0")).isZero();
        assertThat(LinkHeatMaps.natural("a010", "a9")).isPositive();
        assertThat(LinkHeatMaps.tier("core12")).isEqualTo("core");
        assertThat(LinkHeatMaps.tier("h0")).isEqualTo("h");
    }
}

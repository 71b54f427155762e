package lbsim.metrics.plot;

import java.util.List;

/**
 * The bars of one series (usually one scheme) in a grouped bar chart: one bar per category.
 * Categories missing from a group are left empty in the chart.
 */
public record BarGroup(String series, List<Bar> bars) {
    public BarGroup {
        bars = List.copyOf(bars);
    }
}

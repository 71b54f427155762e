package lbsim.experiment;

/**
 * The scenario's {@code metrics} section: what is sampled during a run.
 *
 * @param throughputIntervalUs     the throughput series' sampling interval
 * @param throughputMaxIntervals   the most intervals the series keeps: past it, pairs of intervals merge
 *                                 and the interval doubles, so its memory does not grow with simulated time
 * @param series                   the per-link time series (link_series.csv), or null when off (the default)
 * @param steps                    whether to write the per-rank, per-step timeline of collectives (steps.csv; off by default)
 */
public record MetricsSpec(double throughputIntervalUs, int throughputMaxIntervals, Series series, boolean steps) {
    /** 2^20 intervals: 10.5 s of simulated time at the default 10 us, 8 MiB of samples. */
    public static final int DEFAULT_MAX_INTERVALS = 1 << 20;

    /**
     * {@code metrics.series}: the link directions of the links whose names match {@code links} (a
     * glob, as in failures), sampled every {@code intervalUs}; at most {@code maxRows} rows.
     */
    public record Series(String links, double intervalUs, long maxRows) {
        /** 2^20 rows, 24 MiB of samples. */
        public static final long DEFAULT_MAX_ROWS = 1 << 20;
    }

    static MetricsSpec from(Section s) {
        double interval = s.doubleValue("throughput_interval_us", 10, 0.1, 1e9);
        int max = s.intValue("throughput_max_intervals", DEFAULT_MAX_INTERVALS, 2, 1 << 28);
        Series series = null;
        if (s.has("series")) {
            Section ss = s.section("series");
            String links = ss.requiredString("links");
            double us = ss.doubleValue("interval_us", 10, 0.001, 1e9);
            long rows = ss.longValue("max_rows", Series.DEFAULT_MAX_ROWS, 3, 1L << 31);
            ss.finish();
            series = new Series(links, us, rows);
        }
        // recorded in the resolved scenario only when given, so runs without it keep their scenario_sha256
        boolean steps = s.has("steps") && s.bool("steps", false);
        s.finish();
        return new MetricsSpec(interval, max, series, steps);
    }
}

package lbsim.experiment;

/**
 * The scenario's {@code metrics} section: what is sampled during a run.
 *
 * @param throughputIntervalUs     the throughput series' sampling interval
 * @param throughputMaxIntervals   the most intervals the series keeps: past it, pairs of intervals merge
 *                                 and the interval doubles, so its memory does not grow with simulated time
 */
public record MetricsSpec(double throughputIntervalUs, int throughputMaxIntervals) {
    /** 2^20 intervals: 10.5 s of simulated time at the default 10 us, 8 MiB of samples. */
    public static final int DEFAULT_MAX_INTERVALS = 1 << 20;

    static MetricsSpec from(Section s) {
        MetricsSpec m = new MetricsSpec(s.doubleValue("throughput_interval_us", 10, 0.1, 1e9),
                s.intValue("throughput_max_intervals", DEFAULT_MAX_INTERVALS, 2, 1 << 28));
        s.finish();
        return m;
    }
}

package lbsim.experiment;

/** The scenario's {@code metrics} section: what is sampled during a run. */
public record MetricsSpec(double throughputIntervalUs) {
    static MetricsSpec from(Section s) {
        MetricsSpec m = new MetricsSpec(s.doubleValue("throughput_interval_us", 10, 0.1, 1e9));
        s.finish();
        return m;
    }
}

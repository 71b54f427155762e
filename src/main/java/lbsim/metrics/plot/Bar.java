package lbsim.metrics.plot;

/** One bar: its category on the x axis, its height and the half-height of its error bar (0 for none). */
public record Bar(String category, double mean, double sd) {
    /** The mean and sample standard deviation of repeated measurements (for example one value per seed). */
    public static Bar ofSamples(String category, double... samples) {
        if (samples.length == 0) throw new IllegalArgumentException("bar " + category + ": no samples");
        double sum = 0;
        for (double s : samples) sum += s;
        double mean = sum / samples.length;
        double ss = 0;
        for (double s : samples) ss += (s - mean) * (s - mean);
        double sd = samples.length > 1 ? Math.sqrt(ss / (samples.length - 1)) : 0;
        return new Bar(category, mean, sd);
    }
}

package lbsim.metrics.plot;

/**
 * A unit for an axis, chosen by the magnitude of the values shown so tick labels stay short
 * (1.2 ms rather than 1,200 us; 3.2 Tbit/s rather than 3,200 Gbit/s).
 *
 * @param name   the unit as written in the axis title
 * @param factor multiply a value in the base unit by this to get it in this unit
 */
public record Units(String name, double factor) {
    /** A time axis whose values are in microseconds: us below 1 ms, ms below 1 s, else s. */
    public static Units timeFromUs(double maxUs) {
        if (maxUs < 1e3) return new Units("us", 1);
        if (maxUs < 1e6) return new Units("ms", 1e-3);
        return new Units("s", 1e-6);
    }

    /** A rate axis whose values are in Gbit/s: Mbit/s below 1 Gbit/s, Gbit/s below 1 Tbit/s, else Tbit/s. */
    public static Units rateFromGbps(double maxGbps) {
        if (maxGbps > 0 && maxGbps < 1) return new Units("Mbit/s", 1e3);
        if (maxGbps < 1e3) return new Units("Gbit/s", 1);
        return new Units("Tbit/s", 1e-3);
    }

    /** A size axis whose values are in bytes: B, KB, MB, GB (powers of 1000, as lbsim's inputs). */
    public static Units bytes(double maxBytes) {
        if (maxBytes < 1e3) return new Units("B", 1);
        if (maxBytes < 1e6) return new Units("KB", 1e-3);
        if (maxBytes < 1e9) return new Units("MB", 1e-6);
        return new Units("GB", 1e-9);
    }

    /** {@code values} in this unit (a new array). */
    public double[] scale(double[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) out[i] = values[i] * factor;
        return out;
    }

    /** A series with its y (or x) values converted into this unit. */
    Series scaleY(Series s) {
        return new Series(s.name(), s.x(), scale(s.y()));
    }

    Series scaleX(Series s) {
        return new Series(s.name(), scale(s.x()), s.y());
    }
}

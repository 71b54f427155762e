package lbsim.metrics.plot;

/** One named line of an x/y chart (for example one scheme's CCT at each message size). */
public record Series(String name, double[] x, double[] y) {
    public Series {
        if (x.length != y.length) throw new IllegalArgumentException("series " + name + ": x and y differ in length");
    }

    public int size() { return x.length; }
}

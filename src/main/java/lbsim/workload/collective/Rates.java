package lbsim.workload.collective;

/** Converts bytes at a rate into picoseconds. */
public final class Rates {
    private Rates() {}

    /** Time to move or process {@code bytes} at {@code gBps} gigabytes per second; 0 when the rate is 0 (not modelled). */
    public static long psAtGBps(double bytes, double gBps) {
        if (gBps <= 0 || bytes <= 0) return 0;
        return Math.round(bytes * 1000.0 / gBps);
    }

    /** Serialisation time of {@code bytes} on a link of {@code gbps} gigabits per second. */
    public static double psAtGbps(double bytes, double gbps) {
        if (gbps <= 0) throw new IllegalArgumentException("link rate must be > 0 Gbps");
        return bytes * 8000.0 / gbps;
    }
}

package lbsim.workload;

import lbsim.transport.FlowSpec;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Open-loop traffic (Hopper §4.1, HPCC/ConWeave ns-3 traffic generator): every host starts
 * flows as a Poisson process whose rate makes its offered load {@code load} x its NIC rate,
 * i.e. lambda_h = load x rate_h / (8 x mean flow size); each flow goes to a uniformly random
 * other host (any host, or only hosts under another ToR) and has a size drawn from an
 * empirical CDF. Flows arriving in [0, duration) are generated; the run continues until all
 * finish.
 */
public final class OpenLoop {
    /** Refuse workloads that would not fit in memory. */
    public static final long MAX_FLOWS = 20_000_000;

    /** Receives each generated flow in per-host arrival order. */
    public interface Sink {
        void flow(int src, int dst, long sizeBytes, long startPs);
    }

    private final FlowSizeDistribution dist;
    private final double load;
    private final long durationPs;
    private final long[] hostRateBps;
    private final int[] rack;

    /**
     * @param rack ToR of each host for inter-rack pairs; null = any distinct pair
     */
    public OpenLoop(FlowSizeDistribution dist, double load, long durationPs, long[] hostRateBps, int[] rack) {
        if (!(load > 0) || Double.isInfinite(load)) throw new IllegalArgumentException("load must be > 0");
        if (durationPs <= 0) throw new IllegalArgumentException("duration must be > 0");
        if (hostRateBps.length < 2) throw new IllegalArgumentException("open-loop traffic needs at least 2 hosts");
        if (rack != null) {
            boolean two = false;
            for (int r : rack) two |= r != rack[0];
            if (!two) throw new IllegalArgumentException("pairs: inter-rack needs hosts under at least 2 ToRs");
        }
        this.dist = dist;
        this.load = load;
        this.durationPs = durationPs;
        this.hostRateBps = hostRateBps.clone();
        this.rack = rack == null ? null : rack.clone();
    }

    /** Flow arrivals per picosecond at host h. */
    public double arrivalsPerPs(int h) {
        return load * hostRateBps[h] / 8.0 / dist.meanBytes() / 1e12;
    }

    /** Expected number of flows over the whole duration. */
    public double expectedFlows() {
        double n = 0;
        for (int h = 0; h < hostRateBps.length; h++) n += arrivalsPerPs(h) * durationPs;
        return n;
    }

    /** Generates every flow, host by host, each host's in arrival order. */
    public void generate(SplittableRandom rnd, Sink out) {
        if (expectedFlows() > MAX_FLOWS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "about %.0f flows expected (more than %d): lower load or duration_us", expectedFlows(), MAX_FLOWS));
        }
        int hosts = hostRateBps.length;
        for (int src = 0; src < hosts; src++) {
            double lambda = arrivalsPerPs(src);
            double t = 0;
            while (true) {
                t += -Math.log(1.0 - rnd.nextDouble()) / lambda; // exponential inter-arrival
                long at = (long) t;
                if (at >= durationPs) break;
                out.flow(src, destination(src, rnd), dist.sample(rnd), at);
            }
        }
    }

    private int destination(int src, SplittableRandom rnd) {
        int hosts = hostRateBps.length;
        while (true) {
            int d = rnd.nextInt(hosts - 1);
            if (d >= src) d++;
            if (rack == null || rack[d] != rack[src]) return d;
        }
    }

    /** The flows as a graph in start-time order (ties by source host), no dependencies, no groups. */
    public FlowGraph build(SplittableRandom rnd) {
        java.util.List<long[]> rows = new java.util.ArrayList<>();
        generate(rnd, (src, dst, size, at) -> rows.add(new long[] {at, src, dst, size}));
        long[][] all = rows.toArray(new long[0][]);
        Arrays.sort(all, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        FlowGraph g = new FlowGraph();
        for (long[] r : all) g.add(FlowSpec.simple(g.nextId(), (int) r[1], (int) r[2], r[3], r[0]));
        return g;
    }
}

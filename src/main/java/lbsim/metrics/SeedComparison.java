package lbsim.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Several schemes, each run under the same N seeds: per scheme the mean of each metric over the
 * seeds, the completion's spread, and whether its difference to the best scheme is within the
 * noise between seeds.
 *
 * <p>The rule, stated once: the best scheme is the one with the lowest mean completion among
 * those that completed on every seed (the first in order on a tie). Another scheme is within the
 * noise of it when a two-sided Welch t-test of the two schemes' per-seed completions does not
 * reject equal means at the 5 % level (p &ge; 0.05); when both spreads are 0 (the seeds do not
 * move either scheme), only equal means are within the noise. A scheme that did not complete on
 * every seed is not. One seed gives no estimate of the noise: nothing is marked.
 */
public final class SeedComparison {
    /** The test's level: a difference to the best with p below it is beyond the noise. */
    public static final double ALPHA = 0.05;

    /** How a scheme stands against the best: NONE when nothing can be said (one seed, or no scheme completed on every seed). */
    public enum Verdict {
        BEST, TIE, WORSE, INCOMPLETE, NONE;

        /** The console's word for it (blank for NONE). */
        public String label() {
            return switch (this) {
                case BEST -> "best";
                case TIE -> "tie";
                case WORSE -> "worse";
                case INCOMPLETE -> "incomplete";
                case NONE -> "";
            };
        }

        /** compare.csv's within_noise_of_best: empty when nothing can be said. */
        public String csv() {
            return this == NONE ? "" : Boolean.toString(this == BEST || this == TIE);
        }
    }

    /**
     * One scheme over its seeds. Means are NaN when some seed has no value (completion and x ideal
     * when a seed did not complete; FCTs when no flow of a seed finished): a missing value is never
     * averaged as 0 or left out. {@code completionSdNs}: the completion's sample sd, NaN for one seed.
     * {@code p}: the Welch test's p against the best (1 for the best, NaN when not tested).
     */
    public record Row(String scheme, List<RunResult> runs, double completionMeanNs, double completionSdNs, double normalisedMean,
                      double normalisedSd, double fctP50MeanNs, double fctP99MeanNs, double dropped, double retransmitted,
                      double outOfOrder, double pfcPauses, double maxQpsPerNic, Verdict verdict, double p) {
        public Row {
            runs = List.copyOf(runs);
        }

        /** The first seed's run (the charts other than the completion bars show it). */
        public RunResult first() {
            return runs.get(0);
        }

        /** Per seed, the completion (ns); NaN for a seed that did not complete. */
        public double[] completions() {
            return runs.stream().mapToDouble(RunResult::completionNs).toArray();
        }

        /**
         * The table's vs_best cell: the verdict and, for tie and worse, how much slower the mean
         * completion is than the best's ("tie +0.8 %", "worse +26 %"), so a difference beyond the
         * noise but too small to matter reads as such.
         */
        public String vsBest(Row best) {
            if ((verdict == Verdict.TIE || verdict == Verdict.WORSE) && best != null) {
                return verdict.label() + " +" + percent(100 * (completionMeanNs - best.completionMeanNs()) / best.completionMeanNs()) + " %";
            }
            return verdict.label();
        }

        /** Per seed, completion over the ideal; NaN for a seed that did not complete. */
        public double[] normalised() {
            return runs.stream().mapToDouble(RunResult::normalised).toArray();
        }
    }

    private final List<Row> rows;
    private final int seeds;
    private final long firstSeed;
    private final boolean completionIsCct;
    private final String transport;

    private SeedComparison(List<Row> rows, int seeds, long firstSeed, boolean completionIsCct, String transport) {
        this.rows = List.copyOf(rows);
        this.seeds = seeds;
        this.firstSeed = firstSeed;
        this.completionIsCct = completionIsCct;
        this.transport = transport;
    }

    /**
     * {@code perScheme}: each scheme's runs, one per seed, in seed order, every scheme under the
     * same seeds. {@code completionIsCct}: the completion is a CCT (collectives, training), else
     * the last flow's finish. {@code transport}: how the runs' transport is described in the
     * verdict ("cc dctcp, loss recovery go-back-n, PFC on"), "" when unknown.
     */
    public static SeedComparison of(List<List<RunResult>> perScheme, boolean completionIsCct, String transport) {
        if (perScheme.isEmpty()) return new SeedComparison(List.of(), 0, 0, completionIsCct, transport);
        int n = perScheme.get(0).size();
        if (n == 0) throw new IllegalArgumentException("a scheme with no runs");
        for (List<RunResult> runs : perScheme) {
            if (runs.size() != n) throw new IllegalArgumentException("every scheme needs the same " + n + " seeds, " + runs.get(0).scheme() + " has " + runs.size());
        }
        long first = perScheme.get(0).get(0).seed();
        // the best: the lowest mean completion among the schemes that completed on every seed
        int best = -1;
        double[] means = new double[perScheme.size()];
        for (int i = 0; i < perScheme.size(); i++) {
            means[i] = mean(perScheme.get(i).stream().mapToDouble(RunResult::completionNs).toArray());
            if (!Double.isNaN(means[i]) && (best < 0 || means[i] < means[best])) best = i;
        }
        double[] bestSamples = best < 0 ? null : perScheme.get(best).stream().mapToDouble(RunResult::completionNs).toArray();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < perScheme.size(); i++) {
            List<RunResult> runs = perScheme.get(i);
            double[] c = runs.stream().mapToDouble(RunResult::completionNs).toArray();
            double[] norm = runs.stream().mapToDouble(RunResult::normalised).toArray();
            boolean fcts = runs.stream().noneMatch(r -> r.fct().isEmpty());
            Verdict v;
            double p = Double.NaN;
            if (n == 1) {
                v = Verdict.NONE;
            } else if (Double.isNaN(means[i])) {
                v = Verdict.INCOMPLETE;   // also when no scheme completed: the column then says why every row is blank
            } else if (i == best) {
                v = Verdict.BEST;
                p = 1;
            } else {
                p = welchP(bestSamples, c);
                v = p >= ALPHA ? Verdict.TIE : Verdict.WORSE;
            }
            rows.add(new Row(runs.get(0).scheme(), runs, means[i], sd(c), mean(norm), sd(norm),
                    fcts ? mean(runs.stream().mapToDouble(r -> r.fct().p50()).toArray()) : Double.NaN,
                    fcts ? mean(runs.stream().mapToDouble(r -> r.fct().p99()).toArray()) : Double.NaN,
                    mean(runs.stream().mapToDouble(RunResult::packetsDropped).toArray()),
                    mean(runs.stream().mapToDouble(RunResult::packetsRetransmitted).toArray()),
                    mean(runs.stream().mapToDouble(RunResult::outOfOrderPackets).toArray()),
                    mean(runs.stream().mapToDouble(RunResult::pfcPauses).toArray()),
                    mean(runs.stream().mapToDouble(RunResult::maxQpsPerNic).toArray()), v, p));
        }
        return new SeedComparison(rows, n, first, completionIsCct, transport);
    }

    public List<Row> rows() {
        return rows;
    }

    /** Seeds per scheme (N). */
    public int seeds() {
        return seeds;
    }

    public long firstSeed() {
        return firstSeed;
    }

    /** Whether the completion is a CCT (compare.csv's spread column is then {@code cct_sd_ns}, else {@code completion_sd_ns}). */
    public boolean completionIsCct() {
        return completionIsCct;
    }

    public String transport() {
        return transport;
    }

    /** The best row, or null when no scheme completed on every seed. */
    public Row best() {
        for (Row r : rows) if (r.verdict() == Verdict.BEST) return r;
        return null;
    }

    /** "seed 7" or "seeds 1-3". */
    public String seedRange() {
        return seeds == 1 ? "seed " + firstSeed : "seeds " + firstSeed + "-" + (firstSeed + seeds - 1);
    }

    /** compare.csv's column of the completion's sd. */
    public String sdColumn() {
        return completionIsCct ? "cct_sd_ns" : "completion_sd_ns";
    }

    /**
     * The NIC line of the runs (every scheme of a compare runs on the scenario's NIC), then a line
     * per scheme that idealises something of its own; "" when none.
     */
    public String conditionsLine() {
        return RunResult.conditionsLines(rows.stream().map(Row::first).toList());
    }

    /** What the verdict holds for: the transport, the NIC profile and the seeds ("cc dctcp, ..., NIC roce, seeds 1-3"). */
    public String scope() {
        List<String> parts = new ArrayList<>();
        if (!transport.isEmpty()) parts.add(transport);
        Object profile = rows.isEmpty() || rows.get(0).first().nic() == null ? null : rows.get(0).first().nic().get("profile");
        if (profile != null) parts.add("NIC " + profile);
        parts.add(seedRange());
        return String.join(", ", parts);
    }

    /**
     * The verdict and what it holds for, one sentence: "verdict: best spray-switch (mean 2771.3 us);
     * within the noise of it: a, b; holds for cc dctcp, ..., NIC roce, seeds 1-3". With one seed,
     * says that there is no estimate of the noise.
     */
    public String verdictLine() {
        if (rows.isEmpty()) return "";
        String scope = scope();
        if (seeds == 1) {
            return "one seed: " + scope + "; no estimate of the noise between seeds, so close schemes may swap places under "
                    + "another seed (--seeds N runs N seeds and marks the schemes within the noise of the best)";
        }
        Row best = best();
        if (best == null) return "verdict: no scheme completed on every one of " + seedRange() + ", so none is the best (" + scope + ")";
        List<String> ties = new ArrayList<>();
        Row next = null;
        for (Row r : rows) {
            if (r.verdict() == Verdict.TIE) ties.add(r.scheme());
            if (r.verdict() == Verdict.WORSE && (next == null || r.completionMeanNs() < next.completionMeanNs())) next = r;
        }
        String others = !ties.isEmpty() ? "; within the noise of it: " + String.join(", ", ties)
                : next == null ? "; no other scheme completed on every seed"
                : "; no other scheme within the noise of it (the nearest: " + next.scheme() + ", " + next.vsBest(best).replaceFirst("^worse ", "") + ")";
        return String.format(Locale.ROOT, "verdict: best %s (mean %.1f us)%s; holds for %s", best.scheme(), best.completionMeanNs() / 1e3,
                others, scope);
    }

    /**
     * How large the noise is: the largest completion sd over the seeds (which scheme, and as a
     * share of its mean) and the median over schemes; "" with one seed.
     */
    public String noiseLine() {
        if (seeds < 2) return "";
        Row widest = null;
        List<Double> sds = new ArrayList<>();
        for (Row r : rows) {
            if (Double.isNaN(r.completionSdNs())) continue;
            sds.add(r.completionSdNs());
            if (widest == null || r.completionSdNs() > widest.completionSdNs()) widest = r;
        }
        if (widest == null) return "noise: no scheme completed on every seed";
        double[] sorted = sds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int m = sorted.length;
        double median = m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
        return String.format(Locale.ROOT, "noise: the completion's sd over %d seeds is at most %s us (%s, %.2g %% of its mean), median %s us over schemes",
                seeds, us(widest.completionSdNs()), widest.scheme(), 100 * widest.completionSdNs() / widest.completionMeanNs(), us(median));
    }

    /** A non-negative percentage, with fewer decimals as it grows: "26", "5.9", "0.03", "<0.01", "0". */
    static String percent(double p) {
        if (p >= 9.95) return String.format(Locale.ROOT, "%.0f", p);
        if (p >= 0.995) return String.format(Locale.ROOT, "%.1f", p);
        if (p >= 0.01) return String.format(Locale.ROOT, "%.2f", p);
        return p > 0 ? "<0.01" : "0";
    }

    /** Nanoseconds as microseconds: one decimal from 100 us, else three significant digits (a small spread stays visible). */
    static String us(double ns) {
        double us = ns / 1e3;
        if (us == 0) return "0";
        return Math.abs(us) >= 100 ? String.format(Locale.ROOT, "%.1f", us) : String.format(Locale.ROOT, "%.3g", us);
    }

    /** The rule behind the verdict column, one sentence. */
    public static String ruleLine() {
        return "tie: within the noise of the best (two-sided Welch t-test of the per-seed completions, p >= 0.05); "
                + "worse: slower than the best beyond it; +x %: how much slower the mean completion is than the best's; "
                + "incomplete: did not complete on every seed";
    }

    /** The mean, NaN when any value is NaN (a seed without the value) or there are none. */
    public static double mean(double[] x) {
        if (x.length == 0) return Double.NaN;
        double s = 0;
        for (double v : x) s += v;
        return s / x.length;   // a NaN anywhere makes the sum NaN
    }

    /** The sample standard deviation; NaN for fewer than two values or when any is NaN. */
    public static double sd(double[] x) {
        if (x.length < 2) return Double.NaN;
        double m = mean(x);
        if (Double.isNaN(m)) return Double.NaN;
        double ss = 0;
        for (double v : x) ss += (v - m) * (v - m);
        return Math.sqrt(ss / (x.length - 1));
    }

    /**
     * Two-sided p-value of Welch's t-test for equal means of {@code a} and {@code b} (each at least
     * two values): t = (mean a - mean b) / sqrt(var a / n a + var b / n b) on the
     * Welch-Satterthwaite degrees of freedom. When both variances are 0 it is 1 for equal means, else 0.
     */
    public static double welchP(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) throw new IllegalArgumentException("Welch's test needs two values per side");
        double ma = mean(a), mb = mean(b);
        double sa = sq(sd(a)) / a.length, sb = sq(sd(b)) / b.length;
        double se2 = sa + sb;
        if (se2 == 0) return ma == mb ? 1 : 0;
        double t = Math.abs(ma - mb) / Math.sqrt(se2);
        double df = se2 * se2 / (sa * sa / (a.length - 1) + sb * sb / (b.length - 1));
        return Math.min(1, 2 * TDistribution.of(df).survivalProbability(t));
    }

    private static double sq(double x) {
        return x * x;
    }

    @Override
    public String toString() {
        return "SeedComparison" + Arrays.toString(rows.stream().map(Row::scheme).toArray());
    }
}

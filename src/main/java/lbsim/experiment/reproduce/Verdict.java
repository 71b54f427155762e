package lbsim.experiment.reproduce;

import java.util.Locale;

/**
 * How one of our numbers stands against the paper's, by one rule for every preset (docs/experiments.md,
 * "Verdicts").
 *
 * <p>A cell compares against a reference that means "no effect": 0 for an improvement in percent, 1 for a
 * ratio or reduction, and for a plain value its metric's natural reference where it has one (1 = the ideal
 * for a normalised completion time, 0 for a variance). The effect is the distance from that reference.
 * <ul>
 *   <li>{@code reproduces}: ours is within the tolerance of the paper's number, the larger of 20 % of the
 *       paper's effect and a floor (3 percentage points for an improvement, 0.05 for a ratio, 0.03 for a value
 *       against a reference, 15 % of the paper's value for a value without one), widened by two standard
 *       errors of our mean over seeds;</li>
 *   <li>{@code direction}: not within it, but our effect has the paper's sign and is larger than both the floor
 *       and two standard errors (a real effect the same way, of another size); for a value without a
 *       reference: within a factor of 2 of the paper's;</li>
 *   <li>{@code contradicts}: anything else: no effect beyond the noise, the opposite effect, or (a paper
 *       saying "no difference") a difference beyond the tolerance;</li>
 *   <li>{@code not-run}: the scale did not run the cell's grid points.</li>
 * </ul>
 * A claim the paper states without a number ({@link Cell#qualitative}: "X outperforms Y") is reproduced by an
 * effect its way beyond the floor and two standard errors, whatever its size, and contradicted otherwise. A
 * number the paper states as a bound ({@link Cell#asLowerBound}: "a gap of less than 8.3 %") is reproduced by
 * ours at or above it less the same tolerance, and contradicted below; an upper bound ({@link Cell#asUpperBound}:
 * "at most 32 queue pairs") the other way round.
 */
public enum Verdict {
    REPRODUCES, DIRECTION, CONTRADICTS, NOT_RUN;

    /** Share of the paper's effect that still counts as reproduced. */
    static final double RELATIVE_TOLERANCE = 0.20;
    /** Tolerance of a value without a reference, relative to the paper's value. */
    static final double VALUE_TOLERANCE = 0.15;
    /** Factor within which a value without a reference is "the right size class". */
    static final double VALUE_FACTOR = 2.0;

    /** The name in comparison.csv and reports: reproduces, direction, contradicts, not-run. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The verdict of our mean {@code ours} (sample sd {@code sd} over {@code n} values) against the paper's
     * {@code paper}, for a cell of {@code kind} whose "no effect" reference is {@code reference} (NaN: none).
     */
    public static Verdict of(Cell.Kind kind, double reference, double ours, double sd, int n, double paper) {
        return of(kind, reference, ours, sd, n, paper, false);
    }

    /** As above; with {@code atLeast}, {@code paper} is a lower bound of ours (a paper's "at most X % worse"). */
    public static Verdict of(Cell.Kind kind, double reference, double ours, double sd, int n, double paper, boolean atLeast) {
        return of(kind, reference, ours, sd, n, paper, atLeast ? Cell.Bound.AT_LEAST : Cell.Bound.NONE);
    }

    /**
     * As above, with {@code paper} read as {@code bound}: a lower bound of ours ("at most X % worse") or an upper
     * bound ("uses at most 32 queue pairs"), either met within the same tolerance.
     */
    public static Verdict of(Cell.Kind kind, double reference, double ours, double sd, int n, double paper, Cell.Bound bound) {
        if (n == 0 || Double.isNaN(ours)) return NOT_RUN;
        double noise = n > 1 && !Double.isNaN(sd) ? 2 * sd / Math.sqrt(n) : 0;
        if (bound != Cell.Bound.NONE && !Double.isNaN(paper)) {
            double tol = (Double.isNaN(reference) ? VALUE_TOLERANCE * Math.abs(paper)
                    : Math.max(RELATIVE_TOLERANCE * Math.abs(paper - reference), floor(kind))) + noise;
            boolean met = bound == Cell.Bound.AT_LEAST ? ours >= paper - tol : ours <= paper + tol;
            return met ? REPRODUCES : CONTRADICTS;
        }
        if (Double.isNaN(paper)) {
            // a claim stated without a number ("X beats Y"): an effect the positive way, of any size, beyond floor and noise
            if (Double.isNaN(reference)) throw new IllegalArgumentException("a qualitative claim needs a reference");
            return ours - reference > Math.max(floor(kind), noise) ? REPRODUCES : CONTRADICTS;
        }
        if (Double.isNaN(reference)) {
            double tol = VALUE_TOLERANCE * Math.abs(paper) + noise;
            if (Math.abs(ours - paper) <= tol) return REPRODUCES;
            boolean sameSign = Math.signum(ours) == Math.signum(paper);
            double lo = Math.min(Math.abs(ours), Math.abs(paper)), hi = Math.max(Math.abs(ours), Math.abs(paper));
            return sameSign && hi <= VALUE_FACTOR * lo ? DIRECTION : CONTRADICTS;
        }
        double floor = floor(kind);
        double paperEffect = paper - reference, ourEffect = ours - reference;
        double tol = Math.max(RELATIVE_TOLERANCE * Math.abs(paperEffect), floor) + noise;
        if (Math.abs(ours - paper) <= tol) return REPRODUCES;
        boolean real = Math.abs(ourEffect) > Math.max(floor, noise);
        if (paperEffect != 0 && real && Math.signum(ourEffect) == Math.signum(paperEffect)) return DIRECTION;
        return CONTRADICTS;
    }

    /** The smallest effect that counts, in the cell's own unit. */
    static double floor(Cell.Kind kind) {
        return switch (kind) {
            case IMPROVEMENT -> 3.0;
            case RATIO, REDUCTION -> 0.05;
            case VALUE -> 0.03;
        };
    }

    /** The "no effect" reference of a cell on {@code metric}: see the class comment. */
    public static double reference(Cell.Kind kind, String metric) {
        return switch (kind) {
            case IMPROVEMENT -> 0;
            case RATIO, REDUCTION -> 1;
            case VALUE -> metric.equals("normalised") || metric.endsWith(".normalised") ? 1
                    : metric.contains("variance") ? 0 : Double.NaN;
        };
    }
}

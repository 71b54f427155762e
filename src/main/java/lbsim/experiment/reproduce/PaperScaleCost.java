package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a preset's paper-scale reproduction costs in CPU before it has been run: measured CPU seconds
 * of single paper-scale runs multiplied by the number of runs of the paper grid, or a total
 * estimated from such runs where the grid's points differ too much for one per-run figure, or the
 * reason no estimate exists. Once a paper-scale reproduction is stored, its own run time is what
 * {@code lbsim reproduce --list} shows.
 *
 * @param lowSeconds  CPU seconds, least; NaN when not measured
 * @param highSeconds CPU seconds, most (equal to low when one figure is known)
 * @param perRun      the seconds are per run (multiplied by the grid's runs), else for the whole grid
 * @param basis       what was measured, on which build, or why nothing was
 */
public record PaperScaleCost(double lowSeconds, double highSeconds, boolean perRun, String basis) {

    private static PaperScaleCost perRun(double low, double high, String basis) {
        return new PaperScaleCost(low, high, true, basis);
    }

    private static PaperScaleCost total(double low, double high, String basis) {
        return new PaperScaleCost(low, high, false, basis);
    }

    private static PaperScaleCost notMeasured(String why) {
        return new PaperScaleCost(Double.NaN, Double.NaN, true, why);
    }

    // the McClure presets' paper scale is 2 MB per pair on the 128-host fat-tree (§3.3); one run of a point:
    private static final PaperScaleCost MCCLURE_2MB = perRun(15, 30,
            "single paper-scale runs (2 MB per pair, one seed) took 15-30 s of CPU each on 2026-11-27");
    // every Ethereal estimate is from single runs on the paper's 256-GPU leaf-spine (commit 21f9165)
    private static final String ETHEREAL_POINTS = "single runs on the paper's 256-GPU leaf-spine at commit 21f9165: "
            + "all-to-all 4 MB 7 s of CPU, 16 MB 13 s, 256 MB 80-95 s; recursive doubling 256 MB 21-24 s";
    private static final String PARALET_POINTS = "one k = 16 ring run at 2 MiB took 21 s of CPU; scaled to 16 MiB "
            + "per pair, a ring snapshot is about 3 CPU-minutes and a double binary tree about 12";
    // presets whose paper scale is stored: their mean run time there (the stored time is what --list shows)
    private static final String STORED = "the mean run of its stored paper-scale reproduction";
    private static final PaperScaleCost CTCCL_8GB = perRun(60, 120,
            "single 8 GB runs of ctccl-fig6e took 1-2 min of CPU each on 2026-11-27 (about 2.5 GB of memory)");

    private static final Map<String, PaperScaleCost> BY_PRESET = Map.ofEntries(
            Map.entry("mcclure-table2", MCCLURE_2MB),
            Map.entry("mcclure-fig1-2", MCCLURE_2MB),
            Map.entry("mcclure-fig3", MCCLURE_2MB),
            Map.entry("mcclure-swift", MCCLURE_2MB),
            Map.entry("mcclure-fig4-5", MCCLURE_2MB),
            Map.entry("mcclure-fig8", MCCLURE_2MB),
            Map.entry("mcclure-fig6", notMeasured("not measured: its runs hold 1 to 127 concurrent 2 MB flows, so the "
                    + "per-run cost of the all-to-all points does not carry over")),
            Map.entry("mcclure-fig9-11", total(3600, 2 * 3600, "its quick runs (2 MB flows, 1 and 4 concurrent "
                    + "permutations, about 0.5 s of CPU a run) scaled by the permutation count, 1 to 64")),
            Map.entry("mcclure-fig10-12", perRun(0.24, 0.24, STORED)),
            Map.entry("ethereal-fig3", total(40 * 60, 40 * 60, ETHEREAL_POINTS + ", summed over the grid's points "
                    + "(ring and double binary tree taken as costly as recursive doubling)")),
            Map.entry("ethereal-fig7", total(20 * 60, 60 * 60, "the all-to-all column of ethereal-fig3's grid (about "
                    + "20 min) and the failure's retransmissions on top (hundreds of thousands of packets at 256 MB); "
                    + ETHEREAL_POINTS)),
            Map.entry("ethereal-fig4", total(2 * 3600, 4 * 3600, "ethereal-fig3's 40 min scaled by twice the hosts and "
                    + "five hops instead of three; one 128 MB all-to-all point on half that fabric took 315 s of CPU")),
            Map.entry("ethereal-fig5", notMeasured("not measured: one GPT-2 iteration of about 470 000 flows a run")),
            Map.entry("ethereal-fig6", notMeasured("not measured: one GPT-2 iteration of about 470 000 flows a run")),
            Map.entry("paralet-fig5", total(10 * 3600, 10 * 3600, PARALET_POINTS)),
            Map.entry("paralet-fig4", total(3 * 3600, 3 * 3600, PARALET_POINTS)),
            Map.entry("ctccl-fig6", perRun(10, 120, "from 64 MB to 8 GB; " + CTCCL_8GB.basis())),
            Map.entry("ctccl-fig6d", CTCCL_8GB),
            Map.entry("ctccl-fig6e", CTCCL_8GB),
            Map.entry("ctccl-variance", CTCCL_8GB),
            Map.entry("ctccl-fig7", perRun(240, 550, "two 8 GB runs with the failure (NCCL + ECMP, 1 ms detection, "
                    + "about 2 billion events each) took 240 and 549 s on a loaded 2-core host on 2026-11-28")),
            Map.entry("hopper-fig3", perRun(19, 19, STORED)),
            Map.entry("hopper-fig4", perRun(25, 25, STORED)),
            Map.entry("hopper-fig8", perRun(18, 18, STORED)),
            Map.entry("hopper-fig6", perRun(2.1, 2.1, STORED)));

    /** The estimate for a preset id; empty for an id without one (every registered preset has one). */
    public static Optional<PaperScaleCost> of(String presetId) {
        return Optional.ofNullable(BY_PRESET.get(presetId));
    }

    /** The ids with an estimate, for the test that every preset has one. */
    static List<String> ids() {
        return List.copyOf(BY_PRESET.keySet());
    }

    public boolean measured() {
        return !Double.isNaN(lowSeconds);
    }

    /** An estimate's duration, no finer than it is known: "50 s", "40 min", "1.3 h". */
    static String rough(double seconds) {
        if (seconds < 90) return String.format(Locale.ROOT, "%.0f s", seconds);
        if (seconds < 90 * 60) return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    /** "160 runs, about 40 min to 1.3 h of CPU (single ... took ...)", or "160 runs; not measured: ...". */
    public String describe(int runs) {
        if (!measured()) return runs + " runs; " + basis;
        double n = perRun ? runs : 1;
        String low = rough(lowSeconds * n);
        String high = rough(highSeconds * n);
        String span = low.equals(high) ? low : low + " to " + high;
        return String.format(Locale.ROOT, "%d runs, about %s of CPU (estimate: %s)", runs, span, basis);
    }
}

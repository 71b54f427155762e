package lbsim.cli;

import lbsim.BadInputException;

import java.io.PrintStream;
import java.util.Locale;
import lbsim.experiment.Runner;

/**
 * Progress of a run or a sweep: simulated time against the expected end, a bar, flows
 * done, events per wall second and an ETA. On a terminal one line on stderr redrawn in place;
 * otherwise (a batch log, a pipe) a plain line on stdout every {@link #LOG_INTERVAL_NS} of wall time, so a Slurm log
 * shows life ({@code --progress}: {@link Mode}).
 */
final class ProgressBar implements Runner.Progress {
    /** {@code --progress}: auto = a bar on a terminal, plain lines otherwise; always = the bar anyway; never = nothing. */
    enum Mode {
        AUTO, ALWAYS, NEVER;

        static Mode parse(String s) {
            for (Mode m : values()) if (m.name().equalsIgnoreCase(s)) return m;
            throw new lbsim.BadInputException("--progress " + s + ": allowed values: auto, always, never");
        }
    }

    /** Wall time between two plain progress lines in a log. */
    static final long LOG_INTERVAL_NS = 10_000_000_000L;
    static final int BAR = 20;
    static final int WIDTH = 110;
    private final PrintStream out;
    private final String label;
    private final long hintPs;
    private final long startNs = System.nanoTime();
    private long lastPrintNs = startNs;
    private final boolean lines;      // plain lines for a log instead of a bar redrawn in place
    private final long intervalNs;
    private int flowsTotal = -1;
    private boolean printed;

    ProgressBar(PrintStream out, String label, long hintPs) {
        this(out, label, hintPs, false, 500_000_000L);
    }

    ProgressBar(PrintStream out, String label, long hintPs, boolean lines, long intervalNs) {
        this.out = out;
        this.label = label;
        this.hintPs = hintPs;
        this.lines = lines;
        this.intervalNs = intervalNs;
    }

    /** A run's progress as {@code mode} says: a bar on stderr, plain lines on stdout, or nothing. */
    static Runner.Progress forRun(String label, long hintPs, Mode mode) {
        ProgressBar pb = create(label, hintPs, mode);
        return pb == null ? Runner.Progress.NONE : pb;
    }

    /** The bar on a terminal, plain lines in a log (auto), or null for none. */
    private static ProgressBar create(String label, long hintPs, Mode mode) {
        if (mode == Mode.NEVER) return null;
        boolean terminal = System.console() != null;
        if (terminal || mode == Mode.ALWAYS) return new ProgressBar(System.err, label, hintPs);
        // on stdout, beside the run's own summary, so `lbsim run ... > log` captures them
        return new ProgressBar(System.out, label, hintPs, true, LOG_INTERVAL_NS);
    }

    /** The bar on a terminal and nothing otherwise: for bench, whose stdout is the measurement. */
    static Runner.Progress forTerminal(String label) {
        return System.console() == null ? Runner.Progress.NONE : new ProgressBar(System.err, label, 0);
    }

    @Override
    public void update(long simPs, long limitPs, long events, int flowsLeft) {
        if (flowsTotal < flowsLeft) flowsTotal = flowsLeft; // the first report sees every flow undelivered
        long now = System.nanoTime();
        if (now - lastPrintNs < intervalNs) return;
        lastPrintNs = now;
        int done = flowsTotal - flowsLeft;
        long expected = expectedEndPs(simPs, limitPs, done, flowsTotal, hintPs);
        String line = format(label, simPs, expected, limitPs, events, done, flowsTotal, (now - startNs) / 1e9);
        if (lines) {
            out.println("lbsim: progress: " + line.strip());
        } else {
            out.print("\r" + line);
            printed = true;
        }
    }

    /**
     * The simulated time at which the run should end: the hint if it is still ahead, else the
     * time so far scaled by the fraction of flows delivered, never beyond the limit.
     */
    static long expectedEndPs(long simPs, long limitPs, int flowsDone, int flowsTotal, long hintPs) {
        long e;
        if (hintPs > simPs) e = hintPs;
        else if (flowsDone > 0 && flowsTotal > 0) e = (long) (simPs * (flowsTotal / (double) flowsDone));
        else e = limitPs;
        return Math.max(simPs, Math.min(limitPs, e));
    }

    /** The line without the leading carriage return, padded to a fixed width so a shorter line overwrites a longer one. */
    static String format(String label, long simPs, long expectedPs, long limitPs, long events, int flowsDone, int flowsTotal,
                         double wallS) {
        double frac = expectedPs > 0 ? Math.min(1, simPs / (double) expectedPs) : 0;
        int fill = (int) Math.round(frac * BAR);
        String bar = "#".repeat(fill) + ".".repeat(BAR - fill);
        String eta = "--:--";
        boolean unknown = expectedPs >= limitPs && simPs < limitPs; // only the limit to go by: no honest ETA
        if (wallS > 0 && simPs > 0 && !unknown) eta = clock((expectedPs - simPs) / (simPs / wallS));
        String s = String.format(Locale.ROOT, "%s sim %s/%s%s [%s] %3.0f%%  flows %d/%d  %.2f M ev/s  ETA %s", label,
                time(simPs), expectedPs >= limitPs ? "limit " : "~", time(expectedPs), bar, frac * 100, flowsDone, flowsTotal,
                wallS > 0 ? events / wallS / 1e6 : 0.0, eta);
        return s.length() >= WIDTH ? s : s + " ".repeat(WIDTH - s.length());
    }

    /** Simulated time with a unit: "850 ns", "12.5 us", "3.20 ms". */
    static String time(long ps) {
        if (ps < 1_000_000L) return String.format(Locale.ROOT, "%d ns", ps / 1000);
        if (ps < 1_000_000_000L) return String.format(Locale.ROOT, "%.1f us", ps / 1e6);
        return String.format(Locale.ROOT, "%.2f ms", ps / 1e9);
    }

    /** Wall seconds as m:ss or h:mm:ss. */
    static String clock(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        if (s >= 3600) return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** Runs done out of total with an ETA, for sweeps, as {@code mode} says; null for none. */
    static ProgressBar forRuns(String label, Mode mode) {
        return create(label, 0, mode);
    }

    /** Sweep progress: runs done of total, wall time so far and an ETA from the runs finished in this invocation. */
    synchronized void runsDone(int done, int total) {
        long now = System.nanoTime();
        if (doneAtStart < 0) doneAtStart = done; // the first report is the count before this invocation ran anything
        // the bar always shows the final count; a log gets it only after earlier lines (a short run stays silent)
        boolean finalCount = done >= total && (!lines || linesPrinted > 0);
        if (!finalCount && now - lastPrintNs < intervalNs) return;
        lastPrintNs = now;
        double wall = (now - startNs) / 1e9;
        int fresh = done - doneAtStart;
        String eta = fresh <= 0 ? "--:--" : clock(wall / fresh * (total - done));
        String line = String.format(Locale.ROOT, "%s runs %d/%d, %s elapsed, ETA %s", label, done, total, clock(wall), eta);
        if (lines) {
            out.println("lbsim: progress: " + line);
            linesPrinted++;
        } else {
            out.print("\r" + line + "   ");
            printed = true;
        }
    }

    private int doneAtStart = -1;
    private int linesPrinted;

    void clear() {
        if (printed) out.print("\r" + " ".repeat(WIDTH) + "\r");
    }
}

package lbsim.cli;

import java.io.PrintStream;
import java.util.Locale;
import lbsim.experiment.Runner;

/**
 * A one-line progress report on a terminal: simulated time against the expected end, a bar,
 * flows done, events per wall second and an ETA. Silent when the output is not a terminal
 * ({@code System.console() == null}), so logs and pipes stay clean.
 */
final class ProgressBar implements Runner.Progress {
    static final int BAR = 20;
    static final int WIDTH = 110;
    private final PrintStream out;
    private final String label;
    private final long hintPs;
    private final long startNs = System.nanoTime();
    private long lastPrintNs = startNs;
    private int flowsTotal = -1;
    private boolean printed;

    ProgressBar(PrintStream out, String label, long hintPs) {
        this.out = out;
        this.label = label;
        this.hintPs = hintPs;
    }

    static Runner.Progress forTerminal(String label) {
        return forTerminal(label, 0);
    }

    /** {@code hintPs}: the simulated time the run is expected to need (e.g. a previous scheme's), 0 if unknown. */
    static Runner.Progress forTerminal(String label, long hintPs) {
        if (System.console() == null) return Runner.Progress.NONE;
        return new ProgressBar(System.err, label, hintPs);
    }

    @Override
    public void update(long simPs, long limitPs, long events, int flowsLeft) {
        if (flowsTotal < flowsLeft) flowsTotal = flowsLeft; // the first report sees every flow undelivered
        long now = System.nanoTime();
        if (now - lastPrintNs < 500_000_000L) return;
        lastPrintNs = now;
        int done = flowsTotal - flowsLeft;
        long expected = expectedEndPs(simPs, limitPs, done, flowsTotal, hintPs);
        out.print("\r" + format(label, simPs, expected, limitPs, events, done, flowsTotal, (now - startNs) / 1e9));
        printed = true;
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

    /** Runs done out of total with an ETA, for sweeps; null when not on a terminal. */
    static ProgressBar forRuns(String label) {
        if (System.console() == null) return null;
        return new ProgressBar(System.err, label, 0);
    }

    /** Sweep progress: runs done of total, wall time so far and an ETA from the runs finished in this invocation. */
    synchronized void runsDone(int done, int total) {
        long now = System.nanoTime();
        if (done < total && now - lastPrintNs < 500_000_000L) return;
        lastPrintNs = now;
        if (doneAtStart < 0) doneAtStart = done;
        double wall = (now - startNs) / 1e9;
        int fresh = done - doneAtStart;
        String eta = fresh <= 0 ? "--:--" : clock(wall / fresh * (total - done));
        out.printf(Locale.ROOT, "\r%s runs %d/%d, %s elapsed, ETA %s   ", label, done, total, clock(wall), eta);
        printed = true;
    }

    private int doneAtStart = -1;

    void clear() {
        if (printed) out.print("\r" + " ".repeat(WIDTH) + "\r");
    }
}

package lbsim.cli;

import java.io.PrintStream;
import lbsim.experiment.Runner;

/** A one-line progress report on a terminal (simulated time, events/s); silent otherwise. */
final class ProgressBar implements Runner.Progress {
    private final PrintStream out;
    private final long startNs = System.nanoTime();
    private long lastPrintNs = startNs;
    private boolean printed;

    private ProgressBar(PrintStream out) {
        this.out = out;
    }

    static Runner.Progress forTerminal(String label) {
        if (System.console() == null) return Runner.Progress.NONE;
        ProgressBar p = new ProgressBar(System.err);
        p.label = label;
        return p;
    }

    private String label = "";

    @Override
    public void update(long simPs, long limitPs, long events, int flowsLeft) {
        long now = System.nanoTime();
        if (now - lastPrintNs < 500_000_000L) return;
        lastPrintNs = now;
        double wall = (now - startNs) / 1e9;
        out.printf("\r%s sim %.1f us (limit %.0f us), %d flows left, %.1f M events/s   ", label, simPs / 1e6, limitPs / 1e6,
                flowsLeft, events / wall / 1e6);
        printed = true;
    }

    /** Runs done out of total with an ETA, for sweeps; null when not on a terminal. */
    static ProgressBar forRuns(String label) {
        if (System.console() == null) return null;
        ProgressBar p = new ProgressBar(System.err);
        p.label = label;
        return p;
    }

    synchronized void runsDone(int done, int total) {
        long now = System.nanoTime();
        if (done < total && now - lastPrintNs < 500_000_000L) return;
        lastPrintNs = now;
        if (doneAtStart < 0) doneAtStart = done;
        double wall = (now - startNs) / 1e9;
        int fresh = done - doneAtStart;
        String eta = fresh <= 0 ? "?" : String.format("%.0f s", wall / fresh * (total - done));
        out.printf("\r%s runs %d/%d, %.0f s elapsed, ETA %s   ", label, done, total, wall, eta);
        printed = true;
    }

    private int doneAtStart = -1;

    void clear() {
        if (printed) out.print("\r" + " ".repeat(100) + "\r");
    }
}

package dev.consistentcut.bench;

import java.io.PrintStream;
import java.time.Duration;

/**
 * The progress line: which step of how many, the time spent and a rough time left, and what the
 * current step is doing. On a terminal it rewrites one line; otherwise (a log, CI) it prints a
 * line per change of step and at most one every five seconds within a step.
 * Thread-safe (synchronized): the benchmark thread and a ticker may both update it.
 */
public final class Progress {

    private final PrintStream out;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private final int totalSteps;
    private final Duration plannedTotal;
    private int step;
    private String label = "";
    private long lastPrintNanos;
    private int lastPrintedStep = -1;

    /**
     * @param totalSteps how many steps the run has
     * @param plannedTotal the run's planned duration, for the time-left estimate
     */
    public Progress(PrintStream out, boolean terminal, int totalSteps, Duration plannedTotal) {
        this.out = out;
        this.terminal = terminal;
        this.totalSteps = totalSteps;
        this.plannedTotal = plannedTotal;
    }

    /** Starts step {@code label} (steps count from 1). */
    public synchronized void step(String label) {
        step++;
        this.label = label;
        print("");
    }

    /** Updates what the current step is doing. */
    public synchronized void detail(String detail) {
        print(detail);
    }

    /** Ends the progress line (a newline on a terminal). */
    public synchronized void done() {
        if (terminal) {
            out.println();
        }
        out.printf("done: %d steps in %s%n", step, format(elapsed()));
        out.flush();
    }

    /** Prints a line of its own (a finding, a warning) without breaking the progress line. */
    public synchronized void note(String line) {
        if (terminal) {
            out.print("\r\033[K");
        }
        out.println(line);
        out.flush();
    }

    private void print(String detail) {
        long now = System.nanoTime();
        if (!terminal && step == lastPrintedStep && now - lastPrintNanos < 5_000_000_000L) {
            return;
        }
        lastPrintNanos = now;
        lastPrintedStep = step;
        Duration elapsed = elapsed();
        Duration left = plannedTotal.minus(elapsed);
        String line = String.format("[%d/%d %s elapsed, ~%s left] %s%s",
                step, totalSteps, format(elapsed), left.isNegative() ? "0:00" : format(left),
                label, detail.isEmpty() ? "" : ": " + detail);
        if (terminal) {
            out.print("\r\033[K" + line);
        } else {
            out.println(line);
        }
        out.flush();
    }

    private Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    static String format(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return String.format("%d:%02d", s / 60, s % 60);
    }
}

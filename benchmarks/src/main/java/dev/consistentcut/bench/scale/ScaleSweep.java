package dev.consistentcut.bench.scale;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs the plan: per point a fresh checkpoint directory, {@code run --mode unaligned --records n
 * --checkpoint-dir D} (plus the series' options), then {@code inspect D --json}, one progress line
 * on stderr per run. A run that exits non-zero or whose verdict is not exactly-once stops the
 * sweep with a {@link Failure}: a figure from a wrong run is not a figure. A good run's directory
 * is deleted; a failed one's is kept for a look. Used from one thread.
 */
public final class ScaleSweep {

    /** A run that does not count: non-zero exit, a verdict other than exactly-once, unreadable output. */
    public static final class Failure extends Exception {
        Failure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Launcher launcher;
    private final Path workRoot;
    private final PrintStream progress;

    public ScaleSweep(Launcher launcher, Path workRoot, PrintStream progress) {
        this.launcher = launcher;
        this.workRoot = workRoot;
        this.progress = progress;
    }

    public List<ScaleRun> run(ScalePlan plan) throws Failure, IOException, InterruptedException {
        List<Point> points = plan.points();
        List<ScaleRun> runs = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            int repeat = (int) runs.stream().filter(r -> r.point().equals(p)).count() + 1;
            ScaleRun r = runOne(p, repeat, workRoot.resolve(String.format(Locale.ROOT, "run-%03d", i + 1)));
            runs.add(r);
            progress.printf(Locale.ROOT, "[%d/%d %.0f s] %s, repeat %d: wall %.1f s, %.2f us/record, %d checkpoints,"
                    + " max %.1f ms, last checkpoint wrote %,d bytes, %s%n", i + 1, points.size(),
                    (System.nanoTime() - start) / 1e9, p.label(), repeat, r.wallMs() / 1000, r.timePerRecordUs(),
                    r.checkpoints(), r.durationMaxMs(), r.lastBytes(), r.verdict());
            progress.flush();
        }
        return runs;
    }

    private ScaleRun runOne(Point p, int repeat, Path work) throws Failure, IOException, InterruptedException {
        Files.createDirectories(work);
        Path dir = work.resolve("checkpoints");
        List<String> args = new ArrayList<>(List.of("run", "--mode", "unaligned", "--records", Integer.toString(p.records()),
                "--checkpoint-dir", dir.toString()));
        args.addAll(p.runOptions());
        Launcher.Launched run = launcher.launch(args, work);
        String what = p.label() + ", repeat " + repeat + " (files kept in " + work + ")";
        RunOutput output;
        try {
            output = RunOutput.parse(run.stdout());
        } catch (IllegalArgumentException e) {
            throw new Failure(what + ": exit code " + run.exitCode() + ", " + e.getMessage() + "; stderr: " + tail(run.stderr()), e);
        }
        if (run.exitCode() != 0 || !output.exactlyOnce()) {
            throw new Failure(what + ": exit code " + run.exitCode() + ", verdict '" + output.verdict()
                    + "' (every run must exit 0 with '" + RunOutput.EXACTLY_ONCE + "')", null);
        }
        Launcher.Launched inspect = launcher.launch(List.of("inspect", dir.toString(), "--json"), work);
        InspectOutput written;
        try {
            if (inspect.exitCode() != 0) {
                throw new IllegalArgumentException("inspect exited " + inspect.exitCode() + ": " + tail(inspect.stderr()));
            }
            written = InspectOutput.parse(inspect.stdout());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new Failure(what + ": " + e.getMessage(), e);
        }
        deleteTree(work);
        return ScaleRun.of(p, repeat, run, output, written);
    }

    private static String tail(String text) {
        return text.length() <= 2000 ? text : "..." + text.substring(text.length() - 2000);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}

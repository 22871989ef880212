package dev.consistentcut.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redraws {@code DIR/checkpoints.png} from {@code DIR/results.csv} without measuring anything
 * ({@code ./benchmark.sh --chart-only [DIR]}): a measured run takes 20 minutes or more of a quiet
 * machine, a change to the chart's layout should not. The subtitle comes from the same run's
 * {@code results.md} (its heading and machine line), as the run itself wrote it.
 */
public final class ChartOnly {

    static final String USAGE = """
            Usage: ChartOnly [DIR] [--debug]

              DIR      a results directory (default benchmarks/results): reads DIR/results.csv and,
                       for the subtitle, DIR/results.md; rewrites DIR/checkpoints.png
              --debug  stack traces with errors
            Exit: 0 written, 2 bad arguments, 3 a file missing, unreadable or not a results file.
            """;

    private static final Pattern MACHINE = Pattern.compile("^Machine: (.+?), (\\d+) cores,");

    private ChartOnly() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs with {@code args}; returns the exit code (0 written, 2 bad arguments, 3 I/O or a garbled file). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean debug = false;
        Path dir = null;
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                out.print(USAGE);
                return 0;
            } else if (a.equals("--debug")) {
                debug = true;
            } else if (a.startsWith("-")) {
                return usage(err, "unknown argument '" + a + "'");
            } else if (dir != null) {
                return usage(err, "one directory only, got '" + dir + "' and '" + a + "'");
            } else {
                dir = Path.of(a);
            }
        }
        if (dir == null) {
            dir = Path.of("benchmarks", "results");
        }
        Path csv = dir.resolve("results.csv");
        Path png = dir.resolve("checkpoints.png");
        try {
            if (!Files.isDirectory(dir)) {
                throw new NoSuchFileException(dir.toString());
            }
            List<ResultsCsv.Row> rows = ResultsCsv.read(csv);
            Optional<String> fromReport = subtitle(dir.resolve("results.md"));
            String subtitle = fromReport.orElseGet(() -> "Redrawn from results.csv of " + modified(csv));
            if (fromReport.isEmpty()) {
                err.println("chart: " + dir.resolve("results.md") + " has no '### ' heading and 'Machine: ' line;"
                        + " subtitle: " + subtitle);
            }
            Chart.writeRows(rows, subtitle, png);
            out.println("Wrote " + png + " from " + csv + " (" + rows.size() + " rows)");
            return 0;
        } catch (NoSuchFileException e) {
            return fail(err, e.getMessage() + ": no such file or directory", e, debug);
        } catch (ResultsCsv.FormatException e) {
            return fail(err, e.getMessage(), e, debug);
        } catch (IOException e) {
            return fail(err, "cannot read or write in " + dir + ": " + e, e, debug);
        } catch (RuntimeException e) {
            return fail(err, "internal error: " + e + (debug ? "" : " (--debug shows the stack trace)"), e, debug);
        }
    }

    /**
     * "Full run, 2026-12-02, AMD EPYC, 2 cores": the report's heading and the start of its machine
     * line, the subtitle the run itself gave the chart; empty without a report or those lines.
     */
    static Optional<String> subtitle(Path md) throws IOException {
        if (!Files.isRegularFile(md)) {
            return Optional.empty();
        }
        String title = null;
        for (String line : Files.readAllLines(md)) {
            if (title == null && line.startsWith("### ")) {
                title = line.substring(4).trim();
            }
            Matcher m = MACHINE.matcher(line);
            if (title != null && m.find()) {
                return Optional.of(title + ", " + m.group(1) + ", " + m.group(2) + " cores");
            }
        }
        return Optional.empty();
    }

    private static LocalDate modified(Path file) {
        try {
            return LocalDate.ofInstant(Files.getLastModifiedTime(file).toInstant(), ZoneId.systemDefault());
        } catch (IOException e) {
            return LocalDate.now();
        }
    }

    private static int usage(PrintStream err, String message) {
        err.println("chart: " + message);
        err.print(USAGE);
        return 2;
    }

    private static int fail(PrintStream err, String message, Throwable e, boolean debug) {
        err.println("chart: " + message);
        if (debug) {
            e.printStackTrace(err);
        }
        return 3;
    }
}

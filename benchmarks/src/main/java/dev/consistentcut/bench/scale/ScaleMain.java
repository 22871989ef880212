package dev.consistentcut.bench.scale;

import dev.consistentcut.bench.Machine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./benchmark.sh --scale}: runs the sweep ({@link ScalePlan}) and writes scale.csv, scale.md
 * and scale.png into the output directory. Exit 0 when every run exited 0 with the exactly-once
 * verdict, 1 when one did not (nothing is written then), 2 for bad arguments. Runs on the main
 * thread.
 */
public final class ScaleMain {

    /** The sweep's options, as benchmark.sh passes them. */
    record Options(Path toolsJar, Path out, Path work, int maxRecords, int repeats, String heap) {

        static Options parse(String[] args) {
            Path jar = null;
            Path out = Path.of("benchmarks/results/scale");
            Path work = null;
            int max = 2_000_000;
            int repeats = 3;
            String heap = "3g";
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--tools-jar" -> jar = Path.of(v);
                    case "--out" -> out = Path.of(v);
                    case "--work" -> work = Path.of(v);
                    case "--max-records" -> max = integer(a, v);
                    case "--repeats" -> repeats = integer(a, v);
                    case "--heap" -> heap = v;
                    default -> throw new IllegalArgumentException("unknown argument " + a);
                }
            }
            if (jar == null || work == null) {
                throw new IllegalArgumentException("--tools-jar and --work are required");
            }
            return new Options(jar, out, work, max, repeats, heap);
        }

        private static int integer(String option, String value) {
            try {
                return Integer.parseInt(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a whole number, got '" + value + "'");
            }
        }
    }

    private ScaleMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options o;
        try {
            o = Options.parse(args);
            new ScalePlan(o.maxRecords(), o.repeats());
        } catch (IllegalArgumentException e) {
            System.err.println("scale benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(o, new ProcessLauncher(o.toolsJar(), o.heap()), System.err));
    }

    /** Runs the sweep with {@code launcher} and writes the results; the exit code. */
    static int run(Options o, Launcher launcher, PrintStream err) throws IOException, InterruptedException {
        ScalePlan plan = new ScalePlan(o.maxRecords(), o.repeats());
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        double loadBefore = Machine.loadAverage();
        List<ScaleRun> runs;
        try {
            runs = new ScaleSweep(launcher, o.work(), err).run(plan);
        } catch (ScaleSweep.Failure e) {
            err.println("scale benchmark: FAILED: " + e.getMessage());
            return 1;
        }
        Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ScaleSummary summary = ScaleSummary.of(runs);
        Machine m = Machine.current();
        List<String> header = List.of(
                "Machine: " + m.describe() + ".",
                String.format(Locale.ROOT, "Run %s to %s; one-minute load average %.2f at the start, %.2f at the end.",
                        start, end, loadBefore, Machine.loadAverage()),
                String.format(Locale.ROOT, "Each run a fresh JVM (`java -Xmx%s -jar tools.jar run --mode unaligned --records N"
                        + " --checkpoint-dir <new directory>`, plus `--sink-delay-us 0` without a sink delay), then"
                        + " `inspect <directory> --json`; %d repeat(s), records per source up to %,d; every run exited 0"
                        + " with the exactly-once verdict.", o.heap(), o.repeats(), o.maxRecords()));
        Files.createDirectories(o.out());
        Files.writeString(o.out().resolve("scale.csv"), ScaleRun.csv(runs));
        Files.writeString(o.out().resolve("scale.md"), ScaleReport.markdown(summary, header));
        ScaleChart.write(summary, m.describe(), o.out().resolve("scale.png"));
        err.println("scale benchmark: " + runs.size() + " runs; results in " + o.out());
        return 0;
    }
}

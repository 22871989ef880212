package dev.consistentcut.bench;

import dev.consistentcut.bench.engine.ReferenceBenchmark;
import dev.consistentcut.bench.engine.ReferenceCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./benchmark.sh --overhead CELLS}: the full run's checkpoint-overhead A/B ({@link
 * OverheadRun}, 3 s windows after 1 s, or longer windows) for the named cells alone, e.g. to decide
 * a cell the full run left undecided with more pairs. A cell is {@code even|skew}/{@code aligned|unaligned}; its
 * bootstrap seed is the one the full run gives it, so the same pairs give the same interval. With
 * {@code --forks F} the cells run in F fresh JVMs and the interval resamples the JVMs too ({@link
 * #runForks}).
 * Writes overhead.csv and overhead.md. Exit 0 when every cell ran, 2 for bad arguments, 3 when
 * the results cannot be written, 1 when a run failed.
 */
public final class OverheadMain {

    static final String USAGE = """
            Usage: OverheadMain --cells LIST [--ab-pairs N] [--ab-max-pairs M | --forks F] [--window S] [--out DIR]
              --cells LIST      comma-separated cells: even/aligned, even/unaligned, skew/aligned, skew/unaligned
              --ab-pairs N      pairs always run per cell (default 10)
              --ab-max-pairs M  while a cell is undecided, two more at a time up to M (default 40)
              --forks F         run the cells in F fresh JVMs one after another, --ab-pairs pairs per cell in
                                each, no more while undecided; the interval then resamples the JVMs too
              --window S        each run's measurement window in seconds (default 3, the full run's)
              --out DIR         where overhead.csv and overhead.md go (default benchmarks/results/overhead)
            """;

    /** The full run's cells in its order: the index gives the bootstrap seed (16 + index). */
    static final List<String> CELLS = List.of("even/aligned", "even/unaligned", "skew/aligned", "skew/unaligned");

    record Options(List<String> cells, int minPairs, int maxPairs, Duration window, Path out, int forks) {
    }

    public static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("overhead: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (o == null) {
            System.out.print(USAGE);
            System.exit(0);
            return;
        }
        try {
            System.exit(run(o));
        } catch (IOException e) {
            System.err.println("overhead: cannot write the results: " + e.getMessage());
            System.exit(3);
        } catch (Exception e) {
            System.err.println("overhead: " + e.getMessage());
            System.exit(1);
        }
    }

    /** The options, or null for --help. */
    static Options parse(String[] args) {
        List<String> cells = new ArrayList<>();
        int min = 10;
        int max = 40;
        Duration window = OverheadRun.FULL_WINDOW;
        Path out = Path.of("benchmarks/results/overhead");
        int forks = 1;
        boolean maxGiven = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--cells" -> {
                    for (String c : BenchmarkMain.value(args, ++i, "--cells").split(",")) {
                        if (!CELLS.contains(c)) {
                            throw new IllegalArgumentException("--cells: unknown cell '" + c + "', expected one of " + CELLS);
                        }
                        cells.add(c);
                    }
                }
                case "--ab-pairs" -> min = BenchmarkMain.count(args, ++i, "--ab-pairs");
                case "--ab-max-pairs" -> {
                    max = BenchmarkMain.count(args, ++i, "--ab-max-pairs");
                    maxGiven = true;
                }
                case "--forks" -> forks = BenchmarkMain.count(args, ++i, "--forks");
                case "--window" -> window = Duration.ofSeconds(BenchmarkMain.count(args, ++i, "--window"));
                case "--out" -> out = Path.of(BenchmarkMain.value(args, ++i, "--out"));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        if (window.isZero()) {
            throw new IllegalArgumentException("--window: needs at least 1 second");
        }
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("--cells is required");
        }
        if (forks < 1) {
            throw new IllegalArgumentException("--forks: needs at least 1 JVM");
        }
        if (forks > 1) {
            if (maxGiven) {
                throw new IllegalArgumentException("--ab-max-pairs does not go with --forks: each fork runs --ab-pairs pairs per cell");
            }
            max = min;
        }
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("need 1 <= --ab-pairs <= --ab-max-pairs, got " + min + " and " + max);
        }
        return new Options(List.copyOf(cells), min, max, window, out, forks);
    }

    static int run(Options o) throws Exception {
        if (o.forks() > 1) {
            return runForks(o);
        }
        Duration warmup = OverheadRun.FULL_WARMUP;
        Duration window = o.window();
        Progress progress = new Progress(System.err, System.console() != null, 1 + o.cells().size() * (o.minPairs() + OverheadRun.WARMUP_PAIRS) * 2,
                warmup.plus(window).plusSeconds(1).multipliedBy(2L * o.cells().size() * (o.minPairs() + OverheadRun.WARMUP_PAIRS)));
        Machine machine = Machine.current();
        double loadAtStart = Machine.loadAverage();
        Path tmp = Files.createTempDirectory("consistent-cut-overhead");
        ReferenceBenchmark engine = new ReferenceBenchmark(ReferenceCalibration.storeFactory(tmp.resolve("reference")));
        progress.step("warm-up run (discarded)");
        engine.run(new Scenario(Backpressure.NONE, true, Mode.ALIGNED), warmup, BenchmarkMain.WARM_UP_WINDOW, progress);
        OverheadRun ab = new OverheadRun(engine, warmup, window, o.minPairs(), o.maxPairs());
        List<OverheadAB.Result> results = new ArrayList<>();
        for (String c : o.cells()) {
            String[] parts = c.split("/");
            OverheadAB.Result r = ab.cell(parts[0].equals("skew"), parts[1].equals("aligned") ? Mode.ALIGNED : Mode.UNALIGNED,
                    16 + CELLS.indexOf(c), progress);
            results.add(r);
            progress.note(r.describe());
        }
        progress.done();
        clearForks(o.out()); // these pairs are from this JVM alone: another run's forks would mislead
        write(o, results, machine, loadAtStart);
        return 0;
    }

    /**
     * {@code --forks F}: each fork a fresh JVM on this one's class path running every cell with
     * {@code --ab-pairs} pairs (no more while undecided) into a folder of its own, one after
     * another so that no two share the cores; then every cell analysed over its forks' pairs
     * ({@link OverheadAB#analyseForks}). Each fork's pairs are kept as {@code forks/fork-K.csv}.
     * A fork that fails ends the run with its exit code (1 a failed run, 3 an I/O problem).
     */
    static int runForks(Options o) throws Exception {
        Machine machine = Machine.current();
        double loadAtStart = Machine.loadAverage();
        Path work = Files.createTempDirectory("consistent-cut-overhead-forks");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, List<List<OverheadAB.Pair>>> byCell = new LinkedHashMap<>();
        o.cells().forEach(c -> byCell.put(c, new ArrayList<>()));
        List<String> csvs = new ArrayList<>();
        for (int k = 1; k <= o.forks(); k++) {
            System.err.printf(Locale.ROOT, "overhead: fork %d of %d, a fresh JVM: %d pairs per cell%n", k, o.forks(), o.minPairs());
            Path out = work.resolve("fork-" + k);
            List<String> command = List.of(java, "-Xmx2g", "-Djava.awt.headless=true", "-cp",
                    System.getProperty("java.class.path"), OverheadMain.class.getName(), "--cells", String.join(",", o.cells()),
                    "--ab-pairs", Integer.toString(o.minPairs()), "--ab-max-pairs", Integer.toString(o.minPairs()),
                    "--window", Long.toString(o.window().toSeconds()), "--out", out.toString());
            Process fork = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            int rc = fork.waitFor();
            if (rc != 0) {
                System.err.printf(Locale.ROOT, "overhead: fork %d of %d exited with %d; its files are in %s%n", k, o.forks(), rc, out);
                return rc == 3 ? 3 : 1;
            }
            String csv = Files.readString(out.resolve("overhead.csv"));
            csvs.add(csv);
            for (String c : o.cells()) {
                List<OverheadAB.Pair> pairs = OverheadAB.pairsOf(csv, cellLabel(c));
                if (pairs.isEmpty()) {
                    System.err.printf(Locale.ROOT, "overhead: fork %d of %d wrote no pair of %s; its files are in %s%n", k, o.forks(), c, out);
                    return 1;
                }
                byCell.get(c).add(pairs);
            }
        }
        List<OverheadAB.Result> results = new ArrayList<>();
        for (String c : o.cells()) {
            OverheadAB.Result r = OverheadAB.analyseForks(cellLabel(c), byCell.get(c), 16 + CELLS.indexOf(c));
            results.add(r);
            System.err.println("overhead: " + r.describe());
        }
        Path forksDir = clearForks(o.out()); // a run with fewer forks must not leave another run's behind
        Files.createDirectories(forksDir);
        for (int k = 1; k <= csvs.size(); k++) {
            Files.writeString(forksDir.resolve("fork-" + k + ".csv"), csvs.get(k - 1));
        }
        write(o, results, machine, loadAtStart);
        return 0;
    }

    /** Deletes {@code out/forks/fork-K.csv} files of an earlier run; returns that folder. */
    private static Path clearForks(Path out) throws IOException {
        Path forksDir = out.resolve("forks");
        if (Files.isDirectory(forksDir)) {
            try (var old = Files.list(forksDir)) {
                for (Path f : (Iterable<Path>) old::iterator) {
                    Files.delete(f);
                }
            }
        }
        return forksDir;
    }

    /** "even/aligned" as the results name it: "even aligned". */
    static String cellLabel(String cell) {
        return cell.replace('/', ' ');
    }

    private static void write(Options o, List<OverheadAB.Result> results, Machine machine, double loadAtStart)
            throws IOException {
        Files.createDirectories(o.out());
        Files.writeString(o.out().resolve("overhead.csv"), OverheadAB.csv(results));
        String md = "### Checkpoint overhead, " + LocalDate.now() + "\n\nMachine: " + machine.describe()
                + String.format(Locale.ROOT, ". One-minute load average %s at the start and %s at the end.%n%n",
                        Report.formatNumber(loadAtStart), Report.formatNumber(Machine.loadAverage()))
                + OverheadAB.markdown(results, (int) o.window().toMillis());
        Files.writeString(o.out().resolve("overhead.md"), md);
        System.out.println(md);
        System.err.println("overhead: wrote " + o.out().resolve("overhead.csv") + " and " + o.out().resolve("overhead.md"));
    }
}

package dev.consistentcut.bench;

import dev.consistentcut.bench.engine.ReferenceBenchmark;
import dev.consistentcut.bench.engine.ReferenceCalibration;
import dev.consistentcut.bench.flink.FlinkBenchmark;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.bench.flink.FlinkCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The macro benchmark: calibrates the predictions, runs every scenario of the plan on the
 * reference engine and then on Flink (interleaved, so both meet the same machine conditions),
 * and writes {@code results.csv}, {@code results.md} and {@code checkpoints.png}. Run by
 * {@code ./benchmark.sh}; {@code --help} lists the options.
 */
public final class BenchmarkMain {

    /**
     * Whether {@code s} also runs on the engine handing objects over and on Flink with object
     * reuse: only where throughput is the figure (no backpressure, no checkpoints), in the same
     * rounds as the other engines.
     */
    static boolean reuseCell(Scenario s) {
        return s.backpressure() == Backpressure.NONE && s.mode() == Mode.NONE;
    }

    /** The window of each engine's discarded first run, the JIT's warm-up. */
    static final Duration WARM_UP_WINDOW = Duration.ofSeconds(3);


    static final String USAGE = """
            Usage: BenchmarkMain [--quick] [--out DIR] [--micro-csv FILE] [--engines reference,flink] [--only TEXT] [--ab-pairs N] [--ab-max-pairs M]

              --quick           the skewed half of the grid, short windows (about 2 minutes)
              --out DIR         where results.csv, results.md and checkpoints.png go (default benchmarks/results)
              --micro-csv FILE  JMH's CSV (-rf csv) to include in the Markdown table
              --engines LIST    run only these engines (default both; the ratio table needs both)
              --only TEXT       run only the scenarios whose name contains TEXT, e.g. heavy/skew;
                                a comma-separated list runs those matching any (heavy/,none/even/)
              --ab-pairs N      A/B pairs per cell of the checkpoint-overhead measurement (default 10; 0: skip it)
              --ab-max-pairs M  while a cell is undecided after N pairs, two more at a time up to M (default 20)
            """;

    /** Parsed command line. */
    record Options(boolean quick, Path out, Path microCsv, List<String> engines, String only, int abPairs, int abMaxPairs) {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs with {@code args}; returns the exit code (0 done, 1 failed, 2 bad arguments). */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("benchmark: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        if (options == null) {
            out.print(USAGE);
            return 0;
        }
        new BenchmarkMain().execute(options, out, err);
        return 0;
    }

    static Options parse(String[] args) {
        boolean quick = false;
        Path out = Path.of("benchmarks", "results");
        Path micro = null;
        List<String> engines = List.of(ScenarioRun.REFERENCE, ScenarioRun.FLINK);
        String only = "";
        int abPairs = 10;
        int abMaxPairs = 20;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--micro-csv" -> micro = Path.of(value(args, ++i, a));
                case "--only" -> only = value(args, ++i, a);
                case "--ab-pairs" -> abPairs = count(args, ++i, a);
                case "--ab-max-pairs" -> abMaxPairs = count(args, ++i, a);
                case "--engines" -> {
                    engines = List.of(value(args, ++i, a).split(","));
                    for (String e : engines) {
                        if (!e.equals(ScenarioRun.REFERENCE) && !e.equals(ScenarioRun.FLINK)) {
                            throw new IllegalArgumentException("--engines: unknown engine '" + e + "', expected reference or flink");
                        }
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        if (abMaxPairs < abPairs) {
            throw new IllegalArgumentException("--ab-max-pairs (" + abMaxPairs + ") must be at least --ab-pairs (" + abPairs + ")");
        }
        return new Options(quick, out, micro, engines, only, abPairs, abMaxPairs);
    }

    /** The whole number 0..1000 at {@code args[i]}, the value of {@code option}. */
    static int count(String[] args, int i, String option) {
        String v = value(args, i, option);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": not a number: '" + v + "'");
        }
        if (n < 0 || n > 1000) {
            throw new IllegalArgumentException(option + ": must be 0..1000, got " + n);
        }
        return n;
    }

    static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private void execute(Options options, PrintStream out, PrintStream err) throws Exception {
        RunPlan fullGrid = options.quick() ? RunPlan.quickPlan() : RunPlan.fullPlan();
        List<String> wanted = List.of(options.only().split(",", -1));
        List<Scenario> scenarios = fullGrid.scenarios().stream()
                .filter(s -> wanted.stream().anyMatch(w -> s.name().contains(w))).toList();
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("--only '" + options.only() + "' matches no scenario of the plan");
        }
        RunPlan plan = fullGrid.only(scenarios);
        List<Scenario> schedule = plan.schedule();
        boolean flink = options.engines().contains(ScenarioRun.FLINK);
        boolean reference = options.engines().contains(ScenarioRun.REFERENCE);
        Files.createDirectories(options.out());
        Machine machine = Machine.current();
        double loadAtStart = Machine.loadAverage();
        Path tmp = Files.createTempDirectory("consistent-cut-bench");
        List<Boolean> abSkews = !reference || options.abPairs() == 0 || !options.only().isEmpty() ? List.of()
                : plan.quick() ? List.of(true) : List.of(false, true);
        int abRuns = abSkews.size() * 2 * (options.abPairs() + OverheadRun.WARMUP_PAIRS) * 2;
        Duration abWarmup = plan.quick() ? Duration.ofMillis(500) : OverheadRun.FULL_WARMUP;
        Duration abWindow = plan.quick() ? Duration.ofSeconds(1) : OverheadRun.FULL_WINDOW;
        int reuseRuns = (flink ? 1 : 0) * (int) schedule.stream().filter(BenchmarkMain::reuseCell).count()
                + (reference ? 1 : 0) * (int) schedule.stream().filter(BenchmarkMain::reuseCell).count();
        int steps = 2 + (schedule.size() + 1) * options.engines().size() + reuseRuns + (flink ? 1 : 0) + abRuns;
        Duration planned = plan.plannedTimePerEngine().multipliedBy(options.engines().size()).plusSeconds(flink ? 15 : 5)
                .plus(plan.warmup().plus(WARM_UP_WINDOW).plusSeconds(2).multipliedBy(options.engines().size()))
                .plus(plan.warmup().plus(plan.window(new Scenario(Backpressure.NONE, false, Mode.NONE))).plusSeconds(2)
                        .multipliedBy(reuseRuns))
                .plus(abWarmup.plus(abWindow).plusSeconds(1).multipliedBy(abRuns));
        Progress progress = new Progress(err, System.console() != null, steps, planned);
        Map<String, List<ScenarioRun>> rounds = new LinkedHashMap<>();
        try {
            progress.step("calibration");
            Calibration calibration = calibrate(tmp, progress);
            ReferenceBenchmark referenceEngine = new ReferenceBenchmark(ReferenceCalibration.storeFactory(tmp.resolve("reference")));
            ReferenceBenchmark referenceObjects = new ReferenceBenchmark(
                    ReferenceCalibration.storeFactory(tmp.resolve("reference-objects")), BufferEncoding.REFERENCES);
            FlinkCluster cluster = null;
            try {
                if (flink) {
                    progress.step("starting the Flink MiniCluster");
                    cluster = FlinkCluster.start(Files.createDirectories(tmp.resolve("flink")));
                }
                FlinkBenchmark flinkEngine = cluster == null ? null : new FlinkBenchmark(cluster);
                FlinkBenchmark flinkReuse = cluster == null ? null : new FlinkBenchmark(cluster, true);
                // The first job of a JVM runs with its JIT cold (a Flink job's first round once came
                // out at half the throughput of its next ones): each engine first runs the schedule's
                // first scenario once, and that run is discarded.
                Scenario first = schedule.get(0);
                if (reference) {
                    progress.step("reference warm-up run (discarded)");
                    referenceEngine.run(first, plan.warmup(), WARM_UP_WINDOW, progress);
                }
                if (flinkEngine != null) {
                    progress.step("flink     warm-up run (discarded)");
                    flinkEngine.run(first, plan.warmup(), WARM_UP_WINDOW, progress);
                }
                for (Scenario s : schedule) {
                    Duration window = plan.window(s);
                    if (reference) {
                        progress.step("reference " + s.name());
                        ScenarioRun r = referenceEngine.run(s, plan.warmup(), window, progress);
                        rounds.computeIfAbsent(ScenarioRun.REFERENCE + " " + s.name(), k -> new ArrayList<>()).add(r);
                        progress.note(line(r));
                    }
                    if (flinkEngine != null) {
                        progress.step("flink     " + s.name());
                        ScenarioRun r = flinkEngine.run(s, plan.warmup(), window, progress);
                        rounds.computeIfAbsent(ScenarioRun.FLINK + " " + s.name(), k -> new ArrayList<>()).add(r);
                        progress.note(line(r));
                    }
                    if (reference && reuseCell(s)) {
                        progress.step("reference handing objects over " + s.name());
                        ScenarioRun r = referenceObjects.run(s, plan.warmup(), window, progress);
                        rounds.computeIfAbsent(ScenarioRun.REFERENCE_OBJECTS + " " + s.name(), k -> new ArrayList<>()).add(r);
                        progress.note(line(r));
                    }
                    if (flinkReuse != null && reuseCell(s)) {
                        progress.step("flink with object reuse " + s.name());
                        ScenarioRun r = flinkReuse.run(s, plan.warmup(), window, progress);
                        rounds.computeIfAbsent(ScenarioRun.FLINK_REUSE + " " + s.name(), k -> new ArrayList<>()).add(r);
                        progress.note(line(r));
                    }
                }
            } finally {
                if (cluster != null) {
                    cluster.close();
                }
            }
            List<OverheadAB.Result> overhead = new ArrayList<>();
            for (boolean skew : abSkews) {
                for (Mode m : new Mode[] {Mode.ALIGNED, Mode.UNALIGNED}) {
                    OverheadAB.Result r = new OverheadRun(referenceEngine, abWarmup, abWindow, options.abPairs(),
                            options.abMaxPairs()).cell(skew, m, 16 + overhead.size(), progress);
                    overhead.add(r);
                    progress.note(r.describe());
                }
            }
            List<ScenarioRun> runs = new ArrayList<>();
            for (Scenario s : scenarios) {
                for (String engine : List.of(ScenarioRun.REFERENCE, ScenarioRun.REFERENCE_OBJECTS, ScenarioRun.FLINK,
                        ScenarioRun.FLINK_REUSE)) {
                    List<ScenarioRun> r = rounds.get(engine + " " + s.name());
                    if (r != null) {
                        runs.add(ScenarioRun.merge(r));
                    }
                }
            }
            progress.step("report");
            List<Summary> rows = runs.stream().map(r -> Summary.of(r, calibration, runs)).toList();
            List<Targets.Verdict> verdicts = new Targets(rows, overhead).judge();
            List<Report.MicroResult> micro = options.microCsv() != null && Files.exists(options.microCsv())
                    ? JmhCsv.read(options.microCsv()) : List.of();
            String title = (plan.quick() ? "Quick run" : "Full run") + ", " + LocalDate.now();
            Path png = options.out().resolve("checkpoints.png");
            Chart.write(rows, title + ", " + machine.cpu() + ", " + machine.cores() + " cores", png);
            Report.Inputs inputs = new Report.Inputs(title, machine, loadAtStart, Machine.loadAverage(), calibration,
                    rows, verdicts, micro, "benchmarks/results/" + (plan.quick() ? "quick/" : "") + png.getFileName());
            Files.writeString(options.out().resolve("results.csv"), Report.csv(rows));
            String md = Report.markdown(inputs);
            if (!overhead.isEmpty()) {
                Files.writeString(options.out().resolve("overhead.csv"), OverheadAB.csv(overhead));
                md = md + "\n" + OverheadAB.markdown(overhead, (int) abWindow.toMillis());
            }
            Files.writeString(options.out().resolve("results.md"), md);
            progress.done();
            out.println(md);
            out.println("Wrote " + options.out().resolve("results.csv") + ", " + options.out().resolve("results.md") + ", " + png);
        } finally {
            deleteRecursively(tmp);
        }
    }

    /** The store's bandwidth and the barrier's hop times on this machine, measured now (in {@code tmp}). */
    public static Calibration calibrate(Path tmp, Progress progress) throws Exception {
        progress.detail("barrier hop times");
        dev.consistentcut.bench.engine.BarrierHopCalibration hops = new dev.consistentcut.bench.engine.BarrierHopCalibration(40);
        double idle = hops.idleHopMs();
        Map<Backpressure, Double> travel = new EnumMap<>(Backpressure.class);
        travel.put(Backpressure.NONE, 3 * idle);
        travel.put(Backpressure.LIGHT, 2 * idle + hops.busyHopMs(Backpressure.LIGHT.sinkNanosPerRecord()));
        travel.put(Backpressure.HEAVY, 2 * idle + hops.busyHopMs(Backpressure.HEAVY.sinkNanosPerRecord()));
        progress.detail("store write bandwidth");
        Path dir = Files.createDirectories(tmp.resolve("calibration"));
        ReferenceCalibration.StoreFigure store = ReferenceCalibration.storeBandwidth(dir.resolve("store"));
        return new Calibration(store.bytesPerSecond(), travel);
    }

    private static String line(ScenarioRun r) {
        return String.format("%-9s %-24s %,12.0f records/s, %d checkpoints, median %s ms",
                r.engine(), r.scenario().name(), r.throughput(), r.checkpoints().size(),
                Report.formatNumber(Stats.median(Stats.of(r.checkpoints(), CheckpointSample::durationMs))));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

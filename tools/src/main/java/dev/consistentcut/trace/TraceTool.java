// Longer than 500 lines: the trace command's subcommands (record, record-store, record-rescale, to-tla, validate, render) and their option parsing.
package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.Violation;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.picture.EngineTraceDiagrams;
import dev.consistentcut.picture.SvgDiagram;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.StepOrdering;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.runtime.ThreadedRuntime;
import dev.consistentcut.text.Json;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Command line of trace validation: {@code record} a run as a trace, convert a trace to TLA+
 * ({@code to-tla}), {@code validate} traces with TLC. {@code model-check.sh --trace} and
 * {@code tests/trace-validation.sh} call it; {@code --help} lists the options.
 */
public final class TraceTool {

    static final String USAGE = """
            Usage: java -jar tools.jar trace COMMAND [options]
               or: java -cp tools.jar dev.consistentcut.trace.TraceTool COMMAND [options]

            Commands:
              record --out FILE [options]   run a job with a trace recorder and write the trace (NDJSON);
                                            an existing FILE is kept unless --force is given
                --runtime simulation|threads   (default simulation)
                --mode aligned|unaligned|at-least-once   (default aligned)
                --job demo|join|diamond|fanin|sink  (default demo); sink: the demo's shape ending in the
                                               two-phase-commit sink, implies --end-of-input
                --records N                    records per source, 0..%d as for run --records (default 6)
                --capacity N                   records per channel (default 2)
                --buffer-size N                threads: records per network buffer, 0: a quarter of
                                               the capacity (default 0)
                --seed N                       keys and, in the simulation, every choice (default 1)
                --checkpoints N                simulation: checkpoints triggered at most (default 4)
                --max-concurrent N             aligned, at-least-once: checkpoints in flight at once (default 1)
                --failures N                   failures: one right after the first completed
                                               checkpoint, in the simulation up to N-1 more at random (default 0)
                --abort-probability P          simulation: chance per step to abort a pending checkpoint (default 0)
                --decline-probability P        simulation: chance that an operator task declines a checkpoint
                                               when its first barrier arrives (DeclineCheckpoint: the
                                               coordinator aborts it; default 0)
                --checkpoint-timeout N         abort a checkpoint pending longer than N steps (simulation)
                                               or N milliseconds (threads); 0: never (default 0)
                --end-of-input                 sources end their partitions once their log is read
                                               (FLIP-147); the run goes on until every task ended
                --trace-lock                   threads: hold one lock around every step and its event, so the
                                               trace is the order the steps took one at a time; default: no
                                               lock, each task logs its own events with vector clocks and the
                                               trace is their merge, consistent with happens-before
                --aborts-stay-in-flight        the older abort model (the spec's AbortsReachTasks = FALSE):
                                               an aborted checkpoint stays in flight and no task is told;
                                               default: aborts reach the tasks, as in Flink
            %s%s  to-tla [--force] TRACE DIR    write DIR/TraceData.tla, the trace as TLA+ (an existing one only with --force)
              validate --spec DIR --tlc JAR [--logs DIR] [--expect-reject] [--pictures] [--json FILE]
                       [--require-end] [--coverage FILE] [--jobs N] TRACE...
                                            let TLC decide whether each trace is a behaviour of the spec;
                                            exit 0 iff every trace is accepted (--expect-reject: rejected);
                                            --require-end: a trace must end with RunEnded (else it is only a
                                            prefix of a run, whose end was not checked: rejected);
                                            prints how often each spec action fired, by branch, over all the
                                            traces, and the branches none reached; --coverage FILE: the same
                                            as TSV (mode, action, branch, count); --jobs N: N TLCs at once;
                                            TLC's output of each trace goes to its own log in --logs DIR
                                            (default target/trace-validation); a trace above
                                            %d MB is refused (an ERROR verdict naming the limit);
                                            --pictures: draw each rejected trace next to its TLC log (.svg);
                                            --json FILE: write the verdicts as one JSON document
              render [--force] TRACE OUT.svg [--unexplained N] [--why TEXT]
                                            draw a trace as a picture (lanes per channel, one row per
                                            event); --unexplained marks event N as rejected (1 is the
                                            first event; default 0: none); an existing OUT.svg only
                                            with --force; a trace above %d MB is refused
              -h, --help                    this help (also after each command); --debug: stack traces

            Exit codes: 0 as expected; 1 a trace not as expected (or a run that did not finish, or whose engine
            checks failed after a recorded rescale); 2 bad usage;
            3 an I/O problem (a path that cannot be read or written: one line naming it and the cause).
            """.formatted(TraceJobs.MAX_RECORDS, StoreTraces.USAGE, RescaleTraces.USAGE, TraceValidator.MAX_TRACE_BYTES / 1_000_000,
                    TraceRender.MAX_TRACE_BYTES / 1_000_000);

    /** The simulation's step limit when recording: a run that reaches it is cut short (no RunEnded). */
    static final int SIMULATION_STEPS = 100_000;

    private TraceTool() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * How to run a recorded job (see the usage text).
     *
     * @param checkpointTimeout simulation steps, or milliseconds in the threaded runtime; 0: none
     */
    record Settings(boolean threads, long seed, int checkpoints, int maxConcurrent, int failures,
                    double abortProbability, long checkpointTimeout, boolean abortsReachTasks, boolean endOfInput,
                    double declineProbability, boolean traceLock) {

        /** No seeded declines; the threaded runtime records causally (no trace lock). */
        Settings(boolean threads, long seed, int checkpoints, int maxConcurrent, int failures,
                 double abortProbability, long checkpointTimeout, boolean abortsReachTasks, boolean endOfInput) {
            this(threads, seed, checkpoints, maxConcurrent, failures, abortProbability, checkpointTimeout,
                    abortsReachTasks, endOfInput, 0, false);
        }

        /** The threaded runtime records causally (no trace lock). */
        Settings(boolean threads, long seed, int checkpoints, int maxConcurrent, int failures,
                 double abortProbability, long checkpointTimeout, boolean abortsReachTasks, boolean endOfInput,
                 double declineProbability) {
            this(threads, seed, checkpoints, maxConcurrent, failures, abortProbability, checkpointTimeout,
                    abortsReachTasks, endOfInput, declineProbability, false);
        }

        /** Aborts reach the tasks (Flink's lifecycle, the engine's default); no end of input. */
        Settings(boolean threads, long seed, int checkpoints, int maxConcurrent, int failures,
                 double abortProbability, long checkpointTimeout) {
            this(threads, seed, checkpoints, maxConcurrent, failures, abortProbability, checkpointTimeout, true, false);
        }

        /** These settings with sources ending their partitions ({@code --end-of-input}). */
        Settings withEndOfInput() {
            return new Settings(threads, seed, checkpoints, maxConcurrent, failures, abortProbability, checkpointTimeout,
                    abortsReachTasks, true, declineProbability, traceLock);
        }

        /** The simulation, {@code seed}, 3 checkpoints, one in flight, no failure, abort or timeout. */
        static Settings simulation(long seed) {
            return new Settings(false, seed, 3, 1, 0, 0, 0);
        }
    }

    /** Runs one command; returns the exit code. (The CLI's {@code trace} command calls this.) */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean debug = List.of(args).contains("--debug");
        return run(List.of(args).stream().filter(a -> !a.equals("--debug")).toArray(String[]::new), out, err, debug);
    }

    /** As {@link #run(String[], PrintStream, PrintStream)}; {@code debug} adds stack traces to errors. */
    public static int run(String[] args, PrintStream out, PrintStream err, boolean debug) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")
                || (args.length == 2 && (args[1].equals("--help") || args[1].equals("-h")))) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        try {
            List<String> rest = List.of(args).subList(1, args.length);
            return switch (args[0]) {
                case "record" -> record(rest, out);
                case "record-store" -> StoreTraces.record(rest, out);
                case "record-rescale" -> RescaleTraces.record(rest, out);
                case "to-tla" -> toTla(rest, out);
                case "validate" -> validate(rest, out);
                case "render" -> TraceRender.run(rest, out, err);
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "'");
            };
        } catch (IllegalArgumentException e) {
            err.println("TraceTool: " + e.getMessage());
            err.println("(see --help)");
            return 2;
        } catch (java.io.UncheckedIOException | IOProblem e) {
            err.println("TraceTool: " + e.getMessage());
            if (debug) {
                e.printStackTrace(err);
            }
            return 3;
        } catch (RuntimeException e) {
            err.println("TraceTool: internal error: " + e + (debug ? "" : " (--debug shows the stack trace)"));
            if (debug) {
                e.printStackTrace(err);
            }
            return 3;
        } catch (OutOfMemoryError e) {
            // No option of these commands bounds memory below their own limits: only the heap can help.
            err.println("TraceTool: out of memory (" + e.getMessage() + "): give the JVM more heap (-Xmx)");
            if (debug) {
                e.printStackTrace(err);
            }
            return 3;
        }
    }

    /** An environment or I/O problem, one line naming the path and the cause: exit 3. */
    static final class IOProblem extends RuntimeException {
        IOProblem(String message) {
            super(message);
        }
    }

    /** Refuses to replace {@code file} without {@code --force}, and a target that is a directory. */
    static void checkWritable(Path file, boolean force, String option) {
        if (Files.isDirectory(file)) {
            throw new IOProblem(file + ": is a directory; " + option + " needs a file name");
        }
        if (Files.exists(file) && !force) {
            throw new IllegalArgumentException(file + " exists; add --force to overwrite it");
        }
    }

    // ------------------------------------------------------------------ record

    private static int record(List<String> args, PrintStream out) {
        List<String> positional = new ArrayList<>();
        Map<String, String> o = options(args, List.of("--out", "--runtime", "--mode", "--job", "--records", "--capacity",
                "--seed", "--checkpoints", "--max-concurrent", "--failures", "--abort-probability", "--checkpoint-timeout",
                "--decline-probability", "--buffer-size"),
                List.of("--force", "--end-of-input", "--aborts-stay-in-flight", "--trace-lock"), positional);
        if (!positional.isEmpty()) {
            throw new IllegalArgumentException("record takes options only, got '" + positional.get(0) + "'");
        }
        if (!o.containsKey("--out")) {
            throw new IllegalArgumentException("record needs --out FILE");
        }
        String runtime = o.getOrDefault("--runtime", "simulation");
        if (!runtime.equals("simulation") && !runtime.equals("threads")) {
            throw new IllegalArgumentException("--runtime " + runtime + ": expected simulation or threads");
        }
        BarrierMode mode = BarrierHandlers.byName(o.getOrDefault("--mode", "aligned"));
        int records = count(o, "--records", 6, 0);
        if (records > TraceJobs.MAX_RECORDS) {
            throw new IllegalArgumentException("--records must be at most " + TraceJobs.MAX_RECORDS
                    + " (as for run --records), got " + records);
        }
        int capacity = count(o, "--capacity", 2, 1);
        int bufferSize = count(o, "--buffer-size", 0, 0);
        long seed = number(o, "--seed", 1L, Long::parseLong);
        int checkpoints = count(o, "--checkpoints", 4, 0);
        int maxConcurrent = count(o, "--max-concurrent", 1, 1);
        int failures = count(o, "--failures", 0, 0);
        double abort = number(o, "--abort-probability", 0.0, Double::parseDouble);
        double decline = number(o, "--decline-probability", 0.0, Double::parseDouble);
        if (!(decline >= 0 && decline <= 1)) {
            throw new IllegalArgumentException("--decline-probability must be within [0, 1], got " + decline);
        }
        if (decline > 0 && runtime.equals("threads")) {
            throw new IllegalArgumentException("--decline-probability is a seeded choice of the simulation; "
                    + "it does not apply to --runtime threads");
        }
        long timeout = number(o, "--checkpoint-timeout", 0L, Long::parseLong);
        if (timeout < 0) {
            throw new IllegalArgumentException("--checkpoint-timeout must be >= 0, got " + timeout);
        }
        String job = o.getOrDefault("--job", "demo");
        checkWritable(Path.of(o.get("--out")), o.containsKey("--force"), "--out");
        boolean threads = runtime.equals("threads");
        JobGraph graph = TraceJobs.build(job, records, capacity, seed, threads ? TimeUnit.MICROSECONDS.toNanos(200) : 0);
        return record(Path.of(o.get("--out")), graph, job, mode,
                new Settings(threads, seed, checkpoints, maxConcurrent, failures, abort, timeout,
                        !o.containsKey("--aborts-stay-in-flight"), o.containsKey("--end-of-input") || job.equals("sink"),
                        decline, o.containsKey("--trace-lock")), out,
                bufferSize);
    }

    /** Runs {@code graph} with a recorder writing {@code file}; 0 if the run finished, 1 if not. */
    static int record(Path file, JobGraph graph, String job, BarrierMode mode, Settings s, PrintStream out) {
        return record(file, graph, job, mode, s, out, 0);
    }

    /** As above; {@code bufferSize}: records per network buffer in the threaded runtime (0: a quarter of the capacity). */
    static int record(Path file, JobGraph graph, String job, BarrierMode mode, Settings s, PrintStream out, int bufferSize) {
        // The threaded runtime records causally unless the trace lock is asked for.
        dev.consistentcut.causal.VectorClocks clocks = s.threads() && !s.traceLock()
                ? new dev.consistentcut.causal.VectorClocks(processes(graph)) : null;
        TraceRecorder recorder = TraceRecorder.open(file, graph, mode, s.threads() ? "threads" : "simulation", s.maxConcurrent(),
                s.abortsReachTasks(), s.endOfInput(), clocks, s.seed());
        RunOptions.Builder options = RunOptions.builder()
                .observer(recorder)
                .onCheckpoint(recorder::checkpointCompleted)
                .seed(s.seed())
                .maxConcurrentAligned(s.maxConcurrent())
                .failAfterCheckpoint(s.failures() > 0 ? 1 : 0)
                // Both recorded in the header: the trace spec sets AbortsReachTasks and EndOfInput from it.
                .abortsReachTasks(s.abortsReachTasks())
                .endOfInput(s.endOfInput());
        RunResult result;
        boolean recorded = false;
        try {
            if (s.threads()) {
                // A checkpoint every 2 ms; the sink's pause keeps records in flight meanwhile.
                // A trace needs one order of steps: one at a time (a causal trace orders its steps by
                // their channels' locks and clocks instead; its buffer flushes still take this).
                ThreadedRuntime rt = new ThreadedRuntime(graph, mode, options
                        .stepOrdering(StepOrdering.oneAtATime())
                        .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(2))
                        .checkpointTimeout(TimeUnit.MILLISECONDS.toNanos(s.checkpointTimeout()))
                        .bufferSize(bufferSize)
                        .bufferTimeout(TimeUnit.MILLISECONDS.toNanos(1))
                        .build());
                recorder.attach(RuntimeViews.of(rt));
                if (clocks != null) {
                    rt.recordCausally(clocks);
                }
                result = rt.run();
                if (result.finished()) { // the threaded runtime ends a run when it is quiet
                    recorder.runEnded(true);
                }
            } else {
                SimulationRuntime rt = new SimulationRuntime(graph, mode, options
                        .maxSteps(SIMULATION_STEPS)
                        .maxCheckpoints(s.checkpoints())
                        .triggerProbability(0.1)
                        .abortProbability(s.abortProbability())
                        .declineProbability(s.declineProbability())
                        .checkpointTimeout(s.checkpointTimeout())
                        .maxFailures(Math.max(0, s.failures() - 1))
                        .failureProbability(s.failures() > 1 ? 0.01 : 0)
                        // a sink job: failures also right after a completion, before its notification
                        .failureAfterCompletionProbability(s.failures() > 1 ? 0.3 : 0)
                        .build());
                recorder.attach(RuntimeViews.of(rt));
                result = rt.run();
                if (result.steps() < SIMULATION_STEPS) { // stopped because no step was enabled
                    recorder.runEnded(result.finished());
                }
            }
            recorded = true;
        } finally {
            if (recorded) {
                recorder.close(); // a causal trace is merged here; if that fails, no trace file is left
            } else {
                recorder.discard(); // the run failed: no trace file
            }
        }
        out.printf("%s: %d events (%s runtime, %s, job %s, seed %d): %s, %d checkpoints completed, %d aborted, %d failures; "
                        + "the engine's own invariant checks: %s%n",
                file, recorder.events(), result.runtime(), mode.name(), job, s.seed(), result.finished() ? "finished" : "NOT finished",
                result.checkpoints().size(), result.abortedCheckpoints(), result.failures(),
                result.violations().isEmpty() ? "hold" : "violated: " + result.violations().stream().limit(3).map(Violation::message).toList());
        return result.finished() ? 0 : 1;
    }

    /** The processes of a causal trace of {@code graph}: every task instance, then the coordinator. */
    static List<String> processes(JobGraph graph) {
        List<String> p = new ArrayList<>();
        dev.consistentcut.graph.PhysicalGraph.of(graph).tasks().forEach(t -> p.add(t.id()));
        p.add(dev.consistentcut.causal.VectorClocks.COORDINATOR);
        return p;
    }

    // ------------------------------------------------------------------ to-tla, validate

    private static int toTla(List<String> args, PrintStream out) {
        List<String> positional = new ArrayList<>();
        Map<String, String> o = options(args, List.of(), List.of("--force"), positional);
        if (positional.size() != 2) {
            throw new IllegalArgumentException("to-tla needs TRACE and DIR");
        }
        Path trace = Path.of(positional.get(0));
        if (!Files.isRegularFile(trace)) {
            throw new IOProblem(trace + ": " + (Files.exists(trace) ? "not a regular file" : "no such file"));
        }
        Path dir = Path.of(positional.get(1));
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOProblem(dir + ": not a directory");
        }
        checkWritable(dir.resolve(TraceToTla.MODULE + ".tla"), o.containsKey("--force"), "DIR");
        TraceToTla.Converted c = TraceToTla.write(trace, dir);
        out.println("wrote " + dir.resolve(TraceToTla.MODULE + ".tla") + ": " + c.mode() + ", "
                + c.eventLines().size() + " events");
        return 0;
    }

    private static int validate(List<String> args, PrintStream out) {
        List<String> traces = new ArrayList<>();
        Map<String, String> o = options(args, List.of("--spec", "--tlc", "--logs", "--json", "--coverage", "--jobs"),
                List.of("--expect-reject", "--pictures", "--require-end"), traces);
        int jobs = count(o, "--jobs", 1, 1);
        if (!o.containsKey("--spec") || !o.containsKey("--tlc")) {
            throw new IllegalArgumentException("validate needs --spec DIR and --tlc JAR");
        }
        if (traces.isEmpty()) {
            throw new IllegalArgumentException("validate needs at least one TRACE file");
        }
        boolean expectReject = o.containsKey("--expect-reject");
        TraceValidator validator;
        try {
            validator = new TraceValidator(Path.of(o.get("--spec")), Path.of(o.get("--tlc")),
                    Path.of(o.getOrDefault("--logs", "target/trace-validation")));
        } catch (IllegalArgumentException e) {
            throw new IOProblem(e.getMessage());
        }
        validator.requireEnd(o.containsKey("--require-end"));
        int unexpected = 0;
        List<String> json = new ArrayList<>();
        List<TraceValidator.Verdict> verdicts = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(jobs, r -> {
            Thread th = new Thread(r, "trace-validator");
            th.setDaemon(true);
            return th;
        });
        List<java.util.concurrent.Future<TraceValidator.Verdict>> pending = new ArrayList<>();
        for (String t : traces) {
            pending.add(pool.submit(() -> validator.validate(Path.of(t))));
        }
        pool.shutdown();
        for (int k = 0; k < traces.size(); k++) {
            String t = traces.get(k);
            out.println("validating " + t + " (" + sizeOf(Path.of(t)) + ") with TLC, log " + validator.logOf(Path.of(t)));
            TraceValidator.Verdict v = await(pending.get(k));
            verdicts.add(v);
            TraceValidator.Outcome expected = expectReject ? TraceValidator.Outcome.REJECTED : TraceValidator.Outcome.ACCEPTED;
            boolean ok = v.outcome() == expected;
            unexpected += ok ? 0 : 1;
            Path picture = o.containsKey("--pictures") ? picture(v) : null;
            json.add(jsonVerdict(v, expected, ok, picture));
            out.printf("%-8s %s (%d events, %.1f s)%s%n", v.outcome(), t, v.events(), v.seconds(),
                    ok ? (expectReject ? ", rejected as expected" : "") : ", NOT AS EXPECTED (expected " + expected + ")");
            if (v.outcome() != TraceValidator.Outcome.ACCEPTED) {
                v.report().lines().forEach(l -> out.println("    " + l));
                if (v.log() != null) {
                    out.println("    TLC output: " + v.log());
                }
                if (picture != null) {
                    out.println("    picture: " + picture);
                }
            }
        }
        TraceCoverage.report(verdicts, out);
        if (o.containsKey("--coverage")) {
            TraceCoverage.writeTsv(verdicts, Path.of(o.get("--coverage")));
        }
        out.printf("traces: %d as expected, %d not%n", traces.size() - unexpected, unexpected);
        if (o.containsKey("--json")) {
            String doc = "{\n  \"tool\": \"model-check.sh --trace\",\n  \"traces_run\": " + traces.size()
                    + ",\n  \"not_as_expected\": " + unexpected + ",\n  \"all_as_expected\": " + (unexpected == 0)
                    + ",\n  \"traces\": [\n    " + String.join(",\n    ", json) + "\n  ]\n}\n";
            try {
                java.nio.file.Files.writeString(Path.of(o.get("--json")), doc);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot write " + o.get("--json") + ": " + e.getMessage(), e);
            }
        }
        return unexpected == 0 ? 0 : 1;
    }

    private static TraceValidator.Verdict await(java.util.concurrent.Future<TraceValidator.Verdict> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOProblem("interrupted while TLC ran");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private static String sizeOf(Path p) {
        try {
            long b = Files.size(p);
            return b >= 1_000_000 ? String.format("%.1f MB", b / 1e6) : b + " bytes";
        } catch (java.io.IOException e) {
            return "unreadable";
        }
    }

    /** A rejected trace drawn next to its TLC log, the first unexplained event marked; null if not drawn. */
    private static Path picture(TraceValidator.Verdict v) {
        if (v.outcome() != TraceValidator.Outcome.REJECTED || v.log() == null) {
            return null;
        }
        String name = v.log().getFileName().toString().replaceFirst("\\.[^.]*$", "") + ".svg";
        Path svg = v.log().resolveSibling(name);
        try {
            SvgDiagram.write(EngineTraceDiagrams.of(v.trace(),
                    v.unexplainedEvent(), why(v.report())), svg);
            return svg;
        } catch (RuntimeException e) {
            System.err.println("TraceTool: no picture of " + v.trace() + ": " + e.getMessage());
            return null;
        }
    }

    /** The validator's reason without the event (the picture's row) and the state dump (its lanes). */
    private static List<String> why(String report) {
        return report.lines().skip(1).map(String::strip).takeWhile(l -> !l.startsWith("the specification's state"))
                .filter(l -> !l.startsWith("event: ")).toList();
    }

    /** One trace's verdict as a JSON object (model-check.sh --trace --json). */
    private static String jsonVerdict(TraceValidator.Verdict v, TraceValidator.Outcome expected, boolean ok, Path picture) {
        StringBuilder b = new StringBuilder("{\"trace\": ");
        Json.quote(b, v.trace().toString()).append(", \"expected\": ");
        Json.quote(b, expected.name().toLowerCase(java.util.Locale.ROOT)).append(", \"actual\": ");
        Json.quote(b, v.outcome().name().toLowerCase(java.util.Locale.ROOT));
        b.append(", \"as_expected\": ").append(ok).append(", \"events\": ").append(v.events())
                .append(", \"unexplained_event\": ").append(v.unexplainedEvent() == 0 ? "null" : Long.toString(v.unexplainedEvent()))
                .append(", \"seconds\": ").append(String.format(java.util.Locale.ROOT, "%.1f", v.seconds())).append(", \"report\": ");
        Json.quote(b, v.report()).append(", \"log\": ");
        if (v.log() == null) {
            b.append("null");
        } else {
            Json.quote(b, v.log().toString());
        }
        b.append(", \"picture\": ");
        if (picture == null) {
            b.append("null");
        } else {
            Json.quote(b, picture.toString());
        }
        return b.append('}').toString();
    }

    // ------------------------------------------------------------------ options

    /** Options with a value, flags without, everything else into {@code positional}. */
    static Map<String, String> options(List<String> args, List<String> valued, List<String> flags, List<String> positional) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (valued.contains(a)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                o.put(a, args.get(++i));
            } else if (flags.contains(a)) {
                o.put(a, "");
            } else if (a.startsWith("--")) {
                throw new IllegalArgumentException("unknown option '" + a + "'");
            } else {
                positional.add(a);
            }
        }
        return o;
    }

    static int count(Map<String, String> o, String name, int dflt, int min) {
        int v = number(o, name, dflt, Integer::parseInt);
        if (v < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + v);
        }
        return v;
    }

    static <T> T number(Map<String, String> o, String name, T dflt, Function<String, T> parse) {
        String s = o.get(name);
        if (s == null) {
            return dflt;
        }
        try {
            return parse.apply(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a number, got '" + s + "'");
        }
    }
}

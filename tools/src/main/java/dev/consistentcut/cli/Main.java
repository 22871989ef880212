package dev.consistentcut.cli;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.source.FileSourceLog;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.CrashPoints;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.runtime.JobRuntime;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.runtime.ThreadedRuntime;
import dev.consistentcut.runtime.TooManyFailedCheckpointsException;
import dev.consistentcut.trace.TraceTool;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The command line: {@code run} runs the demo job ({@link DemoJob}) in either runtime and reports
 * its checkpoints and the verdict of the invariant checks; with {@code --checkpoint-dir} the job is
 * durable, and {@code resume DIR} continues it in a new process after a crash; {@code inspect DIR}
 * lists its checkpoints. See {@link CliOptions#USAGE}. Every error is one message and
 * an exit code: 1 an invariant violated, 2 bad usage, 3 an environment or I/O problem; a stack
 * trace only with {@code --debug}.
 */
public final class Main {

    /** Exit codes. */
    static final int OK = 0;
    static final int VIOLATED = 1;
    static final int BAD_ARGUMENTS = 2;
    static final int ENVIRONMENT = 3;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line and returns the exit code (tests call this instead of {@link #main}). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Plugs.REAL);
    }

    /**
     * As {@link #run(String[], PrintStream, PrintStream)}, with the jobs built from {@code plugs}:
     * the seam through which a test runs the demo with a deliberately broken handler, or a file
     * job whose output's disk is full.
     */
    @TestSeam
    static int run(String[] args, PrintStream out, PrintStream err, Plugs plugs) {
        boolean debug = Arrays.asList(args).contains("--debug");
        String[] a = Arrays.stream(args).filter(x -> !x.equals("--debug")).toArray(String[]::new);
        String command = a.length == 0 ? "" : a[0];
        try {
            return dispatch(a, out, err, plugs, debug);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println();
            err.println(switch (command) {
                case "run" -> CliOptions.RUN_USAGE;
                case "resume" -> ResumeCommand.USAGE;
                case "inspect" -> InspectCommand.USAGE;
                case "verify-output" -> VerifyOutputCommand.USAGE;
                default -> CliOptions.USAGE;
            });
            return BAD_ARGUMENTS;
        } catch (EnvironmentException | UncheckedIOException e) {
            return fail(err, e.getMessage(), e, debug);
        } catch (OutOfMemoryError e) {
            return fail(err, "out of memory (" + e.getMessage() + "): " + memoryAdvice(a), e, debug);
        } catch (RuntimeException e) {
            UncheckedIOException io = ioCause(e);
            if (io != null) {
                return fail(err, io.getMessage(), e, debug);
            }
            return fail(err, "internal error: " + e + (debug ? "" : " (--debug shows the stack trace)"), e, debug);
        }
    }

    /**
     * The I/O failure that {@code e} reports, if any: a task's failure reaches the command
     * wrapped by its runtime, and a failed write under the output is the environment, not a bug.
     * Its message names the path, the operation and the cause in words.
     */
    private static UncheckedIOException ioCause(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof UncheckedIOException io) {
                return io;
            }
        }
        return null;
    }

    /**
     * What to do when the heap ran out: name --records only to a command that has it (a demo run;
     * a file job's records are its input files), else only the heap.
     */
    private static String memoryAdvice(String[] a) {
        boolean records = a.length > 0 && a[0].equals("run") && !Arrays.asList(a).contains("--input");
        return (records ? "lower --records, or give" : "give") + " the JVM more heap (-Xmx)";
    }

    /** One line naming the problem; exit 3. */
    static int fail(PrintStream err, String message, Throwable e, boolean debug) {
        err.println("error: " + message);
        if (debug) {
            e.printStackTrace(err);
        }
        return ENVIRONMENT;
    }

    private static int dispatch(String[] a, PrintStream out, PrintStream err, Plugs plugs, boolean debug)
            throws UsageException {
        if (a.length == 1 && (a[0].equals("--help") || a[0].equals("-h"))) {
            out.println(CliOptions.USAGE);
            return OK;
        }
        if (a.length == 1 && a[0].equals("--version")) {
            out.println(version());
            return OK;
        }
        if (a.length == 0) {
            throw new UsageException("no command given: expected run, resume, inspect, verify-output or trace");
        }
        String[] rest = Arrays.copyOfRange(a, 1, a.length);
        boolean help = rest.length == 1 && (rest[0].equals("--help") || rest[0].equals("-h"));
        switch (a[0]) {
            case "trace" -> {
                // Trace validation has its own command line: record, to-tla, validate.
                return TraceTool.run(rest, out, err, debug);
            }
            case "run" -> {
                if (help) {
                    out.println(CliOptions.RUN_USAGE);
                    return OK;
                }
                return runCommand(a, out, err, plugs);
            }
            case "resume" -> {
                if (help) {
                    out.println(ResumeCommand.USAGE);
                    return OK;
                }
                return ResumeCommand.run(rest, out, err, plugs);
            }
            case "inspect" -> {
                if (help) {
                    out.println(InspectCommand.USAGE);
                    return OK;
                }
                return InspectCommand.run(rest, out);
            }
            case "verify-output" -> {
                if (help) {
                    out.println(VerifyOutputCommand.USAGE);
                    return OK;
                }
                return VerifyOutputCommand.run(rest, out);
            }
            default -> throw new UsageException("unknown command '" + a[0]
                    + "': expected run, resume, inspect, verify-output or trace");
        }
    }

    /**
     * What {@code --version} prints: the tools, whose runnable jar this is (the engine is shaded
     * in, so the engine's name would misname it), their version, and the formats they read and write.
     */
    static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return "consistent-cut tools " + (v == null ? "(development build)" : v)
                + "; checkpoint format versions " + CheckpointCodec.VERSION + "-" + CheckpointCodec.VERSION_WITH_JOB
                + ", job manifest version " + JobManifest.FORMAT_VERSION
                + ", incremental checkpoint format version " + CheckpointCodec.VERSION_INCREMENTAL;
    }

    private static int runCommand(String[] a, PrintStream out, PrintStream err, Plugs plugs) throws UsageException {
        CliOptions options = CliOptions.parse(a, 1, plugs.modes(), true);
        String warning;
        if (options.fileJob()) {
            CliJob.requireRegularFiles(options.inputs());
            // a bad input stops the job before anything is written; its lines are what the sink takes
            warning = options.checkFeasible(CliJob.open(options.inputs()).stream().mapToLong(FileSourceLog::length).sum());
        } else {
            warning = options.checkFeasible();
        }
        if (warning != null) {
            err.println("warning: " + warning);
        }
        try (DirectoryLock output = JobOutput.lockNew(options)) {
            if (options.checkpointDir() == null) {
                return execute(options, null, null, false, out, err, plugs);
            }
            JobDirectory dir = new JobDirectory(options.checkpointDir());
            try {
                dir.prepareNew(options.force());
                dir.lock();
                String jobId = UUID.randomUUID().toString();
                dir.writeManifest(JobManifest.of(jobId, options));
                err.println("job " + jobId + ": manifest written to " + dir.path().resolve(JobManifest.FILE)
                        + "; after a crash, continue it with 'resume " + dir.path() + "'");
                return execute(options, dir, jobId, false, out, err, plugs);
            } finally {
                dir.unlock();
            }
        }
    }

    /**
     * Runs the demo job with {@code o}: in memory ({@code dir} null) or durable in {@code dir} as
     * job {@code jobId}, from the directory's latest valid checkpoint if it has one. Writes the
     * report and, when the job ran to its end, the directory's FINISHED marker. The caller holds
     * the locks of the job's directories ({@link JobDirectory#lock}, {@link JobOutput}).
     */
    static int execute(CliOptions o, JobDirectory dir, String jobId, boolean resumed, PrintStream out, PrintStream err,
            Plugs plugs) {
        ObservedStore store;
        if (dir != null) {
            try {
                // The crash test's kill points, installed only when its system property asks for them.
                store = new ObservedStore(new DirectoryCheckpointStore(dir.path(), o.retain(),
                        w -> err.println("warning: " + w), jobId, CrashPoints.fromSystemProperty()));
            } catch (IllegalArgumentException e) {
                throw new EnvironmentException(e.getMessage(), e);
            }
        } else {
            store = new ObservedStore(new InMemoryCheckpointStore(o.retain()));
        }
        JobGraph job = CliJob.build(o, o.simulation() ? 0 : TimeUnit.MICROSECONDS.toNanos(o.sinkDelayMicros()),
                plugs.outputs());
        JobRuntime runtime = runtime(o, job, store, resumed ? 0 : o.failAfterCheckpoint(), err);
        Optional<CompletedCheckpoint> from = store.startedFrom();
        if (resumed) {
            err.println("resuming job " + jobId + " from " + from.map(c -> "checkpoint " + c.id())
                    .orElse("the initial state (no valid checkpoint in " + dir.path() + ")"));
        }
        err.println("running the " + (o.fileJob() ? "file job (" + o.inputs().size() + " input file(s) into "
                + o.output() + ")" : "demo job") + ": mode " + o.mode().name() + ", runtime "
                + (o.simulation() ? "simulation" : "threads")
                + (o.fileJob() ? "" : ", " + o.records() + " records per source")
                + (runtime instanceof ThreadedRuntime t ? ", " + buffers(t, job) : ""));
        RunResult result;
        try {
            result = runtime.run();
        } catch (TooManyFailedCheckpointsException e) {
            out.println("job FAILED: " + e.getMessage());
            store.failures().forEach(f -> out.println("  declined " + f));
            if (dir != null) {
                out.println("the job's completed checkpoints stay in " + dir.path()
                        + "; once the cause is fixed, continue it with 'resume " + dir.path() + "'");
            }
            return ENVIRONMENT;
        }
        // The output as an external reader sees it, checked against the input files.
        OutputCheck output = o.fileJob() && result.finished() ? OutputCheck.check(o.inputs(), o.output()) : null;
        Report report = new Report(o, result, jobId, resumed ? from.map(CompletedCheckpoint::id).orElse(0L) : null,
                store.failures(), output);
        if (dir != null && result.finished()) {
            dir.removeLeftoverCheckpointTemps();
            dir.writeFinished("verdict=" + report.verdictLine() + "\njob-id=" + jobId + "\n");
        }
        out.println(o.json() ? report.json() : report.text());
        return result.holds() && (output == null || output.holds(o.mode().deliveryGuarantee())) ? OK : VIOLATED;
    }

    /**
     * The network buffers of a threaded run, as its channels have them: "network buffers
     * of B records, K per channel" (--buffer-size, capped at the capacity; 0: a quarter of it).
     */
    static String buffers(ThreadedRuntime runtime, JobGraph job) {
        java.util.Set<String> seen = new java.util.TreeSet<>();
        for (PhysicalGraph.ChannelSpec c : PhysicalGraph.of(job).channels()) {
            Channel channel = runtime.channel(c.id());
            seen.add(channel.bufferSize() + " records, " + channel.bufferCapacity() + " per channel");
        }
        return "network buffers of " + String.join("; ", seen);
    }

    /** The runtime that runs {@code job} with {@code o} (package-private: tests check what reaches it). */
    static JobRuntime runtime(CliOptions o, JobGraph job, ObservedStore store, int failAfter, PrintStream err) {
        String unit = o.simulation() ? "steps" : "ms";
        RunOptions.Builder run = RunOptions.builder()
                .seed(o.seed())
                .failAfterCheckpoint(failAfter)
                .tolerableFailedCheckpoints(o.tolerableFailedCheckpoints())
                .endOfInput(o.endOfInput())
                .savepointEvery(o.savepointEvery())
                .progress(err::println)
                .onCheckpoint(c -> err.println("checkpoint " + c.id() + " completed in "
                        + Report.time(c.stats().duration(), o.simulation()) + " " + unit + ", "
                        + c.persistedRecordCount() + " in-flight records persisted"))
                .store(() -> store);
        if (o.simulation()) {
            run.checkpointInterval(o.intervalMs() * 100).triggerProbability(1.0);
            return new SimulationRuntime(job, o.mode(), run.build());
        }
        run.checkpointInterval(TimeUnit.MILLISECONDS.toNanos(o.intervalMs()))
                .bufferSize(o.bufferSize()); // 0: a quarter of each channel's capacity
        return new ThreadedRuntime(job, o.mode(), run.build());
    }
}

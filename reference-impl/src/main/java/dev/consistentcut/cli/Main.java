package dev.consistentcut.cli;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.invariants.CutInvariants;
import dev.consistentcut.invariants.Violation;
import dev.consistentcut.runtime.JobRuntime;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.runtime.ThreadedRuntime;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The command line: {@code run} runs the demo job ({@link DemoJob}) in either runtime and reports
 * its checkpoints and the verdict of the invariant checks. See {@link CliOptions#USAGE}.
 */
public final class Main {

    /** Exit codes. */
    static final int OK = 0;
    static final int VIOLATED = 1;
    static final int BAD_ARGUMENTS = 2;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line and returns the exit code (tests call this instead of {@link #main}). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, BarrierHandlers::byName);
    }

    /**
     * As {@link #run(String[], PrintStream, PrintStream)}, with the modes {@code --mode} may name
     * given by {@code modes} (which throws {@link IllegalArgumentException} for an unknown name):
     * the seam through which a test runs the demo with a deliberately broken handler.
     */
    static int run(String[] args, PrintStream out, PrintStream err, Function<String, BarrierMode> modes) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(CliOptions.USAGE);
            return OK;
        }
        if (args.length > 0 && args[0].equals("trace")) {
            // Trace validation (issue 5) has its own command line: record, to-tla, validate.
            return dev.consistentcut.trace.TraceTool.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        CliOptions options;
        try {
            if (args.length == 0 || !args[0].equals("run")) {
                throw new UsageException(args.length == 0 ? "no command given: expected 'run'"
                        : "unknown command '" + args[0] + "': expected 'run'");
            }
            options = CliOptions.parse(args, 1, modes);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println();
            err.println(CliOptions.USAGE);
            return BAD_ARGUMENTS;
        }
        RunResult result = runDemo(options, err);
        if (options.json()) {
            out.println(json(options, result));
        } else {
            printReport(options, result, out);
        }
        return result.holds() ? OK : VIOLATED;
    }

    private static RunResult runDemo(CliOptions o, PrintStream err) {
        String unit = o.simulation() ? "steps" : "ms";
        RunOptions.Builder run = RunOptions.builder()
                .seed(o.seed())
                .failAfterCheckpoint(o.failAfterCheckpoint())
                .endOfInput(o.endOfInput())
                .progress(err::println)
                .onCheckpoint(c -> err.println("checkpoint " + c.id() + " completed in "
                        + time(c.stats().duration(), o.simulation()) + " " + unit + ", "
                        + c.persistedRecordCount() + " in-flight records persisted"));
        if (o.checkpointDir() != null) {
            run.store(() -> new DirectoryCheckpointStore(o.checkpointDir(), 3, w -> err.println("warning: " + w)));
        } else {
            run.store(() -> new InMemoryCheckpointStore(3));
        }
        JobRuntime runtime;
        if (o.simulation()) {
            run.checkpointInterval(o.intervalMs() * 100).triggerProbability(1.0);
            runtime = new SimulationRuntime(DemoJob.build(o.records(), o.seed(), 0, o.capacity()), o.mode(), run.build());
        } else {
            run.checkpointInterval(TimeUnit.MILLISECONDS.toNanos(o.intervalMs()));
            long delay = TimeUnit.MICROSECONDS.toNanos(o.sinkDelayMicros());
            runtime = new ThreadedRuntime(DemoJob.build(o.records(), o.seed(), delay, o.capacity()), o.mode(), run.build());
        }
        err.println("running the demo job: mode " + o.mode().name() + ", runtime "
                + (o.simulation() ? "simulation" : "threads") + ", " + o.records() + " records per source");
        return runtime.run();
    }

    /** A duration in the unit the report shows: milliseconds (threads, from nanoseconds) or steps. */
    private static String time(long value, boolean simulation) {
        return simulation ? Long.toString(value) : String.format("%.2f", value / 1e6);
    }

    /**
     * Each invariant checked in this run (those its mode promises, CutInvariants.applicable), with
     * "holds" or the number of violations. Aligned and unaligned report NoDoubleCountInv and
     * NoSkipInv as their conjunction ConsistentCutInv; at-least-once reports NoSkipInv alone.
     */
    private static Map<String, String> verdicts(CliOptions o, RunResult r) {
        boolean atLeastOnce = "at-least-once".equals(o.mode().name());
        Map<String, List<Violation>> byInvariant = new LinkedHashMap<>();
        if (atLeastOnce) {
            CutInvariants.applicable("at-least-once").forEach(n -> byInvariant.put(n, new ArrayList<>()));
        } else {
            byInvariant.put(CutInvariants.CONSISTENT_CUT, new ArrayList<>());
            byInvariant.put(o.mode().overtaking() ? CutInvariants.UNALIGNED_CHANNEL_STATE_BOUND
                    : CutInvariants.ALIGNED_NO_CHANNEL_STATE, new ArrayList<>());
            byInvariant.put(CutInvariants.EXACTLY_ONCE, new ArrayList<>());
        }
        for (Violation v : r.violations()) {
            String name = switch (v.invariant()) {
                case CutInvariants.NO_DOUBLE_COUNT, CutInvariants.NO_SKIP -> atLeastOnce ? v.invariant() : CutInvariants.CONSISTENT_CUT;
                default -> v.invariant();
            };
            byInvariant.computeIfAbsent(name, k -> new ArrayList<>()).add(v);
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        byInvariant.forEach((name, list) -> verdicts.put(name, !r.invariantsChecked() ? "not checked"
                : list.isEmpty() ? "holds" : "VIOLATED (" + list.size() + ")"));
        return verdicts;
    }

    private static void printReport(CliOptions o, RunResult r, PrintStream out) {
        String unit = o.simulation() ? "steps" : "ms";
        out.printf("mode %s, runtime %s, %d records per source, %d checkpoints completed, %d aborted, %d failure(s), %s %s%n",
                r.mode(), r.runtime(), o.records(), r.checkpoints().size(), r.abortedCheckpoints(), r.failures(),
                time(r.elapsed(), o.simulation()), unit);
        for (CompletedCheckpoint c : r.checkpoints()) {
            CheckpointStats s = c.stats();
            out.printf("checkpoint %4d  duration %10s %s  alignment %10s %s  persisted %6d records %9d bytes  state %9d bytes%n",
                    c.id(), time(s.duration(), o.simulation()), unit, time(s.maxAlignment(), o.simulation()), unit,
                    s.persistedRecords(), s.persistedBytes(), s.stateBytes());
        }
        if (o.endOfInput()) {
            out.println("end of input: " + (r.finished() ? "reached, every task ended" : "NOT reached"));
        }
        verdicts(o, r).forEach((name, verdict) -> out.println(name + ": " + verdict));
        if ("at-least-once".equals(o.mode().name())) {
            out.println("not promised in at-least-once mode: " + CutInvariants.NO_DOUBLE_COUNT + ", "
                    + CutInvariants.CONSISTENT_CUT + ", " + CutInvariants.EXACTLY_ONCE + " (not checked)");
        }
        r.violations().stream().limit(20).forEach(v -> out.println("  " + v.message()));
        if (r.violations().size() > 20) {
            out.println("  ... and " + (r.violations().size() - 20) + " more");
        }
        out.println(r.holds() ? "verdict: " + ("at-least-once".equals(o.mode().name()) ? "at-least-once" : "exactly-once")
                + " holds" : "verdict: VIOLATED");
    }

    private static String json(CliOptions o, RunResult r) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"mode\":").append(Json.str(r.mode()))
                .append(",\"runtime\":").append(Json.str(r.runtime()))
                .append(",\"recordsPerSource\":").append(o.records())
                .append(",\"seed\":").append(o.seed())
                .append(",\"timeUnit\":").append(Json.str(o.simulation() ? "steps" : "ns"))
                .append(",\"elapsed\":").append(r.elapsed())
                .append(",\"finished\":").append(r.finished())
                .append(",\"endOfInput\":").append(o.endOfInput())
                .append(",\"failures\":").append(r.failures())
                .append(",\"abortedCheckpoints\":").append(r.abortedCheckpoints())
                .append(",\"checkpoints\":[");
        for (int i = 0; i < r.checkpoints().size(); i++) {
            CompletedCheckpoint c = r.checkpoints().get(i);
            CheckpointStats s = c.stats();
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(c.id())
                    .append(",\"duration\":").append(s.duration())
                    .append(",\"alignment\":").append(s.maxAlignment())
                    .append(",\"persistedRecords\":").append(s.persistedRecords())
                    .append(",\"persistedBytes\":").append(s.persistedBytes())
                    .append(",\"stateBytes\":").append(s.stateBytes()).append('}');
        }
        b.append("],\"invariants\":{");
        int n = 0;
        for (Map.Entry<String, String> e : verdicts(o, r).entrySet()) {
            b.append(n++ == 0 ? "" : ",").append(Json.str(e.getKey())).append(':').append(Json.str(e.getValue()));
        }
        b.append("},\"violations\":[");
        for (int i = 0; i < r.violations().size(); i++) {
            Violation v = r.violations().get(i);
            b.append(i == 0 ? "" : ",").append("{\"invariant\":").append(Json.str(v.invariant()))
                    .append(",\"checkpoint\":").append(v.checkpointId())
                    .append(",\"operator\":").append(Json.str(v.operator()))
                    .append(",\"record\":").append(Json.str(v.record()))
                    .append(",\"actual\":").append(v.actual())
                    .append(",\"expected\":").append(v.expected())
                    .append(",\"message\":").append(Json.str(v.message())).append('}');
        }
        return b.append("],\"holds\":").append(r.holds()).append('}').toString();
    }
}

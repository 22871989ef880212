package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.barrier.BrokenLifecycleHandlers;
import dev.consistentcut.barrier.BrokenTrackerHandlers;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A test aid: traces of deliberately broken engines, which trace validation must reject. Each
 * broken barrier handler (dev.consistentcut.barrier.BrokenHandlers, test sources) differs from the
 * correct one in one place: the two first ones (BrokenHandlers) and the four lifecycle bug classes
 * (BrokenLifecycleHandlers, named as the spec's failing models) and the at-least-once
 * tracker's (BrokenTrackerHandlers, BugOlderBarrierCountsForNewest), the latter run with
 * aborts reaching the tasks and end of input. {@code main(DIR)} writes them for
 * tests/trace-validation.sh, run with the test classes on the class path; BrokenEngineTraceTest
 * validates them in the build. The seeds were chosen by recording runs until the bug showed
 * (most runs of a broken lifecycle never meet the situation it gets wrong).
 */
public final class BrokenTraces {

    /**
     * One broken run.
     *
     * @param records per source
     * @param expectedEvent the action of the first event the spec cannot explain
     * @param expectedWhy what the validator's reason must say
     */
    record Case(String name, BarrierMode mode, String job, int records, TraceTool.Settings settings,
                String expectedEvent, String expectedWhy) {
        Path file(Path dir) {
            return dir.resolve(name + ".ndjson");
        }

        long seed() {
            return settings.seed();
        }

        /** The same run with another handler. */
        Case with(String newName, BarrierMode newMode) {
            return new Case(newName, newMode, job, records, settings, expectedEvent, expectedWhy);
        }
    }

    /** Simulation, 8 records per source, 3 checkpoints, no failure, abort or end of input. */
    private static Case plain(String name, BarrierMode mode, String job, long seed, String expectedEvent, String expectedWhy) {
        return new Case(name, mode, job, 8, TraceTool.Settings.simulation(seed), expectedEvent, expectedWhy);
    }

    /**
     * The lifecycle: simulation, 6 records per source, 6 checkpoints ({@code maxConcurrent} in
     * flight), aborts at random ({@code abortProbability} per step) that reach the tasks, end of
     * input, no failure.
     */
    private static Case lifecycle(String name, BarrierMode mode, String job, long seed, int maxConcurrent,
                                  double abortProbability, String expectedEvent, String expectedWhy) {
        return new Case(name, mode, job, 6,
                new TraceTool.Settings(false, seed, 6, maxConcurrent, 0, abortProbability, 0, true, true),
                expectedEvent, expectedWhy);
    }

    static final List<Case> CASES = List.of(
            // Records behind an arrived barrier are processed before the snapshot: the spec's
            // aligned ProcessRecord is not enabled on a blocked input.
            plain("broken-aligned-nonblocking", BrokenHandlers.alignedWithoutBlocking(), "demo", 1,
                    "\"event\":\"ProcessRecord\"", "is not enabled"),
            // Records taken after the snapshot, before their input's barrier, are not persisted:
            // the spec's unaligned ProcessRecord persists such a record, the engine says it did not.
            plain("broken-unaligned-forgetful", BrokenHandlers.unalignedForgettingInFlight(), "demo", 3,
                    "\"event\":\"ProcessRecord\"", "persisted (whether the record was persisted"),
            // BugAbortKeepsInputsBlocked: after an abort the inputs that had delivered the barrier
            // stay blocked, records wait on them, the run stops. Every step is one the spec allows;
            // the end is not: the spec would read those inputs (RunEnded).
            lifecycle("broken-abort-keeps-inputs-blocked", BrokenLifecycleHandlers.abortKeepsInputsBlocked(), "join",
                    1, 2, 0.05, "\"event\":\"RunEnded\"", "the engine stalled"),
            // BugSubsumptionKeepsArrivedInputs: a newer barrier subsumes an alignment and keeps its
            // arrived inputs, so the newer alignment completes on a barrier the spec's does not
            // complete on: the engine snapshots (and forwards) where the spec waits.
            lifecycle("broken-subsumption-keeps-arrived-inputs", BrokenLifecycleHandlers.subsumptionKeepsArrivedInputs(),
                    "join", 44, 2, 0.1, "\"event\":\"ReceiveBarrier\"", "snapshot (the snapshot"),
            // BugLateBarrierOfCancelledCheckpoint (FLINK-20654): a late barrier of an older,
            // cancelled checkpoint counts for the one being aligned, completing it: the spec drops
            // that barrier as obsolete, the engine snapshots on it.
            lifecycle("broken-late-barrier-of-cancelled-checkpoint", BrokenLifecycleHandlers.lateBarrierOfCancelledCheckpoint(),
                    "diamond", 3, 2, 0.05, "\"event\":\"ReceiveBarrier\"", "snapshot (the snapshot"),
            // BugEndedInputNotCountedAsArrived: the last barrier arrives after the other input
            // ended; the spec counts the ended input and completes the alignment, the engine waits.
            lifecycle("broken-ended-input-not-counted-as-arrived", BrokenLifecycleHandlers.endedInputNotCountedAsArrived(),
                    "join", 5, 1, 0.05, "\"event\":\"ReceiveBarrier\"", "snapshot (the snapshot"),
            // BugOlderBarrierCountsForNewest (at-least-once, two in flight): the tracker counts the
            // barrier of the older of two tracked checkpoints for the newer one, which completes on
            // it; the spec's tracker completes the older one and forwards its barrier, the engine
            // forwards the newer one's.
            lifecycle("broken-older-barrier-counts-for-newest", BrokenTrackerHandlers.olderBarrierCountsForNewest(),
                    "join", 19, 2, 0.02, "\"event\":\"ReceiveBarrier\"", "channels (the contents"));

    /** The job name of {@link #COMMIT_ON_SNAPSHOT}: the sink job with the broken sink. */
    static final String SINK_COMMIT_ON_SNAPSHOT = "sink-commit-on-snapshot";

    /**
     * The two-phase-commit sink that commits in its snapshot (BugCommitOnSnapshot,
     * dev.consistentcut.sink.BrokenSinks), on the {@code sink} job with end of input and a failure
     * after the first checkpoint: the sink's ReceiveBarrier records a committed output that the
     * spec's pre-commit never produces. (Not in CASES: those are broken handlers, and
     * BrokenEngineTraceTest runs each with the correct handler too; SinkTraceTest does both here.)
     */
    static final Case COMMIT_ON_SNAPSHOT = new Case("broken-sink-commit-on-snapshot", BarrierHandlers.aligned(),
            SINK_COMMIT_ON_SNAPSHOT, 5, new TraceTool.Settings(false, 3, 4, 1, 1, 0, 0, true, true),
            "\"event\":\"ReceiveBarrier\"", "output");


    private BrokenTraces() {
    }

    /** Records case {@code c} into {@code dir}. */
    static Path record(Case c, Path dir, PrintStream out) {
        Path f = c.file(dir);
        dev.consistentcut.graph.JobGraph graph = c.job().equals(SINK_COMMIT_ON_SNAPSHOT)
                ? TraceJobs.withSink(c.records(), 2, c.seed(), dev.consistentcut.sink.BrokenSinks.CommitOnSnapshot::new)
                : TraceJobs.build(c.job(), c.records(), 2, c.seed(), 0);
        TraceTool.record(f, graph, c.job(), c.mode(), c.settings(), out);
        return f;
    }

    /**
     * Records the named cases into DIR, or every case (those of {@link #CASES} and
     * {@link #COMMIT_ON_SNAPSHOT}) when no name is given; an unknown name is bad usage.
     */
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: BrokenTraces DIR [CASE...]");
            System.exit(2);
        }
        List<Case> all = new java.util.ArrayList<>(CASES);
        all.add(COMMIT_ON_SNAPSHOT);
        List<String> names = List.of(args).subList(1, args.length);
        for (String n : names) {
            if (all.stream().noneMatch(c -> c.name().equals(n))) {
                System.err.println("BrokenTraces: no case named '" + n + "'");
                System.exit(2);
            }
        }
        for (Case c : all) {
            if (names.isEmpty() || names.contains(c.name())) {
                record(c, Path.of(args[0]), System.out);
            }
        }
    }
}

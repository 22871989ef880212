package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.barrier.BrokenLifecycleHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.task.RunEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's features in a few seeded runs each, with a low step limit: the runtime's share
 * of mutation testing (docs/mutation-testing.md), where the many-run tests
 * ({@link SeededSimulationRunsTest}, {@link LifecycleRuntimeTest}, {@link AlternatingSimulationTest},
 * {@link SinkSimulationTest}, {@link BrokenSinkTest}, {@link BrokenLifecycleTest},
 * {@link FanInSimulationTest}) are left out because every mutant of the step loop would run them.
 * Each test runs a handful of seeds of one feature (end of input with aborts and cancellations,
 * declines, alternating mode with timeouts and savepoints, the two-phase-commit sink with lost
 * notifications), asserts that the feature was exercised, and that a broken twin of the part it
 * checks is caught, so that a mutant that switches a check off fails here, in a second or two.
 */
@Timeout(30)
class BoundedSeededRunsTest {

    /**
     * The step limit of these runs: the longest of them takes 654 steps (measured), so a mutant that
     * keeps a run from finishing fails it (Termination) at 20,000 steps instead of spinning to the
     * 200,000 of {@link SimulationRuntimeTest#withFailures} (a PIT time-out).
     */
    static final long MAX_STEPS = 20_000;

    private static final List<BarrierMode> MODES =
            List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned(), BarrierHandlers.atLeastOnce());

    private static RunOptions.Builder options(long seed) {
        return SimulationRuntimeTest.withFailures(seed).maxSteps(MAX_STEPS);
    }

    private static void assertHolds(RunResult r, String what) {
        if (!r.holds()) {
            fail(what + ": " + r.violations().stream().limit(5).map(Violation::message).toList());
        }
    }

    /** Counts the observed actions (and declines, aborts that name a decliner). */
    private static final class Counts {
        final Map<String, Integer> actions = new TreeMap<>();

        void on(RunEvent event) {
            actions.merge(event.name(), 1, Integer::sum);
            if (event instanceof RunEvent.AbortCheckpoint a && a.declinedBy() != null) {
                actions.merge("declined", 1, Integer::sum);
            }
            if (event instanceof RunEvent.FailAndRestore f && f.restored() > 0) {
                actions.merge("restoredACheckpoint", 1, Integer::sum);
            }
            if (event instanceof RunEvent.FailAndRestore f && f.recommitted().values().stream().anyMatch(v -> !v.isEmpty())) {
                actions.merge("recommitted", 1, Integer::sum);
            }
        }

        int of(String action) {
            return actions.getOrDefault(action, 0);
        }
    }

    @Test
    void everyTopologyAndModeToTheEndOfInputWithAbortsAndFailures() {
        Counts counts = new Counts();
        long checkpoints = 0;
        long failures = 0;
        long persisted = 0;
        for (long seed = 0; seed < 24; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            BarrierMode mode = MODES.get((int) ((seed / 4) % 3));
            RunOptions o = options(seed).abortProbability(0.02).endOfInput(seed % 2 == 0)
                    .maxConcurrentAligned(mode.oneInFlight() ? 1 : 2).observer(counts::on).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, o).run();
            assertHolds(r, "seed " + seed + ", " + topology + ", " + mode.name());
            checkpoints += r.checkpoints().size();
            failures += r.failures();
            persisted += r.checkpoints().stream().mapToLong(c -> c.persistedRecordCount()).sum();
        }
        assertTrue(checkpoints > 24, "checkpoints: " + checkpoints);
        assertTrue(failures > 6, "failures: " + failures);
        assertTrue(persisted > 0, "in-flight records persisted: " + persisted);
        for (String exercised : List.of("AbortCheckpoint", "NotifyCheckpointAborted", "ReceiveCancelBarrier",
                "restoredACheckpoint", "SendEndOfPartition", "ReceiveEndOfPartition")) {
            assertTrue(counts.of(exercised) > 0, exercised + " never happened: " + counts.actions);
        }
    }

    @Test
    void declinedCheckpointsAreAbortedAndLaterOnesComplete() {
        Counts counts = new Counts();
        long completed = 0;
        for (long seed = 0; seed < 9; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            BarrierMode mode = MODES.get((int) (seed % 3));
            RunOptions o = options(seed).declineProbability(0.2).maxConcurrentAligned(mode.oneInFlight() ? 1 : 2)
                    .endOfInput(true).observer(counts::on).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, o).run();
            assertHolds(r, "seed " + seed + ", " + mode.name());
            completed += r.checkpoints().size();
        }
        assertTrue(counts.of("declined") > 0, "no decline: " + counts.actions);
        assertTrue(completed > 0, "no checkpoint completed");
    }

    @Test
    void alternatingRunsSwitchTimeOutAndTakeSavepoints() {
        Counts counts = new Counts();
        long switched = 0;
        long savepoints = 0;
        for (long seed = 0; seed < 12; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            BarrierMode mode = BarrierHandlers.alternating(seed % 7);
            RunOptions o = options(seed).maxCheckpoints(8).savepointEvery(seed % 3 == 0 ? 2 : 0)
                    .observer(counts::on).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, o).run();
            assertHolds(r, "seed " + seed + ", " + topology + ", timeout " + mode.alignedTimeoutMillis());
            for (long sp : r.savepoints()) {
                assertFalse(r.switchedCheckpoints().contains(sp), "savepoint " + sp + " switched (seed " + seed + ")");
            }
            switched += r.switchedCheckpoints().size();
            savepoints += r.savepoints().size();
        }
        assertTrue(switched > 0, "no checkpoint switched");
        assertTrue(savepoints > 0, "no savepoint");
        assertTrue(counts.of("TimeoutAlignment") > 0 && counts.of("PrioritizeBarrier") > 0, counts.actions.toString());
    }

    private static SimulationRuntime sinkRun(long seed, Function<SinkDirectory, TransactionalFileSink> sink,
                                             Counts counts) {
        RunOptions o = options(seed).maxFailures(3).failureAfterCompletionProbability(0.3).endOfInput(seed % 3 != 0)
                .observer(counts::on).build();
        return new SimulationRuntime(SinkSimulationTest.job(seed, new MemorySinkDirectory(), 1 + (int) (seed % 2), sink),
                SinkSimulationTest.mode(seed), o);
    }

    @Test
    void theTransactionalSinkCommitsEveryRecordOnceDespiteLostNotifications() {
        Counts counts = new Counts();
        int lost = 0;
        for (long seed = 0; seed < 10; seed++) {
            SimulationRuntime sim = sinkRun(seed, TransactionalFileSink::new, counts);
            assertHolds(sim.run(), "sink seed " + seed);
            lost += sim.lostNotifications();
        }
        assertTrue(lost > 0, "no notification lost to a failure");
        assertTrue(counts.of("NotifyCheckpointComplete") > 0, counts.actions.toString());
        assertTrue(counts.of("recommitted") > 0, "no restore re-committed a transaction: " + counts.actions);
    }

    /** The invariants that caught {@code broken} in the first of {@code seeds} runs that reports any. */
    private static Set<String> firstCaught(String what, int seeds, LongFunction<RunResult> run) {
        for (long seed = 0; seed < seeds; seed++) {
            RunResult r;
            try {
                r = run.apply(seed);
            } catch (IllegalStateException e) {
                continue; // the engine refused a step the bug led to
            }
            if (!r.violations().isEmpty()) {
                return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
            }
        }
        return fail(what + " was not caught in " + seeds + " runs");
    }

    private static Set<String> brokenMode(String what, int seeds, LongFunction<BarrierMode> broken, int savepointEvery,
                                          boolean endOfInput) {
        return firstCaught(what, seeds, seed -> {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunOptions o = options(seed).maxCheckpoints(8).savepointEvery(savepointEvery).endOfInput(endOfInput)
                    .maxFailures(endOfInput ? 0 : 2).abortProbability(endOfInput ? 0.03 : 0.002)
                    .maxConcurrentAligned(2).build();
            return new SimulationRuntime(topology.build().apply(seed), broken.apply(seed), o).run();
        });
    }

    private static Set<String> brokenSink(String bug, long firstSeed) {
        return firstCaught(bug, 30, seed -> sinkRun(firstSeed + seed, BrokenSinks.ALL.get(bug), new Counts()).run());
    }

    @Test
    void eachCheckOfTheStepLoopCatchesItsBrokenTwin() {
        // perform(): SwitchPropagatesInv after each operator step in alternating mode
        assertTrue(brokenMode("alternatingNotPropagated", 60, s -> BrokenHandlers.alternatingNotPropagated(s % 21), 0, false)
                .contains(CutInvariants.SWITCH_PROPAGATES));
        // completeCheckpoint(): the alternating checks of a completed checkpoint, savepoints included
        assertTrue(brokenMode("alternatingSavepointsSwitch", 60, s -> BrokenHandlers.alternatingSavepointsSwitch(s % 21), 1,
                false).contains(CutInvariants.SAVEPOINT_NO_CHANNEL_STATE));
        // (the aligned and unaligned cut checks of completeCheckpoint(): SimulationRuntimeTest's broken handlers)
        // result(): a run that cannot finish is a Termination violation
        assertTrue(brokenMode("abortKeepsInputsBlocked", 60, s -> BrokenLifecycleHandlers.abortKeepsInputsBlocked(), 0, true)
                .contains(SimulationRuntime.TERMINATION));
        // checkNoDuplicateOutput() after a commit or a restore, and result()'s OutputExactlyOnceInv
        // (from seed 8: seed 7's run shows its duplicate only to the final output check, OutputExactlyOnceInv)
        assertTrue(brokenSink("BugCommitOnSnapshot", 8).contains(CutInvariants.NO_DUPLICATE_OUTPUT));
        assertTrue(brokenSink("BugNoFinalCheckpoint", 0).contains(CutInvariants.OUTPUT_EXACTLY_ONCE));
    }
}

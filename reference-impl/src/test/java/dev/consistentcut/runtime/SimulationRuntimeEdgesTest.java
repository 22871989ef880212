package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.JoinSteps.checkpointAllAcknowledged;
import static dev.consistentcut.runtime.JoinSteps.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Edges of {@link SimulationRuntime} no other test pins down: the aligned coordinator's clock (a
 * checkpoint's trigger and completion times), which checkpoints stay completable after a
 * completion and after a failure, the run of consecutive store failures a completion ends, the
 * idle clock's jump to the next trigger for a promised failure, the re-commit a restore checks at
 * once, the progress line of a failure, and declines drawn when they are on. Most runs are
 * scheduled from outside ({@link SimulationRuntime#takeStep}), so every step is known; each test
 * asserts what a run did (ids, statuses, counts, exact lines), never how long it took.
 */
@Timeout(20)
class SimulationRuntimeEdgesTest {




    private static Step complete(long c) {
        return new Step(Action.COMPLETE_CHECKPOINT, null, -1, c);
    }

    private static List<Long> completableIds(SimulationRuntime rt) {
        return rt.enabledSteps().stream().filter(s -> s.action() == Action.COMPLETE_CHECKPOINT)
                .map(Step::checkpointId).toList();
    }

    private static List<Long> ids(List<CompletedCheckpoint> cps) {
        return cps.stream().map(CompletedCheckpoint::id).toList();
    }

    private static List<Long> completedIds(RunResult r) {
        return r.checkpoints().stream().map(CheckpointSummary::id).toList();
    }

    private static Set<String> names(RunResult r) {
        return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
    }

    // ------------------------------------------------------------------ the aligned coordinator's clock

    /** The aligned coordinator reads the step counter: trigger and completion times are the steps they happened at. */
    @Test
    void anAlignedCheckpointsTimesAreTheStepsOfItsTriggerAndCompletion() {
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder());
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0);
        take(rt, Action.PROCESS_RECORD, "join#0", 0, 0);
        take(rt, Action.PROCESS_RECORD, "sink#0", 0, 0);
        assertEquals(3, rt.result().steps());
        checkpointAllAcknowledged(rt, 1); // triggered at step 3
        assertEquals(9, rt.result().steps());
        rt.takeStep(complete(1)); // completed at step 9
        CompletedCheckpoint cp = rt.completedCheckpoints().get(0);
        assertEquals(3, cp.stats().triggerTime());
        assertEquals(9, cp.stats().completionTime());
        assertEquals(6, cp.stats().duration());
    }

    // ------------------------------------------------------------------ what stays completable

    /**
     * Two checkpoints acknowledged by every task (the first out of flight once acknowledged, so the
     * second may start); completing the older one subsumes nothing: the newer stays offered and
     * completes.
     */
    @Test
    void completingTheOlderCheckpointLeavesTheNewerCompletable() {
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder());
        checkpointAllAcknowledged(rt, 1);
        checkpointAllAcknowledged(rt, 2);
        assertEquals(List.of(1L, 2L), completableIds(rt));
        rt.takeStep(complete(1));
        assertEquals(CheckpointStatus.PENDING, rt.coordinator().status(2));
        assertEquals(List.of(2L), completableIds(rt), "CompleteCheckpoint(2) no longer offered after 1 completed");
        rt.takeStep(complete(2));
        assertEquals(List.of(1L, 2L), ids(rt.completedCheckpoints()));
        assertEquals(List.of(), completableIds(rt));
    }

    /** A failure aborts the acknowledged checkpoint: its CompleteCheckpoint is no longer offered; the next one completes. */
    @Test
    void aFailureLeavesNoCheckpointCompletable() {
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder());
        checkpointAllAcknowledged(rt, 1);
        assertEquals(List.of(1L), completableIds(rt));
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        assertEquals(CheckpointStatus.ABORTED, rt.coordinator().status(1));
        assertEquals(List.of(), completableIds(rt), "CompleteCheckpoint of an aborted checkpoint offered after the failure");
        checkpointAllAcknowledged(rt, 2);
        assertEquals(List.of(2L), completableIds(rt));
        rt.takeStep(complete(2));
        assertEquals(List.of(2L), ids(rt.completedCheckpoints()));
    }

    // ------------------------------------------------------------------ consecutive store failures

    /**
     * One store failure tolerated: failures of checkpoints 1 and 3 are not consecutive, since 2
     * completed between them; the job goes on. Failures of 1 and 2 are consecutive: the second
     * fails the job.
     */
    @Test
    void aCompletionEndsTheRunOfConsecutiveStoreFailures() {
        List<String> progress = new ArrayList<>();
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder().tolerableFailedCheckpoints(1)
                .store(() -> new FailingStore(Set.of(1L, 3L))).progress(progress::add));
        for (long c = 1; c <= 3; c++) {
            checkpointAllAcknowledged(rt, c);
            rt.takeStep(complete(c));
        }
        assertEquals(List.of(2L), ids(rt.completedCheckpoints()));
        assertEquals(CheckpointStatus.ABORTED, rt.coordinator().status(1));
        assertEquals(CheckpointStatus.ABORTED, rt.coordinator().status(3));
        assertEquals(2, progress.size(), progress.toString());
        assertTrue(progress.get(1).startsWith("checkpoint 3 declined (aborted; the job goes on): "), progress.get(1));
        assertTrue(progress.get(1).endsWith(" [1 consecutive failure(s), 1 tolerated]"), progress.get(1));

        SimulationRuntime consecutive = JoinSteps.join(RunOptions.builder().tolerableFailedCheckpoints(1)
                .store(() -> new FailingStore(Set.of(1L, 2L))));
        checkpointAllAcknowledged(consecutive, 1);
        consecutive.takeStep(complete(1));
        checkpointAllAcknowledged(consecutive, 2);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> consecutive.takeStep(complete(2)));
        assertInstanceOf(TooManyFailedCheckpointsException.class, e.getCause(), e.toString());
    }

    // ------------------------------------------------------------------ the promised failure when idle

    /**
     * No trigger is ever drawn (probability 0): only the idle clock's jump triggers, once nothing
     * else is enabled, as long as a failure is promised after a checkpoint not yet completed and
     * the checkpoint budget lasts.
     */
    @Test
    void anIdleRunTriggersTheCheckpointsAPromisedFailureWaitsFor() {
        RunOptions.Builder o = RunOptions.builder().seed(7).triggerProbability(0).failAfterCheckpoint(2);
        RunResult r = new SimulationRuntime(Topologies.demo(7), BarrierHandlers.aligned(), o.build()).run();
        assertTrue(r.finished() && r.holds(), r.violations().toString());
        assertEquals(List.of(1L, 2L), completedIds(r));
        assertEquals(1, r.failures());

        RunResult budget = new SimulationRuntime(Topologies.demo(7), BarrierHandlers.aligned(), o.maxCheckpoints(1).build()).run();
        assertTrue(budget.finished() && budget.holds(), budget.violations().toString());
        assertEquals(List.of(1L), completedIds(budget), "the idle clock triggered beyond the checkpoint budget");
        assertEquals(0, budget.failures(), "the failure was promised after a second checkpoint, which never came");

        RunResult none = new SimulationRuntime(Topologies.demo(7), BarrierHandlers.aligned(),
                RunOptions.builder().seed(7).triggerProbability(0).build()).run();
        assertTrue(none.finished() && none.holds(), none.violations().toString());
        assertEquals(List.of(), completedIds(none), "no failure promised: an idle run just ends");
    }

    // ------------------------------------------------------------------ a restore's own output check

    /**
     * {@code BugCommitNotIdempotent}: checkpoint 1 is committed at its notification; a failure then
     * restores it and the sink re-commits its transaction as a copy. The failure is the last step:
     * only the restore's own check names the duplicate ({@code NoDuplicateOutputInv}; the end's
     * {@code OutputExactlyOnceInv} is another check).
     */
    @Test
    void aDuplicateRecommittedByTheRestoreIsCaughtByTheRestoresOwnCheck() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0))
                .operator("sink", 1, () -> new BrokenSinks.CommitNotIdempotent(dir))
                .edge("s1", "sink", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().triggerProbability(0).build());
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0);
        take(rt, Action.PROCESS_RECORD, "sink#0", 0, 0);
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, 1);
        take(rt, Action.RECEIVE_BARRIER, "sink#0", 0, 1);
        rt.takeStep(complete(1));
        take(rt, Action.NOTIFY_CHECKPOINT_COMPLETE, "sink#0", -1, 1);
        RunResult before = rt.result();
        assertTrue(before.finished(), before.violations().toString());
        assertEquals(List.of(), before.violations(), "the first commit is no duplicate");
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        RunResult after = rt.result();
        assertTrue(names(after).contains(CutInvariants.NO_DUPLICATE_OUTPUT), after.violations().toString());
        assertEquals(List.of(), rt.enabledSteps(), "the failure is the last step");
    }

    // ------------------------------------------------------------------ the progress line of a failure

    @Test
    void eachFailureWritesOneProgressLineNamingWhatItRestored() {
        List<String> progress = new ArrayList<>();
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder().progress(progress::add));
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        checkpointAllAcknowledged(rt, 1);
        rt.takeStep(complete(1));
        assertEquals(8, rt.result().steps());
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        assertEquals(List.of("failure 1 at step 0: restored the initial state", "failure 2 at step 8: restored checkpoint 1"),
                progress);
    }

    // ------------------------------------------------------------------ declines

    /**
     * With a decline probability of 1 every checkpoint is declined by the first operator its barrier
     * reaches: the coordinator aborts each once (one {@code AbortCheckpoint} with {@code declinedBy}
     * per trigger), none completes, and the run still holds.
     */
    @Test
    void aCertainDeclineAbortsEveryCheckpoint() {
        AtomicInteger triggers = new AtomicInteger();
        List<Object> decliners = new ArrayList<>();
        RunOptions o = RunOptions.builder().seed(3).triggerProbability(0.1).maxCheckpoints(3).declineProbability(1)
                .observer(e -> {
                    if (e instanceof RunEvent.TriggerCheckpoint) {
                        triggers.incrementAndGet();
                    } else if (e instanceof RunEvent.AbortCheckpoint a && a.declinedBy() != null) {
                        decliners.add(a.declinedBy());
                    }
                }).build();
        RunResult r = new SimulationRuntime(Topologies.demo(3), BarrierHandlers.aligned(), o).run();
        assertTrue(r.finished() && r.holds(), r.violations().toString());
        assertTrue(triggers.get() >= 2, "triggers: " + triggers.get());
        assertEquals(List.of(), completedIds(r));
        assertEquals(triggers.get(), r.abortedCheckpoints());
        assertEquals(triggers.get(), decliners.size(), decliners.toString());
        assertTrue(decliners.stream().allMatch(t -> t.toString().startsWith("count#")), decliners.toString());
    }
}

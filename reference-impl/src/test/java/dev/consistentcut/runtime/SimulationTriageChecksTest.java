package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenLifecycleHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where and when the simulation checks, pinned step by step (every run scheduled from outside
 * with {@link SimulationRuntime#takeStep}, so each assertion names the step that must or must not
 * report): the final checkpoint held back while one is in flight, {@code UnalignedNeverBlocksInv}
 * asked of overtaking tasks at their barriers only, the duplicate a notification commits, a
 * failure injected through {@link JobRuntime#failAndRestore()} checking itself, and which trigger
 * is the n-th (savepoints). Each asserts ids, names, counts or exact messages.
 */
@Timeout(20)
class SimulationTriageChecksTest {

    private static Set<String> names(RunResult r) {
        return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
    }

    /** Takes the one enabled step of {@code task} with action {@code a} (any input, any checkpoint). */
    private static void next(SimulationRuntime rt, Action a, String task) {
        List<Step> found = rt.enabledSteps().stream().filter(s -> s.action() == a && task.equals(s.task())).toList();
        if (found.size() != 1) {
            fail(a + " of " + task + ": " + found.size() + " enabled; enabled: " + rt.enabledSteps());
        }
        rt.takeStep(found.get(0));
    }

    /** Takes {@code task}'s step with action {@code a} on input {@code input} (its checkpoint as enabled). */
    private static void next(SimulationRuntime rt, Action a, String task, int input) {
        List<Step> found = rt.enabledSteps().stream()
                .filter(s -> s.action() == a && task.equals(s.task()) && s.input() == input).toList();
        if (found.size() != 1) {
            fail(a + " of " + task + ", input " + input + ": " + found.size() + " enabled; enabled: " + rt.enabledSteps());
        }
        rt.takeStep(found.get(0));
    }

    private static void trigger(SimulationRuntime rt) {
        rt.takeStep(new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0));
    }

    private static void complete(SimulationRuntime rt, long c) {
        rt.takeStep(new Step(Action.COMPLETE_CHECKPOINT, null, -1, c));
    }

    // ------------------------------------------------------------------ the final checkpoint

    /**
     * {@code BugEndedInputNotCountedAsArrived} (BrokenLifecycleHandlers): s1 ends at once; the join
     * takes checkpoint 1's barrier from s2 and waits forever for one from the ended s1, so 1 stays
     * in flight and nothing is enabled, while the sink still holds an open transaction. The final
     * checkpoint (FLIP-147) is one in flight at a time: the simulation does not ask the coordinator
     * for a second one (which it would refuse) but ends, reporting {@code Termination} with 1 in flight.
     */
    @Test
    void theFinalCheckpointWaitsWhileAnotherIsInFlight() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys()).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .operator("sink", 1, () -> new TransactionalFileSink(dir))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .edge("join", "sink", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BrokenLifecycleHandlers.endedInputNotCountedAsArrived(),
                RunOptions.builder().triggerProbability(0).endOfInput(true).build());
        next(rt, Action.SEND_END_OF_PARTITION, "s1#0");
        next(rt, Action.RECEIVE_END_OF_PARTITION, "join#0");
        next(rt, Action.EMIT_RECORD, "s2#0");
        next(rt, Action.PROCESS_RECORD, "join#0");
        next(rt, Action.PROCESS_RECORD, "sink#0"); // the sink's open transaction
        trigger(rt);
        next(rt, Action.INJECT_BARRIER, "s2#0");
        next(rt, Action.RECEIVE_BARRIER, "join#0"); // waits for s1's barrier, which never comes
        next(rt, Action.SEND_END_OF_PARTITION, "s2#0");
        assertEquals(List.of(), rt.enabledSteps());
        assertEquals(Set.of(1L), rt.coordinator().inFlight());

        assertFalse(rt.step(), "a second checkpoint was asked for while 1 is in flight");
        RunResult r = rt.result();
        List<String> termination = r.violations().stream().filter(v -> v.invariant().equals(SimulationRuntime.TERMINATION))
                .map(Violation::message).toList();
        assertEquals(List.of("the run stopped after 9 steps before finishing: no step is enabled; sources exhausted true,"
                + " channels empty false, in flight [1], every task ended false, sinks committed everything false"),
                termination, r.violations().toString());
    }

    // ------------------------------------------------------------------ UnalignedNeverBlocksInv

    /** s1, s2 -> join, capacity 1, one record each. */
    private static SimulationRuntime join(BarrierMode mode) {
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        return new SimulationRuntime(job, mode, RunOptions.builder().triggerProbability(0).build());
    }

    /** Aligned barriers block: an aligned task's blocked input after its first barrier is no violation. */
    @Test
    void anAlignedTaskBlockingAtItsFirstBarrierIsNotHeldToTheUnalignedClaim() {
        SimulationRuntime rt = join(BarrierHandlers.aligned());
        trigger(rt);
        next(rt, Action.INJECT_BARRIER, "s1#0");
        next(rt, Action.RECEIVE_BARRIER, "join#0");
        assertTrue(rt.operatorTask("join#0").isBlocked(0), "the aligned join blocks s1's input");
        assertEquals(List.of(), rt.result().violations().stream()
                .filter(v -> !v.invariant().equals(SimulationRuntime.TERMINATION)).toList());
    }

    /** A twin of unaligned mode whose tasks align (block) like aligned ones; barriers still overtake. */
    private record BlockingUnaligned(String name, BarrierHandlerState initialState, boolean overtaking)
            implements BarrierMode {
    }

    /**
     * The spec's {@code UnalignedNeverBlocksInv} is asked after each barrier an overtaking task
     * receives: the twin's join blocks s1's input at its first barrier, and that very step reports
     * it (taken as the last step, so no later check could).
     */
    @Test
    void anUnalignedTaskThatBlocksIsCaughtAtTheBarrierItBlocksOn() {
        SimulationRuntime rt = join(new BlockingUnaligned("broken-unaligned-blocking",
                BarrierHandlers.aligned().initialState(), true));
        trigger(rt);
        next(rt, Action.INJECT_BARRIER, "s1#0");
        assertEquals(List.of(), rt.result().violations().stream()
                .filter(v -> !v.invariant().equals(SimulationRuntime.TERMINATION)).toList());
        next(rt, Action.RECEIVE_BARRIER, "join#0");
        assertTrue(rt.operatorTask("join#0").isBlocked(0));
        List<String> found = rt.result().violations().stream()
                .filter(v -> v.invariant().equals(CutInvariants.UNALIGNED_NEVER_BLOCKS)).map(Violation::message).toList();
        assertEquals(List.of("UnalignedNeverBlocksInv violated: task join#0 blocks input 0"), found);
    }

    // ------------------------------------------------------------------ a notification's commit

    /**
     * A store that loses every checkpoint it was given (its latest is always empty): the failure
     * after checkpoint 1 was committed restores the initial state, the record is read again and
     * checkpoint 2's notification commits it a second time. That notification, the last step,
     * reports the duplicate itself ({@code NoDuplicateOutputInv}; the end's check would name
     * {@code OutputExactlyOnceInv}).
     */
    @Test
    void aDuplicateCommittedByANotificationIsCaughtAtThatNotification() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0))
                .operator("sink", 1, () -> new TransactionalFileSink(dir))
                .edge("s1", "sink", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .triggerProbability(0).store(() -> new ForwardingStore(2) {
                    @Override
                    public Optional<CompletedCheckpoint> latest() {
                        return Optional.empty(); // THE BUG: nothing stored is ever restored
                    }
                }).build());
        for (long c = 1; c <= 2; c++) {
            if (c == 2) {
                rt.takeStep(new Step(Action.FAIL_AND_RESTORE, null, -1, 0));
            }
            next(rt, Action.EMIT_RECORD, "s1#0");
            next(rt, Action.PROCESS_RECORD, "sink#0");
            trigger(rt);
            next(rt, Action.INJECT_BARRIER, "s1#0");
            next(rt, Action.RECEIVE_BARRIER, "sink#0");
            complete(rt, c);
            assertFalse(names(rt.result()).contains(CutInvariants.NO_DUPLICATE_OUTPUT), rt.result().violations().toString());
            next(rt, Action.NOTIFY_CHECKPOINT_COMPLETE, "sink#0");
        }
        assertEquals(List.of(), rt.enabledSteps(), "the second notification is the last step");
        assertTrue(names(rt.result()).contains(CutInvariants.NO_DUPLICATE_OUTPUT), rt.result().violations().toString());
    }

    // ------------------------------------------------------------------ a failure from outside

    /**
     * {@link JobRuntime#failAndRestore()} called directly (not as a scheduled step, whose own
     * after-step checks would run too): a store restoring the older of two completed checkpoints
     * is caught by the failure's own checks ({@code RestorePointMonotoneProp}, {@code RestorePointInv}).
     */
    @Test
    void aFailureInjectedFromOutsideChecksTheRestorePointItself() {
        JobGraph job = JobGraph.builder().defaultCapacity(2)
                .source("s1", InMemorySourceLog.ofKeys(0, 1)).source("s2", InMemorySourceLog.ofKeys(0, 1))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .triggerProbability(0).store(BrokenOrderAndRestoreTwins::keepingAnOlderRestorePoint).build());
        for (long c = 1; c <= 2; c++) {
            trigger(rt);
            next(rt, Action.INJECT_BARRIER, "s1#0");
            next(rt, Action.INJECT_BARRIER, "s2#0");
            next(rt, Action.RECEIVE_BARRIER, "join#0", 0);
            next(rt, Action.RECEIVE_BARRIER, "join#0", 1);
            complete(rt, c);
        }
        assertEquals(Set.of(SimulationRuntime.TERMINATION), names(rt.result()));
        rt.failAndRestore();
        assertEquals(1, rt.result().failures());
        Set<String> names = names(rt.result());
        assertTrue(names.contains(CutInvariants.RESTORE_POINT_MONOTONE), names.toString());
        assertTrue(names.contains(CutInvariants.RESTORE_POINT), names.toString());
    }

    // ------------------------------------------------------------------ which trigger is the n-th

    /** Every third trigger is a savepoint: of checkpoints 1 to 4, only 3. */
    @Test
    void everyThirdTriggerIsASavepoint() {
        SimulationRuntime rt = JoinSteps.join(RunOptions.builder().savepointEvery(3));
        for (long c = 1; c <= 4; c++) {
            JoinSteps.checkpointAllAcknowledged(rt, c);
            complete(rt, c);
        }
        RunResult r = rt.result();
        assertEquals(List.of(1L, 2L, 3L, 4L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertEquals(Set.of(3L), r.savepoints());
    }

}

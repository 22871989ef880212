package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's checks that only the end of a run, a failure or a commit makes: the final
 * state's checks (which apply to a finished run only, and with what), the {@code Termination}
 * report's wording, the checks a restore re-runs at once (so a failure that is the last step is
 * still checked), the lost completion notifications, and a failure promised after the n-th
 * checkpoint striking once. One run each, most scheduled from outside ({@link SimulationRuntime#takeStep}).
 */
@Timeout(20)
class SimulationFinalChecksTest {

    private static Set<String> names(RunResult r) {
        return r.violations().stream().map(Violation::invariant).collect(java.util.stream.Collectors.toSet());
    }

    /** A store whose restore (latest) is {@code change} of what it stored; the checkpoint the coordinator completes is intact. */
    private static CheckpointStore restoring(UnaryOperator<CompletedCheckpoint> change, Set<Long> damaged) {
        return new ForwardingStore(2) {
            @Override
            public Optional<CompletedCheckpoint> latest() {
                return inner.latest().map(change);
            }

            @Override
            public Set<Long> damagedIds() {
                return damaged;
            }
        };
    }

    // ------------------------------------------------------------------ the final state

    /**
     * A store that restores every source from its beginning (offsets 0) but the tasks' state as
     * checkpointed: every record before the checkpoint is counted twice. Each checkpoint is a
     * consistent cut when it completes; only the final state's {@code ExactlyOnceInv} sees it.
     */
    @Test
    void aRestoreThatReplaysFromTheStartIsCaughtByTheFinalStateOnly() {
        CheckpointStore store = restoring(c -> {
            Map<String, Long> zero = new HashMap<>();
            c.sourceOffsets().keySet().forEach(s -> zero.put(s, 0L));
            return new CompletedCheckpoint(c.id(), zero, c.taskSnapshots(), c.channelState(), c.stats());
        }, Set.of());
        RunOptions o = RunOptions.builder().seed(1).triggerProbability(0.1).maxCheckpoints(1).failAfterCheckpoint(1)
                .store(() -> store).build();
        RunResult r = new SimulationRuntime(Topologies.demo(1), BarrierHandlers.aligned(), o).run();
        assertTrue(r.finished(), r.violations().toString());
        assertEquals(1, r.failures());
        assertTrue(names(r).contains(CutInvariants.EXACTLY_ONCE), r.violations().toString());
        assertFalse(names(r).contains(SimulationRuntime.TERMINATION), r.violations().toString());
    }

    @Test
    void withoutTheLedgersTheFinalStateIsNotChecked() {
        RunResult r = new SimulationRuntime(Topologies.demo(2), BarrierHandlers.aligned(),
                RunOptions.builder().seed(2).trackProcessed(false).build()).run();
        assertTrue(r.finished());
        assertEquals(List.of(), r.violations());
        assertFalse(r.holds(), "nothing was checked");
    }

    private static JobGraph sinkJob(MemorySinkDirectory dir) {
        return SinkSimulationTest.job(11, dir, 1, TransactionalFileSink::new);
    }

    @Test
    void atLeastOnceOutputIsNotHeldToExactlyOnce() {
        // at-least-once may commit a record twice after a restore: no output check applies
        int duplicates = 0;
        for (long seed = 0; seed < 4; seed++) {
            MemorySinkDirectory dir = new MemorySinkDirectory();
            SimulationRuntime sim = new SimulationRuntime(sinkJob(dir), BarrierHandlers.atLeastOnce(),
                    RunOptions.builder().seed(seed).triggerProbability(0.1).failAfterCheckpoint(1).endOfInput(true).build());
            RunResult r = sim.run();
            assertTrue(r.holds(), r.violations().toString());
            CutInvariants inv = new CutInvariants(sim.graph());
            if (!inv.noDuplicateOutput(Map.of("sink#0", sim.operatorTask("sink#0").committedOutput())).isEmpty()) {
                duplicates++;
            }
        }
        assertTrue(duplicates > 0, "no at-least-once run committed a duplicate: the test shows nothing");
    }

    /** {@code BugNoFinalCheckpoint}: the last transaction is never committed; only the end's output check sees it. */
    @Test
    void aSinkThatNeverCommitsItsLastTransactionIsCaughtByTheEndsOutputCheck() {
        for (long seed = 0; seed < 3; seed++) {
            RunResult r = new SimulationRuntime(SinkSimulationTest.job(seed, new MemorySinkDirectory(), 1,
                    dev.consistentcut.sink.BrokenSinks.ALL.get("BugNoFinalCheckpoint")), BarrierHandlers.aligned(),
                    RunOptions.builder().seed(seed).triggerProbability(0.05).endOfInput(true).build()).run();
            if (names(r).contains(CutInvariants.OUTPUT_EXACTLY_ONCE)) {
                assertTrue(r.finished(), r.violations().toString());
                return;
            }
        }
        org.junit.jupiter.api.Assertions.fail("BugNoFinalCheckpoint was not caught as OutputExactlyOnceInv");
    }

    // ------------------------------------------------------------------ the Termination report

    /** s1 -> m, one record, end of input on: scheduled from outside up to the point before the end. */
    private static SimulationRuntime oneRecord(boolean endOfInput, long maxSteps) {
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0))
                .operator("m", 1, () -> new MapOperator(v -> v))
                .edge("s1", "m", Partitioning.BROADCAST)
                .build();
        return new SimulationRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().triggerProbability(0).endOfInput(endOfInput).maxSteps(maxSteps).build());
    }

    private static String termination(RunResult r) {
        assertFalse(r.finished());
        List<String> found = r.violations().stream().filter(v -> v.invariant().equals(SimulationRuntime.TERMINATION))
                .map(Violation::message).toList();
        assertEquals(1, found.size(), r.violations().toString());
        return found.get(0);
    }

    @Test
    void aRunWhoseTasksHaveNotEndedIsNotFinished() {
        SimulationRuntime rt = oneRecord(true, 1000);
        rt.takeStep(new Step(Action.EMIT_RECORD, "s1#0", -1, 0));
        rt.takeStep(new Step(Action.PROCESS_RECORD, "m#0", 0, 0));
        // sources exhausted, channels empty, nothing in flight: only the end of input is missing
        String m = termination(rt.result());
        assertEquals("the run stopped after 2 steps before finishing: no step is enabled; sources exhausted true,"
                + " channels empty true, in flight [], every task ended false", m);
        RunResult done = rt.run();
        assertTrue(done.finished() && done.holds(), done.violations().toString());
    }

    @Test
    void withoutEndOfInputTheReportLeavesTheTasksOut() {
        SimulationRuntime rt = oneRecord(false, 1000);
        rt.takeStep(new Step(Action.EMIT_RECORD, "s1#0", -1, 0));
        assertEquals("the run stopped after 1 steps before finishing: no step is enabled; sources exhausted true,"
                + " channels empty false, in flight []", termination(rt.result()));
    }

    @Test
    void aRunStoppedByItsStepLimitSaysSo() {
        RunResult r = oneRecord(true, 1).run();
        assertEquals(1, r.steps());
        assertTrue(termination(r).startsWith("the run stopped after 1 steps before finishing: step limit reached;"),
                termination(r));
    }

    @Test
    void aSinkJobsReportSaysWhetherTheSinksCommittedEverything() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        RunResult r = new SimulationRuntime(sinkJob(dir), BarrierHandlers.aligned(),
                RunOptions.builder().seed(3).maxSteps(5).build()).run();
        assertTrue(termination(r).endsWith(", sinks committed everything true"), termination(r));
    }

    // ------------------------------------------------------------------ a failure's own checks

    /** s1, s2 -> join, capacity 2, two records each; checkpoint {@code c} taken from outside, all acknowledged and completed. */
    private static SimulationRuntime join(RunOptions.Builder o, dev.consistentcut.barrier.BarrierMode mode) {
        JobGraph job = JobGraph.builder().defaultCapacity(2)
                .source("s1", InMemorySourceLog.ofKeys(0, 1)).source("s2", InMemorySourceLog.ofKeys(0, 1))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        return new SimulationRuntime(job, mode, o.triggerProbability(0).abortsReachTasks(false).build());
    }

    private static void take(SimulationRuntime rt, Action a, String task, int input, long c) {
        rt.takeStep(new Step(a, task, input, c));
    }

    private static void checkpoint(SimulationRuntime rt, long c) {
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, c);
        take(rt, Action.INJECT_BARRIER, "s2#0", -1, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 0, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 1, c);
        take(rt, Action.COMPLETE_CHECKPOINT, null, -1, c);
    }

    /** The restore point moves back at a failure that is the run's last step: the failure's own checks see it. */
    @Test
    void aFailureThatRestoresAnOlderCheckpointIsCaughtByItsOwnChecks() {
        SimulationRuntime rt = join(RunOptions.builder().store(BrokenOrderAndRestoreTwins::keepingAnOlderRestorePoint),
                BarrierHandlers.aligned());
        checkpoint(rt, 1);
        checkpoint(rt, 2);
        assertEquals(List.of(), rt.result().violations().stream().filter(v -> !v.invariant().equals(SimulationRuntime.TERMINATION)).toList());
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        Set<String> names = names(rt.result());
        assertTrue(names.contains(CutInvariants.RESTORE_POINT_MONOTONE), names.toString());
        assertTrue(names.contains(CutInvariants.RESTORE_POINT), names.toString());
    }

    /** A store that found the newest checkpoint damaged restores the one before: the restore point may move back. */
    @Test
    void aFailureThatRestoresPastADamagedCheckpointIsNoViolation() {
        Set<Long> damaged = new java.util.HashSet<>();
        Map<Long, CompletedCheckpoint> byId = new HashMap<>();
        CheckpointStore store = new CheckpointStore() {
            final InMemoryCheckpointStore inner = new InMemoryCheckpointStore(2);

            @Override
            public void store(CompletedCheckpoint c) {
                inner.store(c);
                byId.put(c.id(), c);
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                return inner.retainedIds().stream().filter(id -> !damaged.contains(id)).reduce((a, b) -> b).map(byId::get);
            }

            @Override
            public List<Long> retainedIds() {
                return inner.retainedIds();
            }

            @Override
            public Set<Long> damagedIds() {
                return Set.copyOf(damaged);
            }
        };
        SimulationRuntime rt = join(RunOptions.builder().store(() -> store), BarrierHandlers.aligned());
        checkpoint(rt, 1);
        checkpoint(rt, 2);
        damaged.add(2L);
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        RunResult r = rt.run();
        assertTrue(r.holds(), r.violations().toString());
    }

    /** Unaligned: the channel state restored reversed, at a failure that is the last step that touches the channel. */
    @Test
    void channelStateRestoredReversedIsCaughtAtTheRestore() {
        SimulationRuntime rt = join(RunOptions.builder().store(() -> BrokenOrderAndRestoreTwins.restoringChannelStateReversed(2)),
                BarrierHandlers.unaligned());
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0);
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0); // both of s1's records queued at the join
        checkpoint(rt, 1); // s1's barrier overtakes them: they are the channel's state
        CompletedCheckpoint cp = rt.completedCheckpoints().get(0);
        assertEquals(2, cp.persistedRecordCount(), "s1's two records persisted: " + cp.channelState());
        take(rt, Action.FAIL_AND_RESTORE, null, -1, 0);
        Set<String> names = names(rt.result());
        assertTrue(names.contains(CutInvariants.FIFO_CHANNEL), rt.result().violations().toString());
    }

    /** A runtime resumed from a store whose checkpoint's channel state comes back reversed: caught as it is built. */
    @Test
    void channelStateResumedReversedIsCaughtAtConstruction() {
        CheckpointStore shared = BrokenOrderAndRestoreTwins.restoringChannelStateReversed(2);
        SimulationRuntime first = join(RunOptions.builder().store(() -> shared), BarrierHandlers.unaligned());
        take(first, Action.EMIT_RECORD, "s1#0", -1, 0);
        take(first, Action.EMIT_RECORD, "s1#0", -1, 0);
        checkpoint(first, 1);
        assertEquals(2, first.completedCheckpoints().get(0).persistedRecordCount());
        SimulationRuntime resumed = join(RunOptions.builder().store(() -> shared), BarrierHandlers.unaligned());
        assertEquals(Set.of(CutInvariants.FIFO_CHANNEL, SimulationRuntime.TERMINATION), names(resumed.result()),
                resumed.result().violations().toString());
    }

    // ------------------------------------------------------------------ lost notifications, failAfterCheckpoint

    @Test
    void aFailureAfterTheSecondCheckpointStrikesOnceAndLosesItsNotification() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        SimulationRuntime sim = new SimulationRuntime(sinkJob(dir), BarrierHandlers.aligned(),
                RunOptions.builder().seed(3).triggerProbability(0.2).failAfterCheckpoint(2).endOfInput(true).build());
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(1, sim.lostNotifications());
    }

    @Test
    void aFailureWithNoNotificationWaitingLosesNone() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        SimulationRuntime sim = new SimulationRuntime(sinkJob(dir), BarrierHandlers.aligned(),
                RunOptions.builder().seed(3).triggerProbability(0).failAtStep(10).endOfInput(true).build());
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(0, sim.lostNotifications());
    }
}

package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's draws, exactly: nothing draws from the run's source before the first step, so a
 * test that injects a scripted source ({@link ScriptedDraws}) knows each draw in advance, and one
 * that keeps the default source knows it is {@code new Random(seed)}. A setting {@code p} is a
 * chance: the event happens when the draw is below {@code p} (a draw equal to {@code p} is no
 * event; with {@code p} set to the very value the script draws, that is pinned); a
 * setting of 0 draws nothing (the next choice is the seed's first draw); and an abort is drawn only
 * among pending checkpoints. Each run is scheduled from outside ({@link SimulationRuntime#takeStep})
 * up to the one {@link SimulationRuntime#step()} under test.
 */
@Timeout(20)
class SimulationTriageDrawsTest {

    /** The value of the scripted runs' first draw, and the probability it is pinned against. */
    private static final double FIRST_DRAW = 0.5;

    /** Draws {@link #FIRST_DRAW}, then picks the first enabled step. */
    private static RunOptions.Builder firstDrawThenFirstStep() {
        return RunOptions.builder().draws(seed -> ScriptedDraws.of(FIRST_DRAW, 0));
    }

    /** The spec's Join without the sink: s1, s2 -> join, broadcast, capacity 1, one record each. */
    private static SimulationRuntime join(RunOptions.Builder o) {
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        return new SimulationRuntime(job, BarrierHandlers.aligned(), o.build());
    }

    private static void take(SimulationRuntime rt, Action a, String task, int input, long c) {
        rt.takeStep(new Step(a, task, input, c));
    }

    // ------------------------------------------------------------------ a draw equal to p is no event

    @Test
    void aFailureDrawEqualToTheFailureProbabilityIsNoFailure() {
        SimulationRuntime rt = join(firstDrawThenFirstStep().maxCheckpoints(0).maxFailures(1)
                .failureProbability(FIRST_DRAW));
        assertTrue(rt.step());
        assertEquals(0, rt.result().failures(), "the first draw equals the failure probability: no failure");
    }

    @Test
    void aTriggerDrawEqualToTheTriggerProbabilityIsNoTrigger() {
        SimulationRuntime rt = join(firstDrawThenFirstStep().triggerProbability(FIRST_DRAW));
        assertTrue(rt.step());
        assertEquals(CheckpointStatus.NONE, rt.coordinator().status(1), "the first draw equals the trigger probability: no trigger");
    }

    /** Checkpoint 1 in flight (so no trigger is drawn), then one step: its first draw is the abort's. */
    @Test
    void anAbortDrawEqualToTheAbortProbabilityIsNoAbort() {
        SimulationRuntime rt = join(firstDrawThenFirstStep().abortProbability(FIRST_DRAW));
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        assertTrue(rt.step());
        assertEquals(CheckpointStatus.PENDING, rt.coordinator().status(1), "the first draw equals the abort probability: no abort");
    }

    /** The join's first barrier of checkpoint 1 draws whether it declines: the run's first draw. */
    @Test
    void aDeclineDrawEqualToTheDeclineProbabilityIsNoDecline() {
        SimulationRuntime rt = join(RunOptions.builder().draws(seed -> ScriptedDraws.of(FIRST_DRAW))
                .declineProbability(FIRST_DRAW));
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, 1);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 0, 1);
        assertEquals(CheckpointStatus.PENDING, rt.coordinator().status(1), "the first draw equals the decline probability: no decline");
    }

    /** s1 -> a transactional sink; checkpoint 1 taken from outside: its completion makes the run's first draw. */
    @Test
    void aFailureAfterCompletionDrawEqualToItsProbabilityIsNoFailure() {
        MemorySinkDirectory dir = new MemorySinkDirectory(); // outlives a restore, as a real sink's files
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0))
                .operator("sink", 1, () -> new TransactionalFileSink(dir))
                .edge("s1", "sink", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(), firstDrawThenFirstStep()
                .maxCheckpoints(1).maxFailures(1).failureAfterCompletionProbability(FIRST_DRAW).build());
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0);
        take(rt, Action.PROCESS_RECORD, "sink#0", 0, 0);
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, 1);
        take(rt, Action.RECEIVE_BARRIER, "sink#0", 0, 1);
        take(rt, Action.COMPLETE_CHECKPOINT, null, -1, 1);
        assertTrue(rt.step());
        assertEquals(0, rt.result().failures(), "the draw equals the probability: no failure after the completion");
        assertEquals(0, rt.lostNotifications());
    }

    // ------------------------------------------------------------------ a setting of 0 draws nothing

    /**
     * The step {@link SimulationRuntime#step()} takes when no occasional step can happen: the
     * enabled step the seed's first {@code nextInt} picks.
     *
     * @return whether one extra draw before it would have picked another step (such seeds show a
     *     draw that should not have been made)
     */
    private static boolean assertTheFirstDrawPicks(SimulationRuntime rt, long seed, List<String> told) {
        List<Step> enabled = rt.enabledSteps();
        assertTrue(enabled.size() >= 2, enabled.toString());
        Step expected = enabled.get(new Random(seed).nextInt(enabled.size()));
        int before = told.size();
        assertTrue(rt.step());
        assertEquals(List.of(expected.action().specName() + " " + expected.task()), told.subList(before, told.size()),
                "seed " + seed + ", enabled " + enabled);
        Random extra = new Random(seed);
        extra.nextDouble();
        return !enabled.get(extra.nextInt(enabled.size())).equals(expected);
    }

    private static final long SEEDS = 8;

    @Test
    void withAnAbortProbabilityOfZeroNoAbortIsDrawn() {
        int telling = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            List<String> told = new ArrayList<>();
            // maxCheckpoints 0: no trigger is drawn; no failure budget: no failure is drawn
            SimulationRuntime rt = join(RunOptions.builder().seed(seed).draws(Random::new).maxCheckpoints(0).abortProbability(0)
                    .observer(e -> told.add(e.name() + " " + (e instanceof RunEvent.TaskEvent t ? t.task() : null))));
            telling += assertTheFirstDrawPicks(rt, seed, told) ? 1 : 0;
        }
        assertTrue(telling > 0, "no seed would show an extra draw");
    }

    /** The join takes checkpoint 1's first barrier with a decline probability of 0: no draw; the next step is the first draw's. */
    @Test
    void withADeclineProbabilityOfZeroABarrierDrawsNothing() {
        int telling = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            List<String> told = new ArrayList<>();
            SimulationRuntime rt = join(RunOptions.builder().seed(seed).draws(Random::new).maxCheckpoints(1).declineProbability(0)
                    .observer(e -> told.add(e.name() + " " + (e instanceof RunEvent.TaskEvent t ? t.task() : null))));
            take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
            take(rt, Action.INJECT_BARRIER, "s1#0", -1, 1);
            take(rt, Action.RECEIVE_BARRIER, "join#0", 0, 1);
            assertEquals(CheckpointStatus.PENDING, rt.coordinator().status(1));
            telling += assertTheFirstDrawPicks(rt, seed, told) ? 1 : 0;
        }
        assertTrue(telling > 0, "no seed would show an extra draw");
    }

    // ------------------------------------------------------------------ the abort's candidates

    /**
     * Aborts that do not reach the tasks: checkpoint 1, aborted, stays in flight until every task
     * acknowledged it. With an abort probability of 1 an abort is drawn at every step, but only a
     * pending checkpoint can be aborted (the spec's {@code AbortCheckpoint(c)} is enabled for a
     * pending {@code c}): with none pending the step is a task's, never a second abort of 1.
     */
    @Test
    void anAbortIsChosenOnlyAmongPendingCheckpoints() {
        List<String> told = new ArrayList<>();
        SimulationRuntime rt = join(RunOptions.builder().seed(1).abortsReachTasks(false).abortProbability(1)
                .observer(e -> told.add(e.name() + " " + (e instanceof RunEvent.TaskEvent t ? t.task() : null))));
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.ABORT_CHECKPOINT, null, -1, 1);
        assertEquals(java.util.Set.of(1L), rt.coordinator().inFlight(), "aborted, still in flight");
        int before = told.size();
        long steps = rt.result().steps();
        assertTrue(rt.step());
        assertEquals(steps + 1, rt.result().steps());
        List<String> now = told.subList(before, told.size());
        assertEquals(1, now.size(), now.toString());
        assertTrue(now.get(0).endsWith("#0"), "a task's step, not an abort: " + now);
    }
}

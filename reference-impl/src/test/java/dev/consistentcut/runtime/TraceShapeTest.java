package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.Step;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator's events as a trace records them (the {@link RunObserver} of
 * {@link RunOptions}), in both runtimes: every {@code TriggerCheckpoint} told once, with new ids in
 * increasing order and the savepoint flag on every n-th; every {@code CompleteCheckpoint} told once,
 * after its trigger, in increasing order, exactly for the checkpoints the result reports; an
 * {@code AbortCheckpoint} for each checkpoint aborted by the coordinator's step. The trace package's
 * validation checks the same events against the spec; these are the runtime package's own.
 */
@Timeout(30)
class TraceShapeTest {

    private static RunObserver recording(List<CoordinatorEvent> events) {
        return e -> events.add(CoordinatorEvent.of(e));
    }

    /** Asserts the trigger and completion events of one run against its result; returns the triggers told. */
    private static int assertShape(List<CoordinatorEvent> events, RunResult r, int savepointEvery) {
        List<Long> triggers = new ArrayList<>();
        List<Long> completions = new ArrayList<>();
        Set<Long> savepoints = new TreeSet<>();
        Set<Long> aborted = new HashSet<>();
        for (CoordinatorEvent e : events) {
            switch (e.action()) {
                case "TriggerCheckpoint" -> {
                    long c = e.checkpoint();
                    assertTrue(triggers.isEmpty() || c > triggers.get(triggers.size() - 1), "trigger " + c + " after " + triggers);
                    triggers.add(c);
                    boolean savepoint = e.savepoint();
                    assertEquals(savepointEvery > 0 && triggers.size() % savepointEvery == 0, savepoint,
                            "trigger number " + triggers.size() + " (checkpoint " + c + "): savepoint flag");
                    if (savepoint) {
                        savepoints.add(c);
                    }
                }
                case "CompleteCheckpoint" -> {
                    long c = e.checkpoint();
                    assertTrue(triggers.contains(c), "completion of " + c + " before its trigger");
                    assertTrue(completions.isEmpty() || c > completions.get(completions.size() - 1),
                            "completion " + c + " after " + completions);
                    assertFalse(aborted.contains(c), "completion of aborted " + c);
                    completions.add(c);
                }
                case "AbortCheckpoint" -> {
                    long c = e.checkpoint();
                    assertTrue(triggers.contains(c), "abort of " + c + " before its trigger");
                    assertFalse(completions.contains(c), "abort of completed " + c);
                    assertTrue(aborted.add(c), "abort of " + c + " told twice");
                }
                default -> { }
            }
        }
        assertEquals(r.checkpoints().stream().map(CheckpointSummary::id).toList(), completions);
        Set<Long> completedSavepoints = new TreeSet<>(savepoints);
        completedSavepoints.retainAll(completions);
        assertEquals(completedSavepoints, r.savepoints());
        return triggers.size();
    }

    @Test
    void theSimulationTellsEveryTriggerAndCompletionOnceInOrder() {
        int triggers = 0;
        int aborts = 0;
        for (long seed = 0; seed < 6; seed++) {
            List<CoordinatorEvent> events = new ArrayList<>();
            BarrierMode mode = seed % 2 == 0 ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
            RunOptions o = SimulationRuntimeTest.withFailures(seed).abortProbability(0.02).savepointEvery(2)
                    .observer(recording(events)).build();
            RunResult r = new SimulationRuntime(Topologies.demo(seed), mode, o).run();
            assertTrue(r.holds(), r.violations().toString());
            triggers += assertShape(events, r, 2);
            aborts += (int) events.stream().filter(e -> e.action().equals("AbortCheckpoint")).count();
            assertFalse(r.checkpoints().isEmpty(), "seed " + seed + ": nothing completed");
        }
        assertTrue(triggers >= 12, "triggers: " + triggers);
        assertTrue(aborts > 0, "no AbortCheckpoint told");
    }

    @Test
    void theThreadedRuntimeTellsEveryTriggerAndCompletionOnceInOrder() {
        List<CoordinatorEvent> events = Collections.synchronizedList(new ArrayList<>());
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 20_000, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.MILLISECONDS.toNanos(2)).failAfterCheckpoint(2)
                        .savepointEvery(2).stepOrdering(StepOrdering.oneAtATime()).observer(recording(events)).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        List<CoordinatorEvent> copy;
        synchronized (events) {
            copy = new ArrayList<>(events);
        }
        assertTrue(assertShape(copy, r, 2) >= 2);
        assertTrue(r.checkpoints().size() >= 2, "completed: " + r.checkpoints().size());
    }

    /** The spec's Join, scheduled from outside: an AbortCheckpoint step is told, and ends the checkpoint. */
    @Test
    void anAbortStepIsToldAndTheAbortedCheckpointIsNoLongerCompletable() {
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        List<CoordinatorEvent> events = new ArrayList<>();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().abortsReachTasks(false).triggerProbability(0).observer(recording(events)).build());
        rt.takeStep(new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0));
        rt.takeStep(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1));
        rt.takeStep(new Step(Action.INJECT_BARRIER, "s2#0", -1, 1));
        rt.takeStep(new Step(Action.RECEIVE_BARRIER, "join#0", 0, 1));
        rt.takeStep(new Step(Action.RECEIVE_BARRIER, "join#0", 1, 1));
        Step complete = new Step(Action.COMPLETE_CHECKPOINT, null, -1, 1);
        assertTrue(rt.enabledSteps().contains(complete), rt.enabledSteps().toString());
        rt.takeStep(new Step(Action.ABORT_CHECKPOINT, null, -1, 1));
        assertFalse(rt.enabledSteps().contains(complete), "CompleteCheckpoint(1) offered after its abort");
        assertEquals(List.of(new CoordinatorEvent("TriggerCheckpoint", 1, false),
                new CoordinatorEvent("AbortCheckpoint", 1, false)),
                events.stream().filter(e -> e.action().endsWith("Checkpoint")).toList());
        assertEquals(5 + 1, rt.result().steps());
        assertEquals(1, rt.result().abortedCheckpoints());
    }
}

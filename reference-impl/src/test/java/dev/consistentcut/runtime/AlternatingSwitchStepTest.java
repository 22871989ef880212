package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's alignment timeout at a known step (one step stands for a millisecond): a
 * checkpoint triggered at step {@value #TRIGGER_STEP} whose alignment at the join waits for the
 * second input's barrier; {@code TimeoutAlignment} becomes enabled exactly when {@code timeout}
 * steps have passed since the trigger (not one step earlier), and the checkpoint then completes
 * switched; with a timeout longer than the run it completes aligned. The steps are scheduled from
 * outside ({@link SimulationRuntime#takeStep}), so the step count is known; the rest of the run is
 * the seeded choice. Also the statistics the gateway's clock gives (trigger time, start delays).
 */
@Timeout(10)
class AlternatingSwitchStepTest {

    private static final long TRIGGER_STEP = 3;
    private static final int FILLER_RECORDS = 40;

    /**
     * s1, s2 -> join -> sink (broadcast, capacity 1, one record each), and an unrelated pipeline
     * s3 -> m3 whose steps let the clock run while the join waits.
     */
    private static JobGraph job() {
        long[] keys = new long[FILLER_RECORDS];
        return JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .source("s3", InMemorySourceLog.ofKeys(keys))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .operator("sink", 1, () -> new MapOperator(v -> v))
                .operator("m3", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .edge("join", "sink", Partitioning.BROADCAST)
                .edge("s3", "m3", Partitioning.BROADCAST)
                .build();
    }

    private static void take(SimulationRuntime rt, Action a, String task, int input, long c) {
        rt.takeStep(new Step(a, task, input, c));
    }

    /** One step of the unrelated pipeline: m3 processes its record, or s3 emits the next. */
    private static void tick(SimulationRuntime rt) {
        Step process = new Step(Action.PROCESS_RECORD, "m3#0", 0, 0);
        rt.takeStep(rt.enabledSteps().contains(process) ? process : new Step(Action.EMIT_RECORD, "s3#0", -1, 0));
    }

    private static boolean timeoutEnabled(SimulationRuntime rt) {
        return rt.enabledSteps().contains(new Step(Action.TIMEOUT_ALIGNMENT, "join#0", -1, 1));
    }

    /**
     * Triggers checkpoint 1 at step {@link #TRIGGER_STEP} and lets the join's alignment start (its
     * first barrier at step TRIGGER_STEP + 2), then runs the clock until {@code until}, asserting
     * the timeout is not enabled before it; returns the runtime at step {@code until}.
     */
    private static SimulationRuntime aligningUntil(long timeout, long until) {
        SimulationRuntime rt = new SimulationRuntime(job(), BarrierHandlers.alternating(timeout),
                RunOptions.builder().seed(5).triggerProbability(0).build());
        for (int i = 0; i < TRIGGER_STEP; i++) {
            tick(rt);
        }
        assertEquals(TRIGGER_STEP, rt.result().steps(), "every step taken from outside is counted");
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, 1);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 0, 1); // the join now waits for s2's barrier
        for (long step = TRIGGER_STEP + 3; step < until; step++) {
            assertEquals(step, rt.result().steps());
            assertFalse(timeoutEnabled(rt), "TimeoutAlignment enabled at step " + step + ", " + (step - TRIGGER_STEP)
                    + " steps after the trigger, with a timeout of " + timeout);
            tick(rt);
        }
        assertEquals(until, rt.result().steps());
        return rt;
    }

    @Test
    void theAlignmentTimesOutExactlyWhenTheTimeoutHasPassedSinceTheTrigger() {
        long timeout = 7;
        SimulationRuntime rt = aligningUntil(timeout, TRIGGER_STEP + timeout);
        assertTrue(timeoutEnabled(rt), "TimeoutAlignment not enabled " + timeout + " steps after the trigger: "
                + rt.enabledSteps());
        take(rt, Action.TIMEOUT_ALIGNMENT, "join#0", -1, 1);
        RunResult r = rt.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of(1L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertEquals(Set.of(1L), r.switchedCheckpoints(), "the checkpoint that timed out switched");
        CheckpointSummary cp = r.checkpoints().get(0);
        assertEquals(TRIGGER_STEP, cp.stats().triggerTime());
        // s1 injected one step after the trigger; the join saw its first barrier two steps after it
        assertEquals(1L, cp.stats().startDelay().get("s1#0"));
        assertEquals(2L, cp.stats().startDelay().get("join#0"));
    }

    @Test
    void aTimeoutLongerThanTheWaitNeverSwitches() {
        long timeout = 10_000; // far beyond this run's length
        SimulationRuntime rt = aligningUntil(timeout, TRIGGER_STEP + 20);
        RunResult r = rt.run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.steps() < TRIGGER_STEP + timeout, "the run outlasted the timeout: " + r.steps());
        assertEquals(List.of(1L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertEquals(Set.of(), r.switchedCheckpoints(), "no checkpoint may switch before its timeout");
        Map<String, Long> delays = r.checkpoints().get(0).stats().startDelay();
        assertEquals(1L, delays.get("s1#0"));
        assertEquals(2L, delays.get("join#0"));
    }
}

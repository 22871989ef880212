package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.JoinSteps.checkpointAllAcknowledged;
import static dev.consistentcut.runtime.JoinSteps.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import org.junit.jupiter.api.Test;

/**
 * The simulation driven from outside ({@link SimulationRuntime#enabledSteps()},
 * {@link SimulationRuntime#takeStep}), as the spec replay drives it (dev.consistentcut.replay).
 */
class ExternallyScheduledStepsTest {

    /** The spec's Join as {@link JoinSteps#join} builds it, otherwise with the default options. */
    private static SimulationRuntime join() {
        return JoinSteps.join(RunOptions.builder());
    }



    /**
     * Found by the spec replay (AlignedJoin's state graph): with aborts staying in flight, a
     * checkpoint every task acknowledged is out of flight, so the next one may start and complete
     * first; its completion subsumes (aborts) the older one, and the spec's CompleteCheckpoint of
     * the older one is no longer enabled. The simulation still offered it, a step that did nothing.
     */
    @Test
    void aSubsumedCheckpointIsNoLongerCompletable() {
        SimulationRuntime rt = join();
        checkpointAllAcknowledged(rt, 1);
        assertTrue(rt.enabledSteps().contains(new Step(Action.COMPLETE_CHECKPOINT, null, -1, 1)));
        checkpointAllAcknowledged(rt, 2);
        take(rt, Action.COMPLETE_CHECKPOINT, null, -1, 2);
        assertEquals(CheckpointStatus.ABORTED, rt.coordinator().status(1));
        assertFalse(rt.enabledSteps().contains(new Step(Action.COMPLETE_CHECKPOINT, null, -1, 1)),
                "CompleteCheckpoint(1) offered after 2 completed and subsumed it: " + rt.enabledSteps());
    }

    @Test
    void aStepThatIsNotEnabledIsRefusedAndChangesNothing() {
        SimulationRuntime rt = join();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> take(rt, Action.PROCESS_RECORD, "join#0", 0, 0));
        assertTrue(e.getMessage().contains("not enabled"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> take(rt, Action.ABORT_CHECKPOINT, null, -1, 1));
        take(rt, Action.EMIT_RECORD, "s1#0", -1, 0);
        assertEquals(1, rt.sourceTask("s1#0").offset());
        assertEquals(1, rt.channel(rt.graph().inputs("join#0").get(0).id()).recordCount());
    }
}

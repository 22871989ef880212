package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.CHANNELS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.TASKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Alternating mode's bookkeeping in the coordinator: savepoints and the tasks that switched each checkpoint (switchedAt). */
@Timeout(10)
class CheckpointCoordinatorAlternatingTest {

    private final CheckpointCoordinator co = CheckpointCoordinator.forUnaligned(TASKS, CHANNELS,
            new InMemoryCheckpointStore(3), () -> 0L);

    @Test
    void aSavepointIsMarkedBeforeAnySourceCanSeeIt() {
        long c = co.triggerCheckpoint(true).getAsLong();
        assertTrue(co.isSavepoint(c));
        assertTrue(co.nextBarrierFor("s1").isPresent());
        co.abortCheckpoint(c);
        long d = co.triggerCheckpoint(false).getAsLong();
        assertFalse(co.isSavepoint(d));
        co.abortCheckpoint(d);
        long e = co.triggerCheckpoint().getAsLong();
        assertFalse(co.isSavepoint(e));
        assertFalse(co.isSavepoint(99));
    }

    @Test
    void aRefusedTriggerMarksNoSavepoint() {
        long c = co.triggerCheckpoint().getAsLong();
        assertTrue(co.triggerCheckpoint(true).isEmpty(), "one in flight");
        assertFalse(co.isSavepoint(c + 1));
    }

    @Test
    void switchedAtCollectsTheTasksThatHandledACheckpointUnaligned() {
        long c = co.triggerCheckpoint().getAsLong();
        assertFalse(co.switched(c));
        assertEquals(Set.of(), co.switchedTasks(c));
        co.alignmentSwitched("op", c);
        co.alignmentSwitched("sink", c);
        co.alignmentSwitched("op", c);
        assertTrue(co.switched(c));
        assertEquals(Set.of("op", "sink"), co.switchedTasks(c));
        assertFalse(co.switched(c + 1));
        assertThrows(IllegalArgumentException.class, () -> co.alignmentSwitched("nobody", c));
        assertThrows(UnsupportedOperationException.class, () -> co.switchedTasks(c).add("x"), "a copy, read-only");
    }
}

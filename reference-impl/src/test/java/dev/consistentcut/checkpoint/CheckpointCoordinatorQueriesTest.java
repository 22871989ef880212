package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.CHANNELS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.TASKS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.allAcks;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.operator;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator's answers that the runtimes poll rather than the spec's actions:
 * {@code allAcknowledged} (a checkpoint triggered after every task ended is complete at once, and
 * the runtimes complete it on that answer), {@code abortCount} (the threaded runtime wakes its
 * tasks when it moves) and the abort news a failure must drop, and {@code taskEnded}'s check of
 * the task. Mutation testing found each unchecked (docs/mutation-testing.md).
 */
@Timeout(10)
class CheckpointCoordinatorQueriesTest {

    final AtomicLong clock = new AtomicLong();
    final InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);

    CheckpointCoordinator aligned(int maxConcurrent) {
        return CheckpointCoordinator.forAligned(TASKS, CHANNELS, maxConcurrent, store, clock::get);
    }

    /** Every task ends (sources at offsets 4 and 6; the ids of final states are ignored): they take no part in later checkpoints. */
    static void endAll(CheckpointCoordinator co) {
        co.taskEnded(source("s1", 1, 4));
        co.taskEnded(source("s2", 1, 6));
        co.taskEnded(operator("op", 1));
        co.taskEnded(operator("sink", 1));
    }

    @Test
    void aCheckpointTriggeredAfterEveryTaskEndedIsAcknowledgedAtOnce() {
        CheckpointCoordinator co = aligned(1);
        endAll(co);
        long c = co.triggerCheckpoint().getAsLong();
        assertTrue(co.allAcknowledged(c), "the final states of the ended tasks make it");
        CompletedCheckpoint done = co.completeCheckpoint(c).orElseThrow();
        assertEquals(4L, done.sourceOffsets().get("s1"));
        assertEquals(6L, done.sourceOffsets().get("s2"));
        assertFalse(co.allAcknowledged(c), "completed: no longer a pending checkpoint");
    }

    @Test
    void allAcknowledgedIsFalseForAnUnknownAPartlyAcknowledgedAndAnAbortedCheckpoint() {
        CheckpointCoordinator co = aligned(2);
        co.setAbortsReachTasks(false); // an aborted checkpoint keeps collecting acknowledgements
        assertFalse(co.allAcknowledged(1), "never triggered");
        long c = co.triggerCheckpoint().getAsLong();
        co.acknowledge(source("s1", c, 1));
        assertFalse(co.allAcknowledged(c), "three tasks still to acknowledge");
        assertTrue(co.abortCheckpoint(c));
        for (Acknowledgement a : allAcks(c).subList(1, 4)) {
            co.acknowledge(a);
        }
        assertFalse(co.allAcknowledged(c), "every task acknowledged, but it is aborted: it must never complete");
        assertEquals(java.util.Optional.empty(), co.completeCheckpoint(c));
    }

    @Test
    void abortCountCountsEveryAbortAndOnlyAborts() {
        CheckpointCoordinator co = aligned(2);
        assertEquals(0, co.abortCount());
        long c1 = co.triggerCheckpoint().getAsLong();
        long c2 = co.triggerCheckpoint().getAsLong();
        assertTrue(co.abortCheckpoint(c1));
        assertEquals(1, co.abortCount());
        assertFalse(co.abortCheckpoint(c1), "no longer pending");
        assertEquals(1, co.abortCount(), "a refused abort is no abort");
        assertTrue(co.declineCheckpoint("op", c2));
        assertEquals(2, co.abortCount(), "a decline aborts");
        co.triggerCheckpoint().getAsLong();
        clock.set(100);
        assertEquals(1, co.abortExpired(50));
        assertEquals(3, co.abortCount(), "a timeout aborts");
        long c4 = co.triggerCheckpoint().getAsLong();
        long c5 = co.triggerCheckpoint().getAsLong();
        allAcks(c5).forEach(co::acknowledge);
        co.completeCheckpoint(c5).orElseThrow();
        assertEquals(CheckpointStatus.ABORTED, co.status(c4));
        assertEquals(4, co.abortCount(), "a subsumption aborts the older pending checkpoint");
    }

    @Test
    void aFailureDropsTheAbortNewsNoRestoredTaskMayActOn() {
        CheckpointCoordinator co = aligned(1);
        long c = co.triggerCheckpoint().getAsLong();
        co.acknowledge(source("s1", c, 1));
        assertTrue(co.abortCheckpoint(c));
        for (String t : TASKS) {
            assertEquals(OptionalLong.of(c), co.nextAbortNotificationFor(t), t);
        }
        co.failAndRestore();
        for (String t : TASKS) {
            assertEquals(OptionalLong.empty(), co.nextAbortNotificationFor(t),
                    t + ": restored tasks start past every checkpoint triggered before the failure");
        }
        assertThrows(IllegalStateException.class, () -> co.abortNotified("op", c));
    }

    @Test
    void anUnknownTaskCannotEndAndNothingIsRecordedForIt() {
        CheckpointCoordinator co = aligned(1);
        long c = co.triggerCheckpoint().getAsLong();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> co.taskEnded(source("nobody", 1, 3)));
        assertEquals("unknown task nobody ending; the job's tasks are [op, s1, s2, sink]", e.getMessage());
        assertFalse(co.hasEnded("nobody"));
        allAcks(c).forEach(co::acknowledge);
        assertEquals(c, co.completeCheckpoint(c).orElseThrow().id(), "the job's four tasks still complete it");
    }
}

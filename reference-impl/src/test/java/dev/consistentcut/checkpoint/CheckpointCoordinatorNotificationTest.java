package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.CheckpointCoordinatorBookkeepingTest.ack;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorBookkeepingTest.firstTwoAcks;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorBookkeepingTest.lastTwoAcks;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.CHANNELS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.TASKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's side of {@code NotifyCheckpointComplete}: after a completion every
 * listening task (a transactional sink) has the notification waiting, others none; a newer
 * completion subsumes a notification not yet taken; taking one consumes exactly it; a failure
 * loses every waiting notification; only a completed checkpoint can be announced.
 */
class CheckpointCoordinatorNotificationTest {

    final AtomicLong clock = new AtomicLong();

    private CheckpointCoordinator coordinator() {
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(TASKS, CHANNELS, 2, new InMemoryCheckpointStore(3), clock::get);
        co.setCompletionListeners(Set.of("sink"));
        return co;
    }

    private static long complete(CheckpointCoordinator co) {
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        ack(co, lastTwoAcks(c));
        assertTrue(co.completeCheckpoint(c).isPresent());
        return c;
    }

    @Test
    void aCompletionIsAnnouncedToTheListenersOnlyAndTakenOnce() {
        CheckpointCoordinator co = coordinator();
        long c = complete(co);
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("sink"), "announced by the runtime, not by completion");
        co.notifyTasksOfCompletion(c);
        assertEquals(OptionalLong.of(c), co.nextCompleteNotificationFor("sink"));
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("op"), "op does not listen");
        co.completeNotified("sink", c);
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("sink"));
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> co.completeNotified("sink", c));
        assertTrue(twice.getMessage().contains("none is waiting"), twice.getMessage());
    }

    @Test
    void aNewerCompletionSubsumesANotificationNotYetTaken() {
        CheckpointCoordinator co = coordinator();
        long c1 = complete(co);
        co.notifyTasksOfCompletion(c1);
        long c2 = complete(co);
        co.notifyTasksOfCompletion(c2);
        assertEquals(OptionalLong.of(c2), co.nextCompleteNotificationFor("sink"));
        co.notifyTasksOfCompletion(c1); // late and older: changes nothing
        assertEquals(OptionalLong.of(c2), co.nextCompleteNotificationFor("sink"));
        co.completeNotified("sink", c1); // a task that took the older one while the newer came: the newer stays
        assertEquals(OptionalLong.of(c2), co.nextCompleteNotificationFor("sink"));
        IllegalStateException newer = assertThrows(IllegalStateException.class, () -> co.completeNotified("sink", c2 + 1));
        assertTrue(newer.getMessage().contains("only one of " + c2), newer.getMessage());
        co.completeNotified("sink", c2);
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("sink"));
    }

    @Test
    void aFailureLosesTheWaitingNotifications() {
        CheckpointCoordinator co = coordinator();
        long c = complete(co);
        co.notifyTasksOfCompletion(c);
        co.failAndRestore();
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("sink"));
    }

    @Test
    void onlyACompletedCheckpointIsAnnouncedAndOnlyKnownTasksListen() {
        CheckpointCoordinator co = coordinator();
        long c = co.triggerCheckpoint().getAsLong();
        IllegalStateException pending = assertThrows(IllegalStateException.class, () -> co.notifyTasksOfCompletion(c));
        assertTrue(pending.getMessage().contains("not completed"), pending.getMessage());
        assertThrows(IllegalStateException.class, () -> co.notifyTasksOfCompletion(99));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> co.setCompletionListeners(Set.of("nobody")));
        assertTrue(unknown.getMessage().contains("unknown task nobody"), unknown.getMessage());
        co.setCompletionListeners(Set.of());
        ack(co, firstTwoAcks(c));
        ack(co, lastTwoAcks(c));
        co.completeCheckpoint(c);
        co.notifyTasksOfCompletion(c);
        assertEquals(OptionalLong.empty(), co.nextCompleteNotificationFor("sink"), "no listeners: nobody to tell");
    }
}

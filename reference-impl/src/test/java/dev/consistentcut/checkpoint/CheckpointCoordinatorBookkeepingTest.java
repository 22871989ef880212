package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.CHANNELS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.TASKS;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.operator;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.rec;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.snap;
import static dev.consistentcut.checkpoint.CheckpointCoordinatorTest.source;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's answers (what {@code abortCheckpoint} and {@code completeCheckpoint} return)
 * and its bookkeeping: a decided checkpoint drops its acknowledgements and channel claims, and
 * one also out of flight its place, so that a long job holds memory for the checkpoints in flight
 * only. Mutation testing (docs/mutation-testing.md) showed both unchecked.
 */
class CheckpointCoordinatorBookkeepingTest {

    final AtomicLong clock = new AtomicLong();
    final InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);

    CheckpointCoordinator coordinator(int maxConcurrent, CheckpointStore s) {
        return CheckpointCoordinator.forAligned(TASKS, CHANNELS, maxConcurrent, s, clock::get);
    }

    /**
     * The older abort semantics (the spec's AbortsReachTasks = FALSE): an aborted checkpoint stays
     * in flight until its barriers have passed every task. The tests marked "in flight" use it.
     */
    CheckpointCoordinator keepingAbortedInFlight(int maxConcurrent, CheckpointStore s) {
        CheckpointCoordinator co = coordinator(maxConcurrent, s);
        co.setAbortsReachTasks(false);
        return co;
    }

    @Test
    void withAbortsReachingTasksAnAbortedCheckpointLeavesFlightAtOnceHoldingNothing() {
        CheckpointCoordinator co = coordinator(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        co.abortCheckpoint(c);
        assertHeld(co, 0, 0); // Flink's semantics (the default): gone at once, tasks are notified
        assertEquals(CheckpointStatus.ABORTED, co.status(c));
    }

    /** s1 with an overtaken record on s1->op (a sender claim), op with one persisted on s2->op (a receiver claim). */
    static List<Acknowledgement> firstTwoAcks(long c) {
        return List.of(
                Acknowledgement.ofSource("s1", c, 10, Map.of("s1->op", List.of(rec("s1", 9))), 0),
                Acknowledgement.ofOperator("op", c, snap("op", Map.of()), Map.of("s2->op", List.of(rec("s2", 3))),
                        Map.of(), 0, 0));
    }

    static List<Acknowledgement> lastTwoAcks(long c) {
        return List.of(source("s2", c, 20), operator("sink", c));
    }

    static void ack(CheckpointCoordinator co, List<Acknowledgement> acks) {
        acks.forEach(co::acknowledge);
    }

    static void assertHeld(CheckpointCoordinator co, int attempts, int acksAndClaims) {
        assertArrayEquals(new int[] {attempts, acksAndClaims}, co.heldForTests(),
                "{checkpoints held in full, acknowledgements + channel claims held}");
    }

    @Test
    void abortCheckpointSaysWhetherThisCallAbortedIt() {
        CheckpointCoordinator co = coordinator(2, store);
        long c1 = co.triggerCheckpoint().getAsLong();
        assertTrue(co.abortCheckpoint(c1), "a PENDING checkpoint is aborted by this call");
        assertFalse(co.abortCheckpoint(c1), "already ABORTED");
        long c2 = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c2));
        ack(co, lastTwoAcks(c2));
        co.completeCheckpoint(c2);
        assertFalse(co.abortCheckpoint(c2), "COMPLETED is never aborted");
        assertEquals(CheckpointStatus.COMPLETED, co.status(c2));
        assertFalse(co.abortCheckpoint(99), "never triggered");
    }

    @Test
    void completeCheckpointReturnsTheCheckpointItStored() {
        CheckpointCoordinator co = coordinator(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        ack(co, lastTwoAcks(c));
        Optional<CompletedCheckpoint> done = co.completeCheckpoint(c);
        assertTrue(done.isPresent());
        assertEquals(store.latest(), done);
        assertEquals(co.latestCompleted(), done);
        assertEquals(List.of(rec("s2", 3)), done.get().channelState().get("s2->op"));
        assertEquals(Optional.empty(), co.completeCheckpoint(c), "a second completion returns nothing");
    }

    @Test
    void aCompletedCheckpointHoldsNothing() {
        CheckpointCoordinator co = coordinator(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        assertHeld(co, 1, 4); // 2 acks, 1 receiver claim, 1 sender claim
        ack(co, lastTwoAcks(c));
        co.completeCheckpoint(c);
        assertHeld(co, 0, 0);
        // It is no longer open, so a failure does not discard it: a late duplicate is still named as one.
        co.failAndRestore();
        assertThrows(IllegalStateException.class, () -> co.acknowledge(source("s1", c, 10)));
    }

    @Test
    void anAbortedCheckpointDropsItsAcknowledgementsAndItsPlaceWhenTheLastArrives() {
        CheckpointCoordinator co = keepingAbortedInFlight(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        co.abortCheckpoint(c);
        assertHeld(co, 1, 0); // still in flight (barriers travel), nothing kept
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(lastTwoAcks(c).get(0)));
        assertHeld(co, 1, 0);
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(lastTwoAcks(c).get(1)));
        assertHeld(co, 0, 0);
    }

    @Test
    void anExpiredCheckpointDropsItsAcknowledgements() {
        CheckpointCoordinator co = keepingAbortedInFlight(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        clock.set(100);
        assertEquals(1, co.abortExpired(10));
        assertHeld(co, 1, 0);
    }

    @Test
    void aFailureDropsEveryCheckpointNotCompleted() {
        CheckpointCoordinator co = coordinator(2, store);
        long c1 = co.triggerCheckpoint().getAsLong();
        long c2 = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c1));
        ack(co, firstTwoAcks(c2));
        co.failAndRestore();
        assertHeld(co, 0, 0);
    }

    @Test
    void aSubsumedCheckpointDropsItsAcknowledgements() {
        CheckpointCoordinator co = keepingAbortedInFlight(2, store);
        long c1 = co.triggerCheckpoint().getAsLong();
        long c2 = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c1));
        ack(co, firstTwoAcks(c2));
        ack(co, lastTwoAcks(c2));
        co.completeCheckpoint(c2);
        assertEquals(CheckpointStatus.ABORTED, co.status(c1));
        assertHeld(co, 1, 0); // c1 still in flight, holding nothing
    }

    @Test
    void aCheckpointTheStoreRefusedDropsItsAcknowledgements() {
        CheckpointStore failing = new CheckpointStore() {
            @Override
            public void store(CompletedCheckpoint c) {
                throw new UncheckedIOException(new java.io.IOException("disk full"));
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                return Optional.empty();
            }

            @Override
            public List<Long> retainedIds() {
                return List.of();
            }
        };
        CheckpointCoordinator co = coordinator(1, failing);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c));
        ack(co, lastTwoAcks(c));
        assertThrows(UncheckedIOException.class, () -> co.completeCheckpoint(c));
        assertEquals(CheckpointStatus.ABORTED, co.status(c));
        assertHeld(co, 0, 0);
    }

    @Test
    void twoReceiversClaimingOneChannelAreRejectedNamingTheReceiverPart() {
        // The receiver-side twin of the sender-side check: only one task takes a channel's input.
        CheckpointCoordinator co = coordinator(1, store);
        long c = co.triggerCheckpoint().getAsLong();
        ack(co, firstTwoAcks(c)); // op claimed s2->op as receiver
        Acknowledgement sink = Acknowledgement.ofOperator("sink", c, snap("sink", Map.of()),
                Map.of("s2->op", List.of(rec("s2", 4))), Map.of(), 0, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> co.acknowledge(sink));
        assertEquals("task sink, checkpoint " + c + ": channel s2->op already has its input (receiver) state from task op",
                e.getMessage());
        assertHeld(co, 1, 4); // nothing recorded
        Acknowledgement unknown = Acknowledgement.ofOperator("sink", c, snap("sink", Map.of()),
                Map.of("nowhere", List.of()), Map.of(), 0, 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> co.acknowledge(unknown)).getMessage()
                .contains("channel state for unknown channel nowhere"));
    }

    @Test
    void theTasksAndChannelsAreTheJobs() {
        CheckpointCoordinator co = coordinator(1, store);
        assertEquals(TASKS, co.tasks());
        assertEquals(CHANNELS, co.channels());
    }
}

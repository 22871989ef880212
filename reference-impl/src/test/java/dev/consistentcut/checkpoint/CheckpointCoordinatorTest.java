package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The job used throughout: sources s1, s2 feed operator op, which feeds sink.
 * Channels: s1->op, s2->op, op->sink.
 */
class CheckpointCoordinatorTest {

    static final Set<String> TASKS = Set.of("s1", "s2", "op", "sink");
    static final Set<String> CHANNELS = Set.of("s1->op", "s2->op", "op->sink");

    final AtomicLong clock = new AtomicLong();
    final InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);

    static Record rec(String src, long offset) {
        return new Record(new RecordId(src, offset), offset, offset);
    }

    static TaskSnapshot snap(String state, Map<RecordId, Integer> processed) {
        return new TaskSnapshot(state.getBytes(java.nio.charset.StandardCharsets.UTF_8), processed);
    }

    static Acknowledgement source(String task, long c, long offset) {
        return Acknowledgement.ofSource(task, c, offset, Map.of(), 0);
    }

    static Acknowledgement operator(String task, long c) {
        return Acknowledgement.ofOperator(task, c, snap(task, Map.of()), Map.of(), Map.of(), 0, 0);
    }

    static List<Acknowledgement> allAcks(long c) {
        return List.of(source("s1", c, 10), source("s2", c, 20), operator("op", c), operator("sink", c));
    }

    CheckpointCoordinator aligned(int maxConcurrent) {
        return CheckpointCoordinator.forAligned(TASKS, CHANNELS, maxConcurrent, store, clock::get);
    }

    CheckpointCoordinator unaligned() {
        return CheckpointCoordinator.forUnaligned(TASKS, CHANNELS, store, clock::get);
    }

    static AckResult ackAll(CheckpointCoordinator co, long c) {
        AckResult last = null;
        for (Acknowledgement a : allAcks(c)) {
            last = co.acknowledge(a);
        }
        return last;
    }

    static long trigger(CheckpointCoordinator co) {
        OptionalLong id = co.triggerCheckpoint();
        assertTrue(id.isPresent(), "trigger refused");
        return id.getAsLong();
    }

    // ---------------------------------------------------------------- construction

    @Test
    void rejectsBadConfiguration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CheckpointCoordinator(TASKS, CHANNELS, 0, store, clock::get));
        assertTrue(e.getMessage().contains("maxConcurrent"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new CheckpointCoordinator(Set.of(), CHANNELS, 1, store, clock::get));
        assertEquals(1, unaligned().maxConcurrent());
    }

    // ---------------------------------------------------------------- trigger limits

    @Test
    void unalignedTriggersOneAtATime() {
        CheckpointCoordinator co = unaligned();
        assertEquals(OptionalLong.of(1), co.triggerCheckpoint());
        assertEquals(CheckpointStatus.PENDING, co.status(1));
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
        assertEquals(CheckpointStatus.NONE, co.status(2));
        assertEquals(AckResult.ALL_ACKNOWLEDGED, ackAll(co, 1));
        assertTrue(co.completeCheckpoint(1).isPresent());
        assertEquals(OptionalLong.of(2), co.triggerCheckpoint());
    }

    @Test
    void alignedTriggersUpToMaxConcurrent() {
        CheckpointCoordinator co = aligned(2);
        assertEquals(OptionalLong.of(1), co.triggerCheckpoint());
        assertEquals(OptionalLong.of(2), co.triggerCheckpoint());
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
        assertEquals(Set.of(1L, 2L), co.inFlight());
        // Fully acknowledged means out of flight (no barrier left to inject), but with aborts
        // reaching the tasks it holds its place until it completes, as the spec's InFlight (trace
        // validation rejected a trigger in that window).
        ackAll(co, 1);
        assertEquals(Set.of(2L), co.inFlight());
        assertFalse(co.canTrigger());
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
        assertTrue(co.completeCheckpoint(1).isPresent());
        assertTrue(co.canTrigger());
        assertEquals(OptionalLong.of(3), co.triggerCheckpoint());
        assertFalse(co.canTrigger());
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
    }

    @Test
    void inTheOlderAbortModelAFullyAcknowledgedCheckpointFreesItsPlaceBeforeCompletion() {
        CheckpointCoordinator co = aligned(2);
        co.setAbortsReachTasks(false); // the spec's AbortsReachTasks = FALSE: InFlight is "not all acknowledged"
        trigger(co);
        trigger(co);
        assertFalse(co.canTrigger());
        ackAll(co, 1);
        assertTrue(co.canTrigger());
        assertEquals(OptionalLong.of(3), co.triggerCheckpoint());
        assertFalse(co.canTrigger());
    }

    @Test
    void anAbortedOrFailedCheckpointFreesItsPlace() {
        CheckpointCoordinator co = aligned(1);
        long c = trigger(co);
        assertFalse(co.canTrigger());
        assertTrue(co.abortCheckpoint(c));
        assertTrue(co.canTrigger());
        trigger(co);
        assertFalse(co.canTrigger());
        co.failAndRestore();
        assertTrue(co.canTrigger());
        co.shutdown();
        assertFalse(co.canTrigger());
    }

    @Test
    void noTriggerAfterShutdown() {
        CheckpointCoordinator co = aligned(5);
        co.shutdown();
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
    }

    // ---------------------------------------------------------------- acknowledgements

    @Test
    void ackPathsAcceptedThenAllAcknowledged() {
        CheckpointCoordinator co = aligned(1);
        long c = trigger(co);
        List<Acknowledgement> acks = allAcks(c);
        for (int i = 0; i < acks.size() - 1; i++) {
            assertEquals(AckResult.ACCEPTED, co.acknowledge(acks.get(i)));
        }
        assertEquals(AckResult.ALL_ACKNOWLEDGED, co.acknowledge(acks.get(acks.size() - 1)));
        assertEquals(CheckpointStatus.PENDING, co.status(c));
    }

    @Test
    void unknownTaskAndUnknownIdAreRejectedNamingThem() {
        CheckpointCoordinator co = aligned(1);
        long c = trigger(co);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> co.acknowledge(source("ghost", c, 0)));
        assertTrue(e.getMessage().contains("ghost") && e.getMessage().contains("checkpoint " + c), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> co.acknowledge(source("s1", 7, 0)));
        assertTrue(e.getMessage().contains("s1") && e.getMessage().contains("7"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> co.nextBarrierFor("ghost"));
        // Nothing was recorded: the real acks still complete it.
        assertEquals(AckResult.ALL_ACKNOWLEDGED, ackAll(co, c));
    }

    @Test
    void duplicateAckIsRejectedNamingTaskAndIdAndChangesNothing() {
        CheckpointCoordinator co = aligned(1);
        long c = trigger(co);
        co.acknowledge(source("s1", c, 10));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> co.acknowledge(source("s1", c, 99)));
        assertTrue(e.getMessage().contains("s1") && e.getMessage().contains("checkpoint " + c), e.getMessage());
        co.acknowledge(source("s2", c, 20));
        co.acknowledge(operator("op", c));
        assertEquals(AckResult.ALL_ACKNOWLEDGED, co.acknowledge(operator("sink", c)));
        assertEquals(10L, co.completeCheckpoint(c).orElseThrow().sourceOffsets().get("s1"));
        // After completion every ack is a duplicate.
        assertThrows(IllegalStateException.class, () -> co.acknowledge(operator("op", c)));
    }

    @Test
    void channelStateForUnknownOrAlreadyClaimedChannelsIsRejected() {
        CheckpointCoordinator co = unaligned();
        long c = trigger(co);
        Acknowledgement bad = Acknowledgement.ofSource("s1", c, 1, Map.of("nowhere", List.of()), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> co.acknowledge(bad));
        assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
        co.acknowledge(Acknowledgement.ofSource("s1", c, 1, Map.of("s1->op", List.of(rec("s1", 0))), 0));
        Acknowledgement twice = Acknowledgement.ofSource("s2", c, 1, Map.of("s1->op", List.of()), 0);
        e = assertThrows(IllegalArgumentException.class, () -> co.acknowledge(twice));
        assertTrue(e.getMessage().contains("s1->op") && e.getMessage().contains("s1"), e.getMessage());
    }

    // ---------------------------------------------------------------- completion

    @Test
    void completionBuildsTheCheckpointStoresItAndMakesItLatest() {
        CheckpointCoordinator co = unaligned();
        clock.set(100);
        long c = trigger(co);
        Record a = rec("s1", 3), b = rec("s1", 4), x = rec("s2", 7);
        clock.set(105);
        co.acknowledge(Acknowledgement.ofSource("s1", c, 5, Map.of("s1->op", List.of(b)), 5));
        co.acknowledge(Acknowledgement.ofSource("s2", c, 8, Map.of(), 6));
        TaskSnapshot opState = snap("op-state", Map.of(new RecordId("s1", 0), 1));
        // op persisted a (taken after its snapshot, before s1->op's barrier) and overtook x on op->sink.
        co.acknowledge(Acknowledgement.ofOperator(
                "op", c, opState, Map.of("s1->op", List.of(a)), Map.of("op->sink", List.of(x)), 7, 3));
        TaskSnapshot sinkState = snap("", Map.of());
        assertEquals(AckResult.ALL_ACKNOWLEDGED,
                co.acknowledge(Acknowledgement.ofOperator("sink", c, sinkState, Map.of(), Map.of(), 9, 0)));
        clock.set(120);

        CompletedCheckpoint done = co.completeCheckpoint(c).orElseThrow();
        assertEquals(c, done.id());
        assertEquals(Map.of("s1", 5L, "s2", 8L), done.sourceOffsets());
        assertEquals(Map.of("op", opState, "sink", sinkState), done.taskSnapshots());
        // Receiver's part first, then the sender's; every channel listed.
        assertEquals(Map.of("s1->op", List.of(a, b), "s2->op", List.of(), "op->sink", List.of(x)),
                done.channelState());
        CheckpointStats s = done.stats();
        assertEquals(100, s.triggerTime());
        assertEquals(120, s.completionTime());
        assertEquals(Map.of("s1", 5L, "s2", 6L, "op", 7L, "sink", 9L), s.startDelay());
        assertEquals(3, s.maxAlignment());
        assertEquals(3, s.persistedRecords());
        assertEquals(CheckpointCodec.channelStateSize(done.channelState()), s.persistedBytes());
        assertEquals(CheckpointCodec.stateSize(done.taskSnapshots()), s.stateBytes());
        assertTrue(s.persistedBytes() > 0 && s.stateBytes() > 0);

        assertEquals(CheckpointStatus.COMPLETED, co.status(c));
        assertEquals(Optional.of(done), store.latest());
        assertEquals(Optional.of(done), co.latestCompleted());
        assertEquals(List.of(c), co.completedIds());
    }

    @Test
    void completesAtMostOnceAndOnlyWhenEveryTaskAcknowledged() {
        CheckpointCoordinator co = aligned(1);
        long c = trigger(co);
        assertEquals(Optional.empty(), co.completeCheckpoint(c));
        co.acknowledge(source("s1", c, 1));
        assertEquals(Optional.empty(), co.completeCheckpoint(c));
        assertEquals(CheckpointStatus.PENDING, co.status(c));
        co.acknowledge(source("s2", c, 1));
        co.acknowledge(operator("op", c));
        co.acknowledge(operator("sink", c));
        assertTrue(co.completeCheckpoint(c).isPresent());
        assertEquals(Optional.empty(), co.completeCheckpoint(c));
        assertEquals(Optional.empty(), co.completeCheckpoint(42));
        assertEquals(List.of(c), co.completedIds());
        assertEquals(List.of(c), store.retainedIds());
    }

    @Test
    void abortAndCompleteExcludeEachOther() {
        CheckpointCoordinator co = aligned(2);
        long aborted = trigger(co);
        assertTrue(co.abortCheckpoint(aborted));
        assertFalse(co.abortCheckpoint(aborted));
        for (Acknowledgement a : allAcks(aborted)) {
            assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(a));
        }
        assertEquals(Optional.empty(), co.completeCheckpoint(aborted));
        assertEquals(CheckpointStatus.ABORTED, co.status(aborted));

        long done = trigger(co);
        ackAll(co, done);
        co.completeCheckpoint(done).orElseThrow();
        assertFalse(co.abortCheckpoint(done));
        assertEquals(CheckpointStatus.COMPLETED, co.status(done));
        assertFalse(co.abortCheckpoint(99));
        assertEquals(List.of(done), store.retainedIds());
    }

    @Test
    void abortedCheckpointStaysInFlightUntilEveryTaskAcknowledgedInTheOlderAbortModel() {
        CheckpointCoordinator co = unaligned();
        co.setAbortsReachTasks(false); // the spec's AbortsReachTasks = FALSE
        long c = trigger(co);
        co.acknowledge(source("s1", c, 1));
        assertTrue(co.abortCheckpoint(c));
        // Its barriers still travel: no new unaligned checkpoint may start.
        assertEquals(Set.of(c), co.inFlight());
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
        assertEquals(OptionalLong.of(c), co.nextBarrierFor("s2"));
        assertEquals(OptionalLong.empty(), co.nextBarrierFor("s1"));
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(source("s2", c, 1)));
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(operator("op", c)));
        assertEquals(OptionalLong.empty(), co.triggerCheckpoint());
        assertThrows(IllegalStateException.class, () -> co.acknowledge(operator("op", c)));
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(operator("sink", c)));
        assertEquals(Set.of(), co.inFlight());
        assertEquals(OptionalLong.of(c + 1), co.triggerCheckpoint());
    }

    @Test
    void sourcesGetBarriersInIdOrderEachOnce() {
        CheckpointCoordinator co = aligned(3);
        assertEquals(OptionalLong.empty(), co.nextBarrierFor("s1"));
        long c1 = trigger(co);
        long c2 = trigger(co);
        assertEquals(OptionalLong.of(c1), co.nextBarrierFor("s1"));
        co.acknowledge(source("s1", c1, 0));
        assertEquals(OptionalLong.of(c2), co.nextBarrierFor("s1"));
        assertEquals(OptionalLong.of(c1), co.nextBarrierFor("s2"));
        co.acknowledge(source("s1", c2, 0));
        assertEquals(OptionalLong.empty(), co.nextBarrierFor("s1"));
        co.abortCheckpoint(c1); // a source that has not injected an aborted checkpoint never does
        assertEquals(OptionalLong.of(c2), co.nextBarrierFor("s2"));
    }

    @Test
    void abortedCheckpointLeavesFlightAtOnceAndEveryTaskIsNotifiedOnce() {
        CheckpointCoordinator co = unaligned();
        long c = trigger(co);
        co.acknowledge(source("s1", c, 1));
        assertEquals(OptionalLong.empty(), co.nextAbortNotificationFor("op"));
        assertTrue(co.abortCheckpoint(c));
        assertEquals(Set.of(), co.inFlight(), "Flink: the next checkpoint may start while c's barriers travel");
        assertEquals(OptionalLong.empty(), co.nextBarrierFor("s2"), "s2 never injects an aborted checkpoint");
        for (String t : List.of("s1", "s2", "op", "sink")) {
            assertEquals(OptionalLong.of(c), co.nextAbortNotificationFor(t), t);
            co.abortNotified(t, c);
            assertEquals(OptionalLong.empty(), co.nextAbortNotificationFor(t), t);
        }
        assertThrows(IllegalStateException.class, () -> co.abortNotified("op", c), "each notification once");
        // A task that acknowledges before it learnt of the abort is ignored, not an error.
        assertEquals(AckResult.IGNORED_ABORTED, co.acknowledge(operator("op", c)));
        assertEquals(OptionalLong.of(c + 1), co.triggerCheckpoint());
    }

    @Test
    void aDeclinedCheckpointIsAbortedAtOnceAndOnlyOnce() {
        CheckpointCoordinator co = aligned(2);
        long c1 = trigger(co);
        long c2 = trigger(co);
        assertTrue(co.declineCheckpoint("op", c1));
        assertEquals(CheckpointStatus.ABORTED, co.status(c1));
        assertFalse(co.declineCheckpoint("sink", c1), "no longer pending");
        assertEquals(Set.of(c2), co.inFlight());
        assertEquals(OptionalLong.of(c1), co.nextAbortNotificationFor("sink"));
        assertThrows(IllegalArgumentException.class, () -> co.declineCheckpoint("nobody", c2));
    }

    @Test
    void anEndedTaskIsNotWaitedForItsFinalStateIsRecordedInstead() {
        CheckpointCoordinator co = aligned(2);
        long c1 = trigger(co);
        co.acknowledge(source("s1", c1, 3));
        // s1 ends (its log read): c1 has its ack already, later checkpoints get its final offset.
        assertEquals(List.of(), co.taskEnded(source("s1", 1, 5)));
        co.acknowledge(source("s2", c1, 1));
        co.acknowledge(operator("op", c1));
        // the sink ends before it acknowledged c1: its final state completes c1
        assertEquals(List.of(c1), co.taskEnded(operator("sink", 1)));
        assertTrue(co.hasEnded("sink"));
        CompletedCheckpoint done = co.completeCheckpoint(c1).orElseThrow();
        assertEquals(3L, done.sourceOffsets().get("s1"), "s1 acknowledged c1 before it ended");
        long c2 = trigger(co);
        assertFalse(co.allAcknowledged(c2));
        co.acknowledge(source("s2", c2, 2));
        assertEquals(AckResult.ALL_ACKNOWLEDGED, co.acknowledge(operator("op", c2)));
        assertEquals(5L, co.completeCheckpoint(c2).orElseThrow().sourceOffsets().get("s1"), "s1's final offset");
        // After a failure every task runs again: none has ended.
        co.failAndRestore();
        assertFalse(co.hasEnded("s1"));
    }

    @Test
    void completingANewerCheckpointSubsumesAnOlderPendingOne() {
        CheckpointCoordinator co = aligned(2);
        long c1 = trigger(co);
        long c2 = trigger(co);
        assertEquals(AckResult.ALL_ACKNOWLEDGED, ackAll(co, c1));
        assertEquals(AckResult.ALL_ACKNOWLEDGED, ackAll(co, c2));

        assertTrue(co.completeCheckpoint(c2).isPresent());
        // c1 can no longer become the latest: it is aborted, and completing it is refused,
        // so neither the coordinator's nor the store's latest ever moves backwards.
        assertEquals(CheckpointStatus.ABORTED, co.status(c1));
        assertEquals(Optional.empty(), co.completeCheckpoint(c1));
        assertEquals(c2, co.latestCompleted().orElseThrow().id());
        assertEquals(c2, store.latest().orElseThrow().id());
        assertEquals(List.of(c2), co.completedIds());
    }

    @Test
    void abortExpiredAbortsOnlyPendingCheckpointsOlderThanTheTimeout() {
        CheckpointCoordinator co = aligned(3);
        clock.set(0);
        long old = trigger(co);
        clock.set(50);
        long young = trigger(co);
        clock.set(100);
        assertEquals(0, co.abortExpired(100)); // exactly 100 old: not more than the timeout
        clock.set(101);
        assertEquals(1, co.abortExpired(100));
        assertEquals(CheckpointStatus.ABORTED, co.status(old));
        assertEquals(CheckpointStatus.PENDING, co.status(young));
        assertEquals(0, co.abortExpired(100)); // already aborted: not counted twice
        clock.set(151);
        assertEquals(1, co.abortExpired(100));
        assertEquals(CheckpointStatus.ABORTED, co.status(young));
    }

    // ---------------------------------------------------------------- failure

    @Test
    void failAndRestoreAbortsPendingDiscardsInFlightAndReturnsTheLatestCompleted() {
        CheckpointCoordinator co = aligned(2);
        long c1 = trigger(co);
        ackAll(co, c1);
        CompletedCheckpoint first = co.completeCheckpoint(c1).orElseThrow();
        long c2 = trigger(co);
        long c3 = trigger(co);
        co.acknowledge(source("s1", c2, 11));
        co.abortCheckpoint(c3);

        assertEquals(Optional.of(first), co.failAndRestore());
        assertEquals(CheckpointStatus.COMPLETED, co.status(c1));
        assertEquals(CheckpointStatus.ABORTED, co.status(c2));
        assertEquals(CheckpointStatus.ABORTED, co.status(c3));
        assertEquals(Set.of(), co.inFlight());
        assertEquals(OptionalLong.empty(), co.nextBarrierFor("s2"));
        // Stragglers from before the failure, including a would-be duplicate, are ignored.
        assertEquals(AckResult.IGNORED_DISCARDED, co.acknowledge(source("s2", c2, 1)));
        assertEquals(AckResult.IGNORED_DISCARDED, co.acknowledge(source("s1", c2, 1)));
        assertEquals(AckResult.IGNORED_DISCARDED, co.acknowledge(operator("op", c3)));
        // Ids are never reused.
        assertEquals(OptionalLong.of(4), co.triggerCheckpoint());
        assertEquals(Optional.of(first), co.latestCompleted());
    }

    @Test
    void failAndRestoreWithoutACompletedCheckpointMeansInitialState() {
        CheckpointCoordinator co = unaligned();
        trigger(co);
        assertEquals(Optional.empty(), co.failAndRestore());
        assertEquals(OptionalLong.of(2), co.triggerCheckpoint());
    }

    @Test
    void aFullyAcknowledgedButUncompletedCheckpointCannotCompleteAfterAFailure() {
        CheckpointCoordinator co = unaligned();
        long c = trigger(co);
        assertEquals(AckResult.ALL_ACKNOWLEDGED, ackAll(co, c));
        co.failAndRestore();
        assertEquals(Optional.empty(), co.completeCheckpoint(c));
        assertEquals(CheckpointStatus.ABORTED, co.status(c));
        assertEquals(List.of(), store.retainedIds());
    }

    @Test
    void aStoreFailureAbortsTheCheckpointAndKeepsThePreviousLatest() {
        CheckpointStore failing = new CheckpointStore() {
            boolean broken;

            @Override
            public void store(CompletedCheckpoint c) {
                if (broken) {
                    throw new UncheckedIOException(new IOException("disk full"));
                }
                store.store(c);
                broken = true;
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                return store.latest();
            }

            @Override
            public List<Long> retainedIds() {
                return store.retainedIds();
            }
        };
        CheckpointCoordinator co = new CheckpointCoordinator(TASKS, CHANNELS, 1, failing, clock::get);
        long c1 = trigger(co);
        ackAll(co, c1);
        CompletedCheckpoint first = co.completeCheckpoint(c1).orElseThrow();
        long c2 = trigger(co);
        ackAll(co, c2);
        assertThrows(UncheckedIOException.class, () -> co.completeCheckpoint(c2));
        assertEquals(CheckpointStatus.ABORTED, co.status(c2));
        assertEquals(Optional.of(first), co.latestCompleted());
        assertEquals(List.of(c1), co.completedIds());
        assertEquals(Optional.empty(), co.completeCheckpoint(c2));
        assertEquals(OptionalLong.of(c2 + 1), co.triggerCheckpoint());
    }

    @Test
    void idsStartAboveEverythingTheStoreHolds() {
        CheckpointCoordinator before = aligned(1);
        for (int i = 0; i < 4; i++) {
            long c = trigger(before);
            ackAll(before, c);
            before.completeCheckpoint(c).orElseThrow();
        }
        assertEquals(List.of(2L, 3L, 4L), store.retainedIds());
        CheckpointCoordinator after = aligned(1);
        assertEquals(4, after.latestCompleted().orElseThrow().id());
        assertEquals(OptionalLong.of(5), after.triggerCheckpoint());
    }

    // ---------------------------------------------------------------- races

    /**
     * Acks from every task race with an abort, then two completers race: whatever the
     * interleaving, each checkpoint ends COMPLETED (and stored once) or ABORTED (and not stored).
     * A party that fails deregisters from the phaser, so the others never wait for it.
     */
    @Test
    void acksRacingWithAbortEndCompletedOrAbortedNeverBoth() throws Exception {
        int rounds = 300;
        InMemoryCheckpointStore big = new InMemoryCheckpointStore(rounds);
        CheckpointCoordinator co = new CheckpointCoordinator(TASKS, CHANNELS, 1, big, clock::get);
        long[] current = new long[1]; // written by the main thread, published by the phaser
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Long> completions = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> roles = new ArrayList<>();
        for (int t = 0; t < TASKS.size(); t++) {
            int index = t;
            roles.add(() -> co.acknowledge(allAcks(current[0]).get(index)));
        }
        roles.add(() -> co.abortCheckpoint(current[0]));
        roles.add(() -> co.completeCheckpoint(current[0]).ifPresent(c -> completions.add(c.id())));

        Phaser phaser = new Phaser(roles.size() + 1);
        List<Thread> threads = new ArrayList<>();
        for (Runnable role : roles) {
            Thread th = new Thread(() -> {
                try {
                    for (int r = 0; r < rounds; r++) {
                        phaser.arriveAndAwaitAdvance(); // round starts
                        role.run();
                        phaser.arriveAndAwaitAdvance(); // round ends
                    }
                } catch (Throwable e) {
                    failures.add(e);
                    phaser.arriveAndDeregister();
                }
            });
            threads.add(th);
            th.start();
        }
        try {
            for (int r = 0; r < rounds; r++) {
                current[0] = trigger(co);
                phaser.arriveAndAwaitAdvance();
                phaser.arriveAndAwaitAdvance();
                co.completeCheckpoint(current[0]).ifPresent(c -> completions.add(c.id()));
            }
        } catch (Throwable e) {
            failures.add(e);
            phaser.forceTermination(); // releases every racer still waiting
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(List.of(), failures);
        for (long id = 1; id <= rounds; id++) {
            CheckpointStatus s = co.status(id);
            boolean stored = big.retainedIds().contains(id);
            long times = completions.stream().filter(Long.valueOf(id)::equals).count();
            if (s == CheckpointStatus.COMPLETED) {
                assertTrue(stored && times == 1, "checkpoint " + id + " completed " + times + " times");
            } else {
                assertEquals(CheckpointStatus.ABORTED, s, "checkpoint " + id);
                assertTrue(!stored && times == 0, "aborted checkpoint " + id + " was completed");
            }
        }
        assertEquals(co.completedIds().size(), completions.size());
        assertEquals(co.completedIds(), big.retainedIds());
    }
}

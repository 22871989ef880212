package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtimes' small parts, each on its own: the tolerance of failed store writes
 * ({@link DeclinedCheckpoints}, Flink's {@code CheckpointFailureManager}), timeouts as
 * {@code AbortCheckpoint} events ({@link ExpiredAborts}), the settings' bounds ({@link RunOptions})
 * and what a result claims ({@link RunResult#holds()}). The runs of the other tests go through
 * them, but a run that passes says little about a message, a count or a bound that no run reaches.
 */
@Timeout(10)
class RuntimePartsTest {

    private final List<String> progress = new ArrayList<>();
    private final List<RunEvent> events = new ArrayList<>();
    private final RunObserver observer = events::add;

    private static UncheckedIOException storeFailure(long c) {
        return new UncheckedIOException("storing checkpoint " + c + " in /x", new IOException("disk full"));
    }

    @Test
    void declinedCheckpointsAreToleratedUpToTheLimitInARowThenFailTheJob() {
        DeclinedCheckpoints d = new DeclinedCheckpoints(2, progress::add, observer);
        d.declined(3, storeFailure(3));
        d.declined(4, storeFailure(4));
        assertEquals(List.of(
                "checkpoint 3 declined (aborted; the job goes on): storing checkpoint 3 in /x [1 consecutive failure(s), 2 tolerated]",
                "checkpoint 4 declined (aborted; the job goes on): storing checkpoint 4 in /x [2 consecutive failure(s), 2 tolerated]"),
                progress);
        assertEquals(List.of(new RunEvent.AbortCheckpoint(3), new RunEvent.AbortCheckpoint(4)), events,
                "each decline is an AbortCheckpoint");
        UncheckedIOException cause = storeFailure(5);
        TooManyFailedCheckpointsException e = assertThrows(TooManyFailedCheckpointsException.class, () -> d.declined(5, cause));
        assertEquals("3 consecutive checkpoint(s) failed to be stored, 2 tolerated (--tolerable-failed-checkpoints); "
                + "the last, checkpoint 5: storing checkpoint 5 in /x", e.getMessage());
        assertEquals(5, e.checkpoint());
        assertSame(cause, e.getCause());
        assertEquals(3, d.total());
        assertEquals(3, events.size(), "the failing decline is an abort too");
    }

    @Test
    void aCompletedCheckpointResetsTheConsecutiveCountButNotTheTotal() {
        DeclinedCheckpoints d = new DeclinedCheckpoints(1, progress::add, RunObserver.NONE);
        d.declined(1, storeFailure(1));
        d.completed();
        d.declined(3, storeFailure(3));
        assertTrue(progress.get(1).endsWith("[1 consecutive failure(s), 1 tolerated]"), progress.get(1));
        assertEquals(2, d.total());
        assertThrows(TooManyFailedCheckpointsException.class, () -> d.declined(4, storeFailure(4)));
        DeclinedCheckpoints none = new DeclinedCheckpoints(0, progress::add, RunObserver.NONE);
        assertThrows(TooManyFailedCheckpointsException.class, () -> none.declined(1, storeFailure(1)),
                "0 tolerated, as Flink's default: the first failed write fails the job");
    }

    @Test
    void expiredCheckpointsAreAbortedEachWithItsEventInIdOrder() {
        AtomicLong clock = new AtomicLong();
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(Set.of("a"), Set.of(), 3,
                new InMemoryCheckpointStore(3), clock::get);
        long c1 = co.triggerCheckpoint().getAsLong();
        clock.set(5);
        long c2 = co.triggerCheckpoint().getAsLong();
        clock.set(8);
        long c3 = co.triggerCheckpoint().getAsLong();
        co.abortCheckpoint(c1);
        clock.set(12);
        // c1 was aborted already (no second event); c2 (7 units old) expires; c3 (4 units) does not
        assertEquals(1, ExpiredAborts.abort(co, 6, List.of(c3, c2, c1), observer));
        assertEquals(List.of(new RunEvent.AbortCheckpoint(c2)), events);
        assertEquals(CheckpointStatus.PENDING, co.status(c3));
        clock.set(30);
        assertEquals(1, ExpiredAborts.abort(co, 6, List.of(c1, c2, c3), RunObserver.NONE), "told to no observer: the count alone");
        assertEquals(CheckpointStatus.ABORTED, co.status(c3));
        assertEquals(1, events.size());
    }

    @Test
    void expiredAbortsReportEveryCheckpointTheyAbortInIdOrder() {
        AtomicLong clock = new AtomicLong();
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(Set.of("a"), Set.of(), 3,
                new InMemoryCheckpointStore(3), clock::get);
        long c1 = co.triggerCheckpoint().getAsLong();
        long c2 = co.triggerCheckpoint().getAsLong();
        clock.set(10);
        assertEquals(2, ExpiredAborts.abort(co, 6, List.of(c2, c1), observer));
        assertEquals(List.of(new RunEvent.AbortCheckpoint(c1), new RunEvent.AbortCheckpoint(c2)), events);
    }

    @Test
    void everySettingIsCheckedAgainstItsBound() {
        record Bad(String message, Consumer<RunOptions.Builder> set) { }
        List<Bad> bad = List.of(
                new Bad("maxSteps must be >= 1, got 0", b -> b.maxSteps(0)),
                new Bad("checkpointInterval must be >= 0, got -1", b -> b.checkpointInterval(-1)),
                new Bad("maxCheckpoints must be >= 0, got -1", b -> b.maxCheckpoints(-1)),
                new Bad("checkpointTimeout must be >= 0, got -1", b -> b.checkpointTimeout(-1)),
                new Bad("maxConcurrentAligned must be >= 1, got 0", b -> b.maxConcurrentAligned(0)),
                new Bad("maxFailures must be >= 0, got -1", b -> b.maxFailures(-1)),
                new Bad("failAfterCheckpoint must be >= 0, got -1", b -> b.failAfterCheckpoint(-1)),
                new Bad("tolerableFailedCheckpoints must be >= 0, got -1", b -> b.tolerableFailedCheckpoints(-1)),
                new Bad("savepointEvery must be >= 0, got -1", b -> b.savepointEvery(-1)),
                new Bad("bufferSize must be >= 0, got -1", b -> b.bufferSize(-1)),
                new Bad("bufferTimeout must be >= 0, got -1", b -> b.bufferTimeout(-1)),
                new Bad("triggerProbability must be within [0, 1], got -0.1", b -> b.triggerProbability(-0.1)),
                new Bad("abortProbability must be within [0, 1], got 1.1", b -> b.abortProbability(1.1)),
                new Bad("failureProbability must be within [0, 1], got NaN", b -> b.failureProbability(Double.NaN)),
                new Bad("failureAfterCompletionProbability must be within [0, 1], got 2.0",
                        b -> b.failureAfterCompletionProbability(2)),
                new Bad("declineProbability must be within [0, 1], got 1.5", b -> b.declineProbability(1.5)));
        for (Bad b : bad) {
            RunOptions.Builder builder = RunOptions.builder();
            b.set().accept(builder);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build, b.message());
            assertEquals(b.message(), e.getMessage());
        }
        // the bounds themselves are allowed
        RunOptions edge = RunOptions.builder().maxSteps(1).checkpointInterval(0).maxCheckpoints(0).checkpointTimeout(0)
                .maxConcurrentAligned(1).maxFailures(0).failAfterCheckpoint(0).tolerableFailedCheckpoints(0)
                .savepointEvery(0).triggerProbability(0).abortProbability(1).failureProbability(0)
                .failureAfterCompletionProbability(1).bufferSize(0).bufferTimeout(0).build();
        assertEquals(1, edge.simulation().maxSteps());
        assertEquals(1.0, edge.simulation().abortProbability());
    }

    @Test
    void theBuilderKeepsEverySettingAndDocumentsItsDefaults() {
        RunOptions d = RunOptions.builder().build();
        assertEquals(1, d.draws().seed());
        assertEquals(50_000_000, d.simulation().maxSteps());
        assertEquals(0.05, d.simulation().triggerProbability());
        assertEquals(Integer.MAX_VALUE, d.simulation().maxCheckpoints());
        assertEquals(1, d.checkpoints().maxConcurrentAligned());
        assertEquals(-1, d.simulation().failAtStep());
        assertTrue(d.checkpoints().abortsReachTasks(), "Flink's abort semantics by default");
        assertFalse(d.checkpoints().endOfInput());
        assertTrue(d.observation().trackProcessed());
        assertSame(RunObserver.NONE, d.observation().observer());
        assertEquals(0, d.checkpoints().tolerableFailedCheckpoints());
        assertSame(StepOrdering.CONCURRENT, d.threads().stepOrdering(), "steps race unless a recorder asks otherwise");
        RunOptions o = RunOptions.builder().seed(7).maxSteps(9).checkpointInterval(3).triggerProbability(0.5)
                .maxCheckpoints(4).checkpointTimeout(11).abortProbability(0.25).maxConcurrentAligned(2).maxFailures(5)
                .failureProbability(0.125).failAtStep(6).failAfterCheckpoint(2).trackProcessed(false)
                .tolerableFailedCheckpoints(3).abortsReachTasks(false).endOfInput(true).savepointEvery(2)
                .failureAfterCompletionProbability(0.75).build();
        assertEquals(List.of(7L, 9L, 3L, 4L, 11L, 2L, 5L, 6L, 2L, 3L, 2L),
                List.of(o.draws().seed(), o.simulation().maxSteps(), o.checkpoints().checkpointInterval(),
                        (long) o.simulation().maxCheckpoints(), o.checkpoints().checkpointTimeout(),
                        (long) o.checkpoints().maxConcurrentAligned(), (long) o.simulation().maxFailures(),
                        o.simulation().failAtStep(), (long) o.checkpoints().failAfterCheckpoint(),
                        (long) o.checkpoints().tolerableFailedCheckpoints(), (long) o.checkpoints().savepointEvery()));
        assertEquals(List.of(0.5, 0.25, 0.125, 0.75), List.of(o.simulation().triggerProbability(),
                o.simulation().abortProbability(), o.simulation().failureProbability(),
                o.simulation().failureAfterCompletionProbability()));
        assertFalse(o.observation().trackProcessed());
        assertFalse(o.checkpoints().abortsReachTasks());
        assertTrue(o.checkpoints().endOfInput());
        assertTrue(d.checkpoints().storeFactory().get() instanceof InMemoryCheckpointStore, "an in-memory store by default");
        RunObserver l = e -> { };
        java.util.function.Supplier<dev.consistentcut.checkpoint.CheckpointStore> store = () -> new InMemoryCheckpointStore(1);
        Consumer<dev.consistentcut.checkpoint.CompletedCheckpoint> each = c -> { };
        Consumer<String> lines = progress::add;
        RunOptions hooks = RunOptions.builder().observer(l).store(store).onCheckpoint(each).progress(lines)
                .declineProbability(0.5).build();
        assertSame(l, hooks.observation().observer());
        assertSame(store, hooks.checkpoints().storeFactory());
        assertSame(each, hooks.observation().onCheckpoint());
        assertSame(lines, hooks.observation().progress());
        assertEquals(0.5, hooks.checkpoints().declineProbability());
        assertEquals(0.0, d.checkpoints().declineProbability());
    }

    @Test
    void everyNthCheckpointIsASavepointAndNoneWithoutTheSetting() {
        RunOptions every3 = RunOptions.builder().savepointEvery(3).build();
        assertEquals(List.of(false, false, true, false, false, true),
                java.util.stream.LongStream.rangeClosed(1, 6).mapToObj(every3.checkpoints()::isSavepoint).toList());
        RunOptions none = RunOptions.builder().build();
        assertFalse(none.checkpoints().isSavepoint(0), "0 % 0 would throw: no savepoints means none, for every n");
        assertFalse(none.checkpoints().isSavepoint(3));
    }

    @Test
    void aResultHoldsOnlyWhenFinishedCheckedAndClean() {
        Violation v = new Violation("ExactlyOnceInv", 0, null, null, 0, 0, "x");
        assertTrue(result(true, List.of(), true).holds());
        assertFalse(result(false, List.of(), true).holds(), "not finished");
        assertFalse(result(true, List.of(v), true).holds(), "a violation");
        assertFalse(result(true, List.of(), false).holds(), "nothing could be checked");
        RunResult r = result(true, List.of(), true);
        assertEquals(Set.of(), r.switchedCheckpoints());
        assertEquals(Set.of(), r.savepoints());
    }

    private static RunResult result(boolean finished, List<Violation> violations, boolean checked) {
        return new RunResult("aligned", "simulation", finished, List.of(), 0, 0, 1, violations, checked, Map.of(), 1);
    }

    @Test
    void aWakeupSignalledBeforeTheWaitIsNotLostAndAClearForgetsIt() throws InterruptedException {
        Wakeup w = new Wakeup();
        w.signal();
        w.await(); // returns at once: the signal came first
        assertTrue(w.clearUnlessStopped(), "not stopped: go on");
        Thread waiter = new Thread(w::await);
        waiter.setDaemon(true);
        waiter.start();
        waiter.join(200);
        assertTrue(waiter.isAlive(), "cleared: the waiter waits for a new signal");
        w.signal();
        waiter.join(5_000);
        assertFalse(waiter.isAlive(), "the signal ends the wait");
    }

    @Test
    void aStopEndsTheWaitAndNoClearForgetsIt() throws InterruptedException {
        Wakeup w = new Wakeup();
        assertTrue(w.clearUnlessStopped());
        Thread waiter = new Thread(w::await);
        waiter.setDaemon(true);
        waiter.start();
        waiter.join(200);
        assertTrue(waiter.isAlive(), "cleared: the waiter waits");
        w.stop();
        waiter.join(5_000);
        assertFalse(waiter.isAlive(), "the stop ends the wait");
        assertTrue(w.stopped());
        // The old loop's hang: a stop between the waiter's look and its clear. Here the clear
        // itself reports the stop, however many clears come after it, and a wait after it ends.
        assertFalse(w.clearUnlessStopped(), "stopped: leave the loop");
        assertFalse(w.clearUnlessStopped(), "a stop is not forgotten by a clear");
        w.signal();
        w.await();
    }
}

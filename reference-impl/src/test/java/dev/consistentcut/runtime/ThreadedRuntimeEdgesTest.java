package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threaded runtime's edges, outcomes only (never timing): the threads that may not fail the
 * job, failed store writes, lost completion notifications of a transactional sink, what the result
 * reports (savepoints, aborted checkpoints), and a causally recorded run.
 */
@Timeout(20)
class ThreadedRuntimeEdgesTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void neitherATaskThreadNorTheCoordinatorThreadMayFailTheJob() {
        AtomicReference<ThreadedRuntime> runtime = new AtomicReference<>();
        List<String> refused = Collections.synchronizedList(new ArrayList<>());
        RunOptions options = RunOptions.builder().checkpointInterval(MS)
                .stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.EmitRecord && refused.isEmpty()) {
                        refused.add(assertThrows(IllegalStateException.class, () -> runtime.get().failAndRestore()).getMessage());
                    }
                })
                .onCheckpoint(c -> {
                    if (refused.size() == 1) {
                        refused.add(assertThrows(IllegalStateException.class, () -> runtime.get().failAndRestore()).getMessage());
                    }
                })
                .build();
        // The two-phase-commit sink: its transactions are committed only by a completed checkpoint,
        // so the run cannot end before onCheckpoint has run on the coordinator thread, however the
        // threads are scheduled (a job that may end before its first checkpoint completes made this
        // test fail under load).
        runtime.set(new ThreadedRuntime(SinkSimulationTest.job(11, new MemorySinkDirectory(), 1, TransactionalFileSink::new),
                BarrierHandlers.aligned(), options));
        RunResult r = runtime.get().run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of("a task thread cannot fail the job: it would wait for itself to stop",
                "the coordinator thread fails the job itself; do not call failAndRestore from it"), refused);
        assertEquals(0, r.failures());
    }

    private static final int RECORDS_PAST_TWO_CHECKPOINTS = 2_000;

    @Test
    void aFailedStoreWriteIsDeclinedAndOneTooManyFailsTheJob() {
        // 2,000 records a source through a sink of 10 us a record: the job runs for 40 ms at least,
        // forty checkpoint intervals, so its second checkpoint is triggered (and its write fails)
        // before the sources run out even on a loaded machine; with 200 records a job that got
        // little CPU ended before it, once under a load of 12.
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(RECORDS_PAST_TWO_CHECKPOINTS, 10_000, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).store(() -> new FailingStore(Set.of(2L)))
                        .tolerableFailedCheckpoints(1).progress(progress::add).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertFalse(r.checkpoints().stream().map(CheckpointSummary::id).toList().contains(2L));
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("checkpoint 2 declined")), progress.toString());

        ThreadedRuntime failing = new ThreadedRuntime(ThreadedRuntimeTest.demo(RECORDS_PAST_TWO_CHECKPOINTS, 10_000, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).store(() -> new FailingStore(Set.of(2L))).build());
        assertEquals(2, assertThrows(TooManyFailedCheckpointsException.class, failing::run).checkpoint());
    }

    @Test
    void aFailureAfterTheSecondCheckpointLosesTheSinksNotificationAndTheRestoreRecommits() {
        ThreadedRuntime runtime = new ThreadedRuntime(
                SinkSimulationTest.job(11, new MemorySinkDirectory(), 1, TransactionalFileSink::new), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).failAfterCheckpoint(2).endOfInput(true).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(1, runtime.lostNotifications(), "one sink, one lost notification");
    }

    @Test
    void theResultNamesTheSavepointsAndTheAbortedCheckpoints() {
        RunResult saving = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 20_000, 4),
                BarrierHandlers.alternating(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS),
                RunOptions.builder().checkpointInterval(MS).savepointEvery(2).build()).run();
        assertTrue(saving.holds(), saving.violations().toString());
        assertFalse(saving.savepoints().isEmpty(), "savepoints every other checkpoint: " + saving.checkpoints().size());
        assertTrue(saving.savepoints().stream().allMatch(id -> id % 2 == 0), "the 2nd, 4th, ... trigger: " + saving.savepoints());

        // A 1 ns timeout aborts checkpoints whose barriers are still travelling. A finished run has
        // nothing in flight: every triggered checkpoint was completed or aborted, never both.
        // The coordinator completes what every task acknowledged before it aborts what expired, so
        // the sink is held at its first step until the coordinator has aborted one: no checkpoint
        // can complete meanwhile (the sink has acknowledged none), so the first one triggered
        // expires whatever the schedule. Steps race (the default ordering), so holding the sink's
        // thread holds no other.
        java.util.concurrent.atomic.AtomicInteger triggered = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch firstAbort = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean sinkHeld = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean abortSeenWhileHeld = new java.util.concurrent.atomic.AtomicBoolean();
        RunResult aborting = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 20_000, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.MICROSECONDS.toNanos(100)).checkpointTimeout(1)
                        .observer(e -> {
                            if (e instanceof RunEvent.TriggerCheckpoint) {
                                triggered.incrementAndGet();
                            } else if (e instanceof RunEvent.AbortCheckpoint) {
                                firstAbort.countDown();
                            } else if (e instanceof RunEvent.TaskEvent t && t.task().startsWith("sink#")
                                    && sinkHeld.compareAndSet(false, true)) {
                                awaitQuietly(firstAbort, abortSeenWhileHeld);
                            }
                        }).build()).run();
        assertTrue(abortSeenWhileHeld.get(), "the coordinator aborted nothing while the sink was held");
        assertTrue(aborting.holds(), aborting.violations().toString());
        assertTrue(aborting.abortedCheckpoints() > 0, "a 1 ns timeout aborted nothing");
        assertEquals(triggered.get() - aborting.checkpoints().size(), aborting.abortedCheckpoints(),
                "aborted = triggered - completed");
    }

    @Test
    void aCausallyRecordedRunHoldsAndNamesItsProcesses() {
        ThreadedRuntime runtime = new ThreadedRuntime(Topologies.diamond(2), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).failAfterCheckpoint(1).build());
        List<String> processes = runtime.processes();
        assertEquals(List.of("s#0", "wide#0", "wide#1", "count#0", "join#0", "sink#0", VectorClocks.COORDINATOR), processes);
        runtime.recordCausally(new VectorClocks(processes));
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
    }

    /** Waits for {@code latch} (a hang becomes a named failure, not a stalled run); notes whether it opened. */
    private static void awaitQuietly(java.util.concurrent.CountDownLatch latch,
            java.util.concurrent.atomic.AtomicBoolean opened) {
        try {
            opened.set(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

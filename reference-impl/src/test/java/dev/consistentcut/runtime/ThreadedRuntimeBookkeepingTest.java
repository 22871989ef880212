package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the threaded runtime tells and counts, checked against its own trace: each trigger and
 * completion told once and in order (with the savepoint flag of every second trigger), the
 * injected failure right after the N-th completion and restoring it, the result's aborted count
 * and step count, and a checkpoint triggered after every task had ended (its final states
 * complete it at once). Outcomes and counts only, never timing.
 */
@Timeout(30)
class ThreadedRuntimeBookkeepingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theTraceTellsEachTriggerAndCompletionOnceAndTheFailureComesRightAfterTheSecond() {
        List<CoordinatorEvent> events = Collections.synchronizedList(new ArrayList<>());
        // Alternating with a timeout that never fires (so savepoints exist), one checkpoint in
        // flight at a time: the second completion is the only one queued when the failure is due.
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4),
                BarrierHandlers.alternating(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS),
                RunOptions.builder().checkpointInterval(MS).savepointEvery(2).failAfterCheckpoint(2)
                        .stepOrdering(StepOrdering.oneAtATime()).observer(e -> events.add(CoordinatorEvent.of(e))).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());

        List<Long> triggered = new ArrayList<>();
        List<Long> completedTold = new ArrayList<>();
        Set<Long> savepointTriggers = new TreeSet<>();
        int completionsBeforeFailure = -1;
        long restored = -1;
        int failuresTold = 0;
        long taskSteps = 0;
        for (CoordinatorEvent e : events) {
            switch (e.action()) {
                case "TriggerCheckpoint" -> {
                    triggered.add(e.checkpoint());
                    // The 2nd, 4th, ... trigger is a savepoint, and only those say so.
                    assertEquals(triggered.size() % 2 == 0, e.savepoint(), "trigger " + e);
                    if (e.savepoint()) {
                        savepointTriggers.add(e.checkpoint());
                    }
                }
                case "CompleteCheckpoint" -> {
                    assertTrue(triggered.contains(e.checkpoint()), "completed before its trigger: " + e);
                    completedTold.add(e.checkpoint());
                }
                case "FailAndRestore" -> {
                    failuresTold++;
                    completionsBeforeFailure = completedTold.size();
                    restored = e.checkpoint();
                }
                case "AbortCheckpoint" -> throw new AssertionError("no timeout, no decline: " + e);
                default -> taskSteps++;
            }
        }
        for (int i = 0; i < triggered.size(); i++) {
            assertEquals(i + 1, triggered.get(i), "each trigger told once, in id order: " + triggered);
        }
        List<Long> completedIds = r.checkpoints().stream().map(CheckpointSummary::id).toList();
        assertEquals(completedIds, completedTold, "each completion told once, in completion order");
        assertEquals(1, failuresTold);
        assertEquals(2, completionsBeforeFailure, "the failure right after the second completion");
        assertEquals(completedIds.get(1), restored, "and it restores the second");
        Set<Long> savepoints = new TreeSet<>(completedIds);
        savepoints.retainAll(savepointTriggers);
        assertEquals(savepoints, r.savepoints());
        // Nothing is in flight at the end: every trigger completed or was aborted (here by the failure).
        assertEquals(triggered.size() - completedIds.size(), r.abortedCheckpoints(), "aborted = triggered - completed");
        // Steps: every task step (told once each, before and after the failure) and the coordinator's
        // triggers and completions; the failure is no step.
        assertEquals(taskSteps + triggered.size() + completedIds.size(), r.steps());
        List<Record> received = ((RecordingSink) runtime.operatorTask("sink#0").operator()).received();
        assertEquals(400, received.size());
        assertEquals(400, received.stream().map(Record::id).distinct().count(), "every record once at the sink");
    }

    @Test
    void aRunWithoutAFailureAbortsNothingAndDeliversEveryRecord() {
        List<String> triggers = Collections.synchronizedList(new ArrayList<>());
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.TriggerCheckpoint) {
                        triggers.add(e.name());
                    }
                }).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(0, r.failures());
        // One checkpoint in flight at a time, none aborted: each one triggered completed.
        assertEquals(triggers.size(), r.checkpoints().size());
        assertEquals(0, r.abortedCheckpoints());
        List<Record> received = ((RecordingSink) runtime.operatorTask("sink#0").operator()).received();
        assertEquals(600, received.stream().map(Record::id).distinct().count());
        assertEquals(600, received.size());
    }

    @Test
    void aCheckpointTriggeredAfterEveryTaskEndedCompletesFromTheirFinalStates() {
        // The first trigger is due 1.2 s after the start; the first progress line (1 s) holds the
        // coordinator until every task has ended, so checkpoint 1 is triggered after all of them
        // and no acknowledgement will come: the trigger itself must hand it over for completion.
        // The failure after it keeps the coordinator triggering once the input is exhausted.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        RunOptions options = RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1200))
                .endOfInput(true)
                .failAfterCheckpoint(1)
                .progress(line -> {
                    if (progress.isEmpty()) {
                        for (String t : runtime[0].processes()) {
                            while (!t.equals(dev.consistentcut.causal.VectorClocks.COORDINATOR)
                                    && !runtime[0].coordinator().hasEnded(t)) {
                                Thread.onSpinWait();
                            }
                        }
                    }
                    progress.add(line);
                })
                .build();
        runtime[0] = new ThreadedRuntime(ThreadedRuntimeTest.demo(20, 0, 4), BarrierHandlers.aligned(), options);
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(List.of(1L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertTrue(progress.contains("failure 1: restored checkpoint 1"), progress.toString());
    }

    @Test
    void failAndRestoreFromAnotherThreadReturnsOnlyOnceTheFailureIsDone() throws Exception {
        java.util.concurrent.CountDownLatch firstCheckpoint = new java.util.concurrent.CountDownLatch(1);
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(1000, 100_000, 2), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).onCheckpoint(c -> firstCheckpoint.countDown())
                        .progress(progress::add).build());
        java.util.concurrent.CompletableFuture<RunResult> result = java.util.concurrent.CompletableFuture.supplyAsync(runtime::run);
        firstCheckpoint.await();
        runtime.failAndRestore();
        // The coordinator thread tells the restore before it counts the failure as performed.
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("failure 1: restored checkpoint ")), progress.toString());
        RunResult r = result.get();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
    }

    @Test
    void aRunEndsOnlyOnceEveryTaskHasTakenItsAbortNews() {
        // A 1 ns timeout aborts most checkpoints while their barriers travel; each abort is news
        // (NotifyCheckpointAborted) for every operator task, and the run is not over while one of
        // them has news still to take.
        for (int run = 0; run < 3; run++) {
            ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.unaligned(),
                    RunOptions.builder().checkpointInterval(TimeUnit.MICROSECONDS.toNanos(100)).checkpointTimeout(1).build());
            RunResult r = runtime.run();
            assertTrue(r.holds(), r.violations().toString());
            for (String t : List.of("count#0", "count#1", "sink#0")) {
                assertEquals(java.util.OptionalLong.empty(), runtime.coordinator().nextAbortNotificationFor(t),
                        "run " + run + ": " + t + " was left news (" + r.abortedCheckpoints() + " aborted)");
            }
        }
    }

    @Test
    void aRunWithoutLedgersChecksNothingAtItsEnd() {
        // Without the processed ledgers there is nothing to check exactly-once against: the end of
        // the run must not report their (empty) ledgers as records never processed.
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(100, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).trackProcessed(false).build()).run();
        assertTrue(r.finished());
        assertEquals(false, r.invariantsChecked());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void whileTracingNoTwoStepsAreToldAtOnce() {
        // The trace lock (held around each step and its observer call, task and coordinator steps
        // alike) makes the calls' order an order in which the steps happened one at a time: so
        // no call overlaps another, though every task thread and the coordinator call.
        java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger overlaps = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).failAfterCheckpoint(1).stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (inside.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    calls.incrementAndGet();
                    for (int k = 0; k < 200; k++) {
                        Thread.onSpinWait(); // a window wide enough for a second thread to enter
                    }
                    inside.decrementAndGet();
                }).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(calls.get() > 1000, "calls: " + calls.get());
        assertEquals(0, overlaps.get(), "observer calls that overlapped another");
    }

    @Test
    void theCoordinatorIsSetUpForTheMode() {
        // Unaligned: one checkpoint in flight whatever maxConcurrentAligned says; aligned: that many.
        RunOptions three = RunOptions.builder().maxConcurrentAligned(3).build();
        assertEquals(3, new ThreadedRuntime(ThreadedRuntimeTest.demo(5, 0, 2), BarrierHandlers.aligned(), three)
                .coordinator().maxConcurrent());
        assertEquals(1, new ThreadedRuntime(ThreadedRuntimeTest.demo(5, 0, 2), BarrierHandlers.unaligned(), three)
                .coordinator().maxConcurrent());
    }

    @Test
    void withoutAbortsReachingTheTasksNoTaskIsToldOfOne() {
        // The spec's older model option (AbortsReachTasks = FALSE): an aborted checkpoint stays in
        // flight until every task acknowledged it, and no task takes a NotifyCheckpointAborted.
        Map<String, Integer> events = new java.util.concurrent.ConcurrentHashMap<>();
        // A sink costing 10 us per record keeps barriers travelling long enough to be timed out.
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 10_000, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.MICROSECONDS.toNanos(100)).checkpointTimeout(1)
                        .abortsReachTasks(false).stepOrdering(StepOrdering.oneAtATime()).observer(e -> events.merge(e.name(), 1, Integer::sum)).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.abortedCheckpoints() > 0, "a 1 ns timeout aborted nothing");
        assertEquals(null, events.get("NotifyCheckpointAborted"), events.toString());
    }

    @Test
    void aCompletionResetsTheCountOfConsecutiveFailedStoreWrites() {
        // Checkpoints 2 and 4 fail to be stored, 1, 3 and 5 complete (one in flight at a time; the
        // failure due after the third completion keeps the coordinator triggering until then). A
        // tolerance of one consecutive failure is never exceeded: 3 completed in between.
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).store(() -> new FailingStore(Set.of(2L, 4L)))
                        .tolerableFailedCheckpoints(1).failAfterCheckpoint(3).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of(1L, 3L, 5L), r.checkpoints().stream().map(CheckpointSummary::id).limit(3).toList());
    }
}

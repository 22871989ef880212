package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rules the threaded runtime now shares with the simulation through {@link CheckpointDriver}
 * and {@link DriverGateway} (each copy had its own before): a failure loses the notification a
 * sink had waiting, whatever failure it is; a completion drops the checkpoints it subsumed from the
 * complete-able set; and the threaded runtime declines checkpoints when
 * {@link RunOptions#declineProbability()} asks for it. A run is held at known points (a source's
 * read), never timed; the driver is stepped by hand on the test's thread. Outcomes only.
 */
@Timeout(60)
class ThreadedDriverRulesTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * A source of 10 records whose read of offset 3 waits until checkpoint 1 is triggered and the
     * coordinator thread is out of its trigger (the gateway's "no barrier" cache has moved on, see
     * ThreadedPartsWorkerTest): the source injects barrier 1 next, and records 4 to 9 follow it.
     */
    private static SourceLog heldUntilTriggered(ThreadedRuntime[] runtime, Thread coordinatorThread) {
        return new HookedSourceLog(InMemorySourceLog.randomKeys(10, 3, 5), offset -> {
            if (offset == 3) {
                await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE
                        && Arrays.stream(coordinatorThread.getStackTrace())
                                .noneMatch(f -> f.getMethodName().equals("triggerCheckpoint")),
                        "checkpoint 1 is triggered");
            }
        });
    }

    /**
     * Performs the tasks' enabled steps by hand, on this thread (the runtime's task threads never
     * start), rotating over each task's steps, until {@code done}. Before each step an operator
     * acknowledges its written checkpoints, as its worker does; the writes run on the runtime's
     * writer threads, so a round in which a write is still running does not count (the write ends
     * whatever this thread does; the test's timeout bounds a write that never does).
     */
    static void stepTasksUntil(CheckpointDriver driver, BooleanSupplier done) {
        List<Step> steps = new ArrayList<>();
        for (int round = 0; round < 10_000 && !done.getAsBoolean(); ) {
            boolean writing = false;
            for (Task t : driver.deployment.tasks.values()) {
                if (t instanceof OperatorTask o) {
                    o.acknowledgeWritten();
                    writing |= o.pendingWrites() > 0;
                }
                steps.clear();
                t.enabledSteps(steps);
                if (!steps.isEmpty()) {
                    t.perform(steps.get(round % steps.size()));
                }
            }
            if (writing) {
                Thread.yield();
            } else {
                round++;
            }
        }
        assertTrue(done.getAsBoolean(), "the tasks got there");
    }

    @Test
    void aFailureWhileASinkHasItsNotificationWaitingLosesIt() {
        // The threaded runtime's driver, stepped by hand before any run(): checkpoint 1 completes
        // and its notification waits for the sink when the failure strikes (as a failure asked
        // for with failAndRestore() from another thread can). The threaded runtime's own copy
        // counted lost notifications only for --fail-after-checkpoint, so it counted none here.
        ThreadedRuntime runtime = new ThreadedRuntime(JobGraph.builder().defaultCapacity(16)
                .source("s", InMemorySourceLog.randomKeys(10, 3, 5))
                .operator("sink", 1, () -> new TransactionalFileSink(new MemorySinkDirectory()))
                .edge("s", "sink", Partitioning.FORWARD)
                .build(), BarrierHandlers.aligned(), RunOptions.builder().build());
        CheckpointDriver driver = runtime.driver();
        assertEquals(1L, driver.trigger().getAsLong());
        stepTasksUntil(driver, () -> driver.completable().contains(1L));
        assertTrue(driver.complete(1).isPresent());
        driver.notifyCompletion(1);
        assertTrue(runtime.coordinator().nextCompleteNotificationFor("sink#0").isPresent());

        driver.failAndRestore("");
        assertEquals(1, runtime.lostNotifications(), "the sink's notification of checkpoint 1 was lost");
    }

    @Test
    void declinesAreDrawnInTheThreadedRuntimeToo() {
        // Every checkpoint is declined by the sink at its first barrier: checkpoint 1 (triggered
        // before the source reads offset 3) is aborted, and none completes. A runtime that never
        // declines completes checkpoint 1.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        JobGraph job = JobGraph.builder().defaultCapacity(16)
                .source("s", heldUntilTriggered(runtime, Thread.currentThread()))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).declineProbability(1).build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(CheckpointStatus.ABORTED, runtime[0].coordinator().status(1));
        assertTrue(r.checkpoints().isEmpty(), "completed: " + r.checkpoints());
        assertTrue(r.abortedCheckpoints() >= 1, "aborted: " + r.abortedCheckpoints());
    }

    @Test
    void completingANewerCheckpointDropsTheOlderCompleteAbleOne() {
        // A completion subsumes every older pending checkpoint; the threaded runtime's driver
        // drops those from its complete-able set at once, as the simulation's does (the spec
        // replay found the simulation offering CompleteCheckpoint for them; the threaded copy
        // kept them). Stepped by hand on the test's thread, before any run().
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(20, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().maxConcurrentAligned(2).build());
        CheckpointDriver driver = runtime.driver();
        assertEquals(1L, driver.trigger().getAsLong());
        assertEquals(2L, driver.trigger().getAsLong());
        stepTasksUntil(driver, () -> driver.completable().containsAll(Set.of(1L, 2L)));

        assertTrue(driver.complete(2).isPresent());
        assertEquals(CheckpointStatus.ABORTED, runtime.coordinator().status(1), "subsumed by 2");
        assertTrue(driver.completable().isEmpty(), "still complete-able: " + driver.completable());
    }
}

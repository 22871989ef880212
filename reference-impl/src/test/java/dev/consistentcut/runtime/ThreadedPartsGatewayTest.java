package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threaded runtime's gateway (its tasks' side of the coordinator): what it must pass on for
 * a run to come out right, each in a run held at a known point (a source whose log read waits,
 * a sink whose record waits, or the coordinator's first progress line) so that the outcome does
 * not depend on how the threads happen to interleave. Outcomes only, never timing.
 */
@Timeout(120)
class ThreadedPartsGatewayTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A transactional sink that counts the completion notifications it takes, per checkpoint. */
    private static final class CountingSink extends TransactionalFileSink {
        private final Map<Long, Integer> notified;

        CountingSink(SinkDirectory dir, Map<Long, Integer> notified) {
            super(dir);
            this.notified = notified;
        }

        @Override
        public List<Long> notifyCheckpointComplete(long checkpointId) {
            notified.merge(checkpointId, 1, Integer::sum);
            return super.notifyCheckpointComplete(checkpointId);
        }
    }

    @Test
    void aSinkTakesEachCompletionNotificationOnce() {
        // The gateway passes the sink's NotifyCheckpointComplete on to the coordinator
        // (completeNotified), which then stops offering it: a sink commits once per completed
        // checkpoint (Flink's notifyCheckpointComplete, once per checkpoint and task). The source
        // holds at offset 4 (inside its step, so the run cannot end) until the sink has taken a
        // notification and then either has none left (the notification was consumed) or has taken
        // one twice (it was not): a deterministic point in both cases.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        Map<Long, Integer> notified = new ConcurrentHashMap<>();
        SourceLog log = new HookedSourceLog(InMemorySourceLog.randomKeys(8, 3, 5), offset -> {
            if (offset == 0) {
                // Checkpoint 1's barrier goes before record 1 at the latest: injected first.
                await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE, "checkpoint 1 is triggered");
            } else if (offset == 4) {
                await(() -> !notified.isEmpty()
                        && (runtime[0].coordinator().nextCompleteNotificationFor("sink#0").isEmpty()
                        || notified.values().stream().anyMatch(n -> n > 1)),
                        "the sink took a completion notification");
            }
        });
        MemorySinkDirectory dir = new MemorySinkDirectory();
        JobGraph job = JobGraph.builder().defaultCapacity(16)
                .source("s", log)
                .operator("sink", 1, () -> new CountingSink(dir, notified))
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).endOfInput(true).build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertFalse(notified.isEmpty());
        notified.forEach((c, n) -> assertEquals(1, n, "notifications of checkpoint " + c + ": " + notified));
    }

    @Test
    void aCheckpointThatATasksEndMakesCompleteIsCompleted() {
        // FLIP-147: a task that ends hands the coordinator its final state for every checkpoint in
        // flight; when that completes a checkpoint's acknowledgements, the gateway queues it for
        // the coordinator thread (taskEnded's returned ids), as an acknowledgement would.
        // The first trigger is due 1.2 s after the start; the first progress line (1 s) holds
        // the coordinator until the source has ended, and the sink waits inside its last record
        // until checkpoint 1 is triggered: so the source's final state is in checkpoint 1 from its
        // trigger on, and the sink's end (its end of partition right after) is its last part.
        // A transactional sink keeps the coordinator triggering once the input is read (its
        // records wait for a checkpoint to commit them). Without the hand-over checkpoint 1
        // stays pending, all acknowledged but never completed, until the 4 s timeout aborts it.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        MemorySinkDirectory dir = new MemorySinkDirectory();
        JobGraph job = JobGraph.builder().defaultCapacity(16)
                .source("s", InMemorySourceLog.randomKeys(8, 3, 5))
                .operator("sink", 1, () -> new TransactionalFileSink(dir) {
                    @Override
                    public Record process(int input, Record record) {
                        if (record.id().offset() == 7) {
                            await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE,
                                    "checkpoint 1 is triggered");
                        }
                        return super.process(input, record);
                    }
                })
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1200))
                .checkpointTimeout(TimeUnit.SECONDS.toNanos(4))
                .endOfInput(true)
                .progress(line -> {
                    if (progress.isEmpty()) {
                        await(() -> runtime[0].coordinator().hasEnded("s#0"), "the source has ended");
                    }
                    progress.add(line);
                })
                .build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of(1L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertEquals(0, r.abortedCheckpoints());
        assertEquals(8, runtime[0].operatorTask("sink#0").committedOutput().size(), "every record committed");
    }

    /**
     * Passes records on; after its first record on its task thread (in the worker's pause, outside
     * any step and so outside the trace lock) it waits until {@code release}.
     */
    private static final class HoldAfterFirst implements dev.consistentcut.operator.Operator {
        private final BooleanSupplier release;
        private final String what;
        private final java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean();

        HoldAfterFirst(BooleanSupplier release, String what) {
            this.release = release;
            this.what = what;
        }

        @Override
        public Record process(int input, Record record) {
            return record;
        }

        @Override
        public long delayNanosPerRecord() {
            if (Thread.currentThread().getName().startsWith("task-") && held.compareAndSet(false, true)) {
                await(release, what);
            }
            return 0;
        }

        @Override
        public byte[] snapshotState() {
            return new byte[0];
        }

        @Override
        public void restoreState(byte[] state) {
        }
    }

    @Test
    void aDeclineThatAbortsAPendingCheckpointIsToldOnce() {
        // At least once, two checkpoints in flight (Flink's CheckpointBarrierTracker): sink d has
        // barriers 1 and 2 from source a when its other input (m, fed by source b, which ended
        // before checkpoint 1) ends; both are then complete there, d acknowledges the newer, 2,
        // and declines 1, still pending at the coordinator: the decline aborts it, and the trace
        // tells that AbortCheckpoint once, with who declined it. The order is forced: the first
        // progress line (1 s) holds the coordinator until b has ended, so the triggers (1.2 s,
        // 2.4 s) come after; d waits after its first record until a has injected barrier 2 (a's
        // channel of 4 records is full meanwhile, so a is still reading); m waits after b's only
        // record until d has received barriers 1 and 2 (both waits are outside the trace lock).
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        List<RunEvent.AbortCheckpoint> aborts = Collections.synchronizedList(new ArrayList<>());
        List<Long> dBarriers = Collections.synchronizedList(new ArrayList<>());
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        JobGraph job = JobGraph.builder().defaultCapacity(4)
                .source("a", InMemorySourceLog.randomKeys(40, 3, 7))
                .source("b", InMemorySourceLog.randomKeys(1, 3, 8))
                .operator("m", 1, () -> new HoldAfterFirst(() -> dBarriers.containsAll(List.of(1L, 2L)),
                        "d has received barriers 1 and 2"))
                .operator("d", 1, () -> new HoldAfterFirst(() -> runtime[0].coordinator().status(2) != CheckpointStatus.NONE
                        && runtime[0].coordinator().nextBarrierFor("a#0").isEmpty(), "a has injected barrier 2"))
                .edge("a", "d", Partitioning.FORWARD)
                .edge("b", "m", Partitioning.FORWARD)
                .edge("m", "d", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.atLeastOnce(), RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1200))
                .maxConcurrentAligned(2)
                .endOfInput(true)
                .stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.AbortCheckpoint a) {
                        aborts.add(a);
                    } else if (e instanceof RunEvent.ReceiveBarrier b && b.task().equals("d#0")) {
                        dBarriers.add(b.checkpoint());
                    }
                })
                .progress(line -> {
                    if (progress.isEmpty()) {
                        await(() -> runtime[0].coordinator().hasEnded("b#0"), "source b has ended");
                    }
                    progress.add(line);
                })
                .build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of(new RunEvent.AbortCheckpoint(1, "d#0")), aborts);
        assertEquals(CheckpointStatus.ABORTED, runtime[0].coordinator().status(1));
        assertTrue(r.checkpoints().stream().map(CheckpointSummary::id).toList().contains(2L), r.checkpoints().toString());
    }

    @Test
    void startDelaysAndAlignmentsAreMeasuredOnTheRuntimesClock() {
        // The gateway's clock (now) is the runtime's System.nanoTime, the clock of the trigger
        // times: a task's start delay (its first barrier after the trigger, Flink's
        // checkpointStartDelayNanos) and its alignment are differences of two readings of it and
        // never negative. Traced (an observer that records nothing), so that the trigger and its
        // trigger time are one step that no task step can come between.
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(100, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).failAfterCheckpoint(2).stepOrdering(StepOrdering.oneAtATime()).observer(e -> { }).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.checkpoints().size() >= 2, r.checkpoints().toString());
        for (CheckpointSummary c : r.checkpoints()) {
            assertFalse(c.stats().startDelay().isEmpty());
            c.stats().startDelay().forEach((t, d) -> assertTrue(d >= 0, "checkpoint " + c.id() + ", " + t + ": start delay " + d));
            c.stats().alignmentDuration().forEach((t, d) -> assertTrue(d >= 0, "checkpoint " + c.id() + ", " + t + ": alignment " + d));
        }
    }
}

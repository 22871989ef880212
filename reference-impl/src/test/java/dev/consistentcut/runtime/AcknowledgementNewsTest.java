package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's last acknowledgement gives no task news, so it must not send the tasks back to
 * the coordinator: the coordinator holds its lock while the store writes the checkpoint, and a
 * task asking then waits for the write (what made checkpoints cost the benchmark's throughput).
 * Held at known points, never timed:
 * <ol>
 *   <li>the source injects barrier 1 and asks once more for a barrier: "nothing", which it may keep
 *       while the coordinator's news generation stays where it is;</li>
 *   <li>only then does the sink snapshot (and so acknowledge, last): its snapshot waits for the
 *       source's first read after the injection, and that read waits until the store is writing
 *       checkpoint 1, under the coordinator's lock;</li>
 *   <li>the store's write waits until the source has read {@link #READS_DURING_THE_WRITE} more
 *       records.</li>
 * </ol>
 * A source sent back to the coordinator by the acknowledgement waits on its lock, the write never
 * ends, and the test's timeout names the hang. Only one aligned checkpoint is pending at a time
 * and nothing fails or declines, so nothing else moves the generation during the write.
 */
@Timeout(60)
class AcknowledgementNewsTest {

    private static final int READS_DURING_THE_WRITE = 5;

    /** An in-memory store whose write of checkpoint 1 opens {@code entered} and then waits for {@code release}. */
    private static final class HeldStore extends ForwardingStore {
        private final CountDownLatch entered;
        private final CountDownLatch release;

        HeldStore(CountDownLatch entered, CountDownLatch release) {
            super(1);
            this.entered = entered;
            this.release = release;
        }

        @Override
        public void store(CompletedCheckpoint c) {
            if (c.id() == 1) {
                entered.countDown();
                await(release);
            }
            super.store(c);
        }
    }

    /** A recording sink (full snapshots) whose snapshots wait until {@code go} is open. */
    private static final class HeldSnapshotSink implements Operator {
        private final RecordingSink inner = new RecordingSink();
        private final CountDownLatch go;

        HeldSnapshotSink(CountDownLatch go) {
            this.go = go;
        }

        @Override
        public Record process(int input, Record record) {
            return inner.process(input, record);
        }

        @Override
        public byte[] snapshotState() {
            await(go);
            return inner.snapshotState();
        }

        @Override
        public void restoreState(byte[] state) {
            inner.restoreState(state);
        }
    }

    @Test
    void theTasksGoOnWhileTheStoreWritesACheckpoint() {
        CountDownLatch sourceAskedAgain = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong injectedAt = new AtomicLong(-1);
        HookedSourceLog source = new HookedSourceLog(InMemorySourceLog.randomKeys(10_000, 3, 5), offset -> {
            long k = injectedAt.get();
            if (k < 0) {
                return;
            }
            if (offset == k) { // the first read after the injection: the source has asked again
                sourceAskedAgain.countDown();
                await(entered);
            } else if (offset == k + READS_DURING_THE_WRITE) {
                release.countDown();
            }
        });
        RunObserver injections = event -> {
            if (event instanceof RunEvent.InjectBarrier b && b.checkpoint() == 1) {
                injectedAt.set(b.offset());
            }
        };
        JobGraph job = JobGraph.builder().defaultCapacity(64)
                .source("s", source)
                .operator("sink", 1, () -> new HeldSnapshotSink(sourceAskedAgain))
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        ThreadedRuntime runtime = new ThreadedRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1))
                .maxConcurrentAligned(1)
                .observer(injections)
                .store(() -> new HeldStore(entered, release))
                .build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.checkpoints().stream().anyMatch(c -> c.id() == 1), "checkpoint 1 completed: " + r.checkpoints());
    }
}

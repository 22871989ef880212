package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's last acknowledgement gives no task news, so it must not send the tasks back to
 * the coordinator: the coordinator holds its lock while the store writes the checkpoint, and a
 * task asking then waits for the write (what made checkpoints cost the benchmark's throughput).
 * Held at known points, never timed: the store's write of checkpoint 1 waits until the source has
 * read offset 8, and the source's read of offset 4 waits until that write has begun. A source
 * that asks the coordinator for news in between waits on its lock, the write never ends, and the
 * test's timeout names the hang.
 */
@Timeout(60)
class AcknowledgementNewsTest {

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

    @Test
    void theTasksGoOnWhileTheStoreWritesACheckpoint() {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        HookedSourceLog source = new HookedSourceLog(InMemorySourceLog.randomKeys(40, 3, 5), offset -> {
            if (offset == 3) {
                ThreadedHolds.await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE,
                        "checkpoint 1 is triggered");
            } else if (offset == 4) {
                await(entered); // the store writes checkpoint 1, under the coordinator's lock
            } else if (offset == 8) {
                release.countDown();
            }
        });
        JobGraph job = JobGraph.builder().defaultCapacity(64)
                .source("s", source)
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1))
                .store(() -> new HeldStore(entered, release))
                .build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.checkpoints().stream().anyMatch(c -> c.id() == 1), "checkpoint 1 completed: " + r.checkpoints());
    }
}

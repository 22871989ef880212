package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rules the threaded runtime now shares with the simulation through {@link CheckpointDriver}
 * and {@link DriverGateway} (each copy had its own before): the threaded runtime declines
 * checkpoints when {@link RunOptions#declineProbability()} asks for it. Each run is held at known
 * points (a source's read, a sink's record), never timed. Outcomes only.
 */
@Timeout(60)
class ThreadedDriverRulesTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A source of 10 records whose read of offset 3 waits until checkpoint 1 is triggered: records follow barrier 1. */
    private static SourceLog heldUntilTriggered(ThreadedRuntime[] runtime) {
        return new HookedSourceLog(InMemorySourceLog.randomKeys(10, 3, 5), offset -> {
            if (offset == 3) {
                await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE, "checkpoint 1 is triggered");
            }
        });
    }

    @Test
    void declinesAreDrawnInTheThreadedRuntimeToo() {
        // Every checkpoint is declined by the sink at its first barrier: checkpoint 1 (triggered
        // before the source reads offset 3) is aborted, and none completes. A runtime that never
        // declines completes checkpoint 1.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        JobGraph job = JobGraph.builder().defaultCapacity(16)
                .source("s", heldUntilTriggered(runtime))
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
}

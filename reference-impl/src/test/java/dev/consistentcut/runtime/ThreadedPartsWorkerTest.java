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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task thread's choice of its next step (ThreadedRuntime's Worker.performStep), in a run held at
 * a known point so that the outcome does not depend on how the threads interleave. Outcomes only.
 */
@Timeout(120)
class ThreadedPartsWorkerTest {

    @Test
    void aSourceInjectsADueBarrierBeforeItsNextRecord() {
        // A source takes InjectBarrier as soon as it is enabled, before any further record, as
        // Flink's source injects the barrier on the trigger (no rotation over its steps). The
        // source's first step (records 0.. in one choice) waits inside its read of record 3
        // until checkpoint 1 is triggered: the first progress line (1 s) holds the coordinator
        // until the source waits there, and the trigger is due at 1.2 s. The source then finishes
        // record 3, stops (a barrier is due) and injects it next: checkpoint 1 holds offset 4.
        // A source that rotated over its steps would emit record 4 first (its second choice).
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        Thread coordinatorThread = Thread.currentThread(); // run() below makes it the coordinator thread
        AtomicBoolean reached = new AtomicBoolean();
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        InMemorySourceLog records = InMemorySourceLog.randomKeys(10, 3, 5);
        SourceLog log = new HookedSourceLog(records, offset -> {
            if (offset == 3) {
                reached.set(true);
                // Triggered, and the coordinator thread out of triggerCheckpoint: the generation
                // the gateway's cache compares with has moved (it is bumped after the trigger).
                await(() -> runtime[0].coordinator().status(1) != CheckpointStatus.NONE
                        && java.util.Arrays.stream(coordinatorThread.getStackTrace())
                                .noneMatch(f -> f.getMethodName().equals("triggerCheckpoint")),
                        "checkpoint 1 is triggered");
            }
        });
        JobGraph job = JobGraph.builder().defaultCapacity(16)
                .source("s", log)
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        runtime[0] = new ThreadedRuntime(job, BarrierHandlers.aligned(), RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1200))
                .progress(line -> {
                    if (progress.isEmpty()) {
                        await(reached::get, "the source waits inside record 3");
                    }
                    progress.add(line);
                })
                .build());
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1L, r.checkpoints().get(0).id());
        assertEquals(4L, r.checkpoints().get(0).sourceOffsets().get("s#0"), "checkpoint 1's offset of s#0");
    }
}

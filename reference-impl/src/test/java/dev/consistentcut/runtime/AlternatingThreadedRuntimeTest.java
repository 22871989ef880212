package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Alternating mode on real threads (outcomes only, never timing): with a failure and recovery,
 * savepoints every other checkpoint, and alignment timeouts from 0 ms (every checkpoint that is
 * not a savepoint switches as soon as its barrier waits anywhere) to an hour (none switches),
 * every record reaches the sink exactly once and every invariant holds.
 */
class AlternatingThreadedRuntimeTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 3_600_000})
    void alternatingCompletesWithAFailureAndSavepointsExactlyOnce(long timeoutMs) {
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 20_000, 4),
                BarrierHandlers.alternating(Math.min(timeoutMs, BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS)),
                RunOptions.builder().checkpointInterval(2 * MS).failAfterCheckpoint(3).savepointEvery(2).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        List<RecordId> received = ((RecordingSink) runtime.operatorTask("sink#0").operator()).received()
                .stream().map(Record::id).toList();
        assertEquals(600, received.size());
        assertEquals(600, received.stream().distinct().count(), "every record exactly once at the sink");
        for (long sp : r.savepoints()) {
            assertTrue(!r.switchedCheckpoints().contains(sp), "savepoint " + sp + " switched");
        }
        if (timeoutMs == 0) {
            // Due at once: a task takes TimeoutAlignment before the barrier it sees queued.
            assertTrue(!r.switchedCheckpoints().isEmpty(), "a 0 ms timeout switched nothing");
        }
        if (timeoutMs >= BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS) {
            assertEquals(List.of(), List.copyOf(r.switchedCheckpoints()), "no checkpoint may switch with a 10-minute timeout");
        }
    }
}

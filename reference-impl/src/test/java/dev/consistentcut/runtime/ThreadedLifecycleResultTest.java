package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the threaded runtime's result and trace say about the run as a whole: which triggers are
 * savepoints (every n-th, counted from the first), and the run's elapsed time, which lies within
 * the time its caller saw run() take (a relation between two readings, not a bound on speed).
 */
@Timeout(30)
class ThreadedLifecycleResultTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void everyThirdTriggerIsASavepointCountingFromTheFirst() {
        // Flink's savepoints are asked for, not periodic; the engine's savepointEvery(n) makes the
        // n-th, 2n-th, ... trigger one. With n = 3 the first trigger (checkpoint 1) never is, and
        // checkpoint k is one exactly when k is a multiple of 3 (ids count triggers from 1).
        List<long[]> triggers = Collections.synchronizedList(new ArrayList<>());
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4),
                BarrierHandlers.alternating(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS),
                RunOptions.builder().checkpointInterval(MS).savepointEvery(3).stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.TriggerCheckpoint t) {
                        triggers.add(new long[] {t.checkpoint(), t.savepoint() ? 1 : 0});
                    }
                }).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(!triggers.isEmpty(), "no trigger");
        for (long[] t : triggers) {
            assertEquals(t[0] % 3 == 0, t[1] == 1, "checkpoint " + t[0] + " savepoint flag");
        }
        r.savepoints().forEach(id -> assertEquals(0, id % 3, "savepoint " + id));
    }

    @Test
    void theElapsedTimeLiesWithinTheCallersReadings() {
        long before = System.nanoTime();
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(50, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).build()).run();
        long seen = System.nanoTime() - before;
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.elapsed() >= 0 && r.elapsed() <= seen, "elapsed " + r.elapsed() + " ns, seen " + seen + " ns");
    }
}

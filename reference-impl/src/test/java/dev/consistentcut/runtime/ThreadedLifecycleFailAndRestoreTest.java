package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static dev.consistentcut.runtime.ThreadedHolds.awaitWaitingForTheFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.task.RunEvent;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ThreadedRuntime#failAndRestore()} from another thread: the caller waits for its own
 * failure only, and is let go when the run ends, normally or by an exception, without having
 * performed it. Each test holds a thread at a known point (an observer call, a progress line, a
 * completion callback) until the caller is seen waiting, so the order of events is fixed; a
 * caller that is never let go fails on the class's timeout. Outcomes only, never timing.
 */
@Timeout(60)
class ThreadedLifecycleFailAndRestoreTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theCallerIsLetGoOnceItsFailureIsDoneWhileTheRunGoesOn() throws Exception {
        // Every step waits (in the observer, under the trace lock) until the caller waits for its
        // failure, so the run cannot end before the failure; after the restore every step waits
        // until the caller has returned, so the run cannot end before it either: a caller that
        // waited for more than its own failure (a second one, or the end of the run) never returns.
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch requested = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        AtomicBoolean restored = new AtomicBoolean();
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.FailAndRestore) {
                        restored.set(true);
                        return;
                    }
                    running.countDown();
                    await(restored.get() ? returned : requested);
                }).build());
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(runtime::run);
        // The caller starts once a task has stepped, so run() is running: started earlier, it
        // would be refused ("failAndRestore needs a running run()"). On a loaded machine the
        // pool thread that calls run() can start after the caller (CI, 2026-12-02).
        await(running);
        AtomicReference<Throwable> callerFailed = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                runtime.failAndRestore();
            } catch (Throwable e) {
                callerFailed.set(e);
            }
            returned.countDown();
        });
        caller.start();
        awaitWaitingForTheFailure(caller);
        requested.countDown();
        caller.join();
        assertEquals(null, callerFailed.get());
        RunResult r = result.get();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
    }

    @Test
    void aCallerWaitingWhenTheRunEndsIsLetGoWithoutAFailure() throws Exception {
        // A sink costing 30 ms per record (40 records) keeps the job going past the first progress
        // line (1 s); at that line the coordinator thread waits until every task has ended, then
        // until the caller waits. Nothing is left to do: the run ends in that same pass of its
        // loop (the request came after it looked for requests) and must let the caller go.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        Thread[] caller = new Thread[1];
        RunOptions options = RunOptions.builder()
                .checkpointInterval(TimeUnit.HOURS.toNanos(1))
                .endOfInput(true)
                .progress(line -> {
                    if (caller[0] != null) {
                        return;
                    }
                    for (String t : runtime[0].processes()) {
                        while (!t.equals(VectorClocks.COORDINATOR) && !runtime[0].coordinator().hasEnded(t)) {
                            Thread.onSpinWait();
                        }
                    }
                    caller[0] = new Thread(runtime[0]::failAndRestore);
                    caller[0].start();
                    awaitWaitingForTheFailure(caller[0]);
                })
                .build();
        runtime[0] = new ThreadedRuntime(ThreadedRuntimeTest.demo(20, TimeUnit.MILLISECONDS.toNanos(30), 4),
                BarrierHandlers.aligned(), options);
        RunResult r = runtime[0].run();
        caller[0].join();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(0, r.failures(), "the run ended before the request was taken");
    }

    @Test
    void aCallerWaitingWhenTheRunFailsIsLetGo() throws Exception {
        // The first completion's callback (on the coordinator thread) waits until the caller
        // waits, then fails the run: run() throws, and the caller must be let go.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        Thread[] caller = new Thread[1];
        RuntimeException stop = new IllegalStateException("stop");
        runtime[0] = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).onCheckpoint(c -> {
                    caller[0] = new Thread(runtime[0]::failAndRestore);
                    caller[0].start();
                    awaitWaitingForTheFailure(caller[0]);
                    throw stop;
                }).build());
        RuntimeException thrown = assertThrows(RuntimeException.class, runtime[0]::run);
        assertSame(stop, thrown);
        caller[0].join();
    }

    @Test
    void afterTheRunAnotherThreadIsRefusedAtOnce() throws Exception {
        // run() has returned: the coordinator thread no longer holds anything, and a failure
        // asked for from another thread is refused (no run to fail), not left waiting.
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(50, 0, 4), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(MS).build());
        assertTrue(runtime.run().holds());
        AtomicReference<Throwable> refused = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                runtime.failAndRestore();
            } catch (Throwable e) {
                refused.set(e);
            }
        });
        other.start();
        other.join();
        assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
        assertEquals("failAndRestore needs a running run()", refused.get().getMessage());
    }
}

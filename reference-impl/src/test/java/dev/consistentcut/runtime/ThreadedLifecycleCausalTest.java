package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.ThreadedHolds.await;
import static dev.consistentcut.runtime.ThreadedHolds.awaitWaitingForTheFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The causal edges the threaded runtime itself adds to a causal trace, read off the
 * clocks of a run whose listener logs every event as the trace recorder does: the failure after
 * everything the stopped tasks did, every step of a restarted task after the failure, and what
 * the coordinator records once run() has returned after everything. Outcomes only.
 */
@Timeout(60)
class ThreadedLifecycleCausalTest {

    @Test
    void theRuntimesOwnCausalEdgesAreInTheClocks() throws Exception {
        // No checkpoint at all (interval 1 h): nothing but the runtime's own edges can tell a
        // restarted task of the failure (no trigger's barrier news to read after it). The failure
        // is asked for from another thread while every task waits at its first step (so the run
        // cannot end before it); the restore goes back to the initial state and the job runs again.
        List<String> processes = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().build()).processes();
        VectorClocks clocks = new VectorClocks(processes);
        int coordinator = processes.indexOf(VectorClocks.COORDINATOR);
        AtomicReference<long[]> failure = new AtomicReference<>();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch requested = new CountDownLatch(1);
        Map<String, long[]> first = new ConcurrentHashMap<>(); // per task: its first event's clock
        Map<String, Long> lastBefore = new ConcurrentHashMap<>(); // per task: its events before the failure
        Map<String, Long> last = new ConcurrentHashMap<>(); // per task: its events in all
        List<String> notAfterTheFailure = Collections.synchronizedList(new ArrayList<>());
        ThreadedRuntime rt = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1))
                        .stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                            String a = e.name();
                            VectorClocks.Proc proc = clocks.current();
                            long[] vc = proc.event(a); // as TraceRecorder does in a causal trace
                            String me = proc.name();
                            if (me.equals(VectorClocks.COORDINATOR)) {
                                if (a.equals("FailAndRestore")) {
                                    failure.set(vc);
                                }
                                return;
                            }
                            int own = processes.indexOf(me);
                            first.putIfAbsent(me, vc);
                            last.put(me, vc[own]);
                            long[] f = failure.get(); // set before the tasks are restarted, read after
                            if (f == null) {
                                lastBefore.put(me, vc[own]);
                                running.countDown();
                                await(requested);
                            } else if (vc[coordinator] < f[coordinator]) {
                                notAfterTheFailure.add(me + " " + a + " " + Arrays.toString(vc) + ", failure " + Arrays.toString(f));
                            }
                        }).build());
        assertEquals(processes, rt.processes());
        rt.recordCausally(clocks);
        long[][] ended = new long[1][];
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> {
            RunResult run = rt.run();
            ended[0] = clocks.current().event("RunEnded"); // on the thread that was the coordinator's
            return run;
        });
        await(running); // run() is running: a caller started before it would be refused
        Thread caller = new Thread(rt::failAndRestore);
        caller.start();
        awaitWaitingForTheFailure(caller);
        requested.countDown();
        caller.join();
        RunResult r = result.get();
        long[] end = ended[0];
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(List.of(), r.checkpoints());

        // Channels: every operator task's first step takes an element (a record or a barrier)
        // from a channel, so it comes after the sender's put: some other process's event.
        for (String op : List.of("count#0", "count#1", "sink#0")) {
            long[] vc = first.get(op);
            int own = processes.indexOf(op);
            boolean afterAnother = false;
            for (int k = 0; k < vc.length; k++) {
                afterAnother |= k != own && vc[k] > 0;
            }
            assertTrue(afterAnother, op + "'s first event follows nothing: " + Arrays.toString(vc));
        }
        // The failure: after every event of every task before it (the coordinator stopped them all).
        long[] f = failure.get();
        lastBefore.forEach((t, n) -> assertTrue(f[processes.indexOf(t)] >= n,
                "the failure " + Arrays.toString(f) + " is not after " + t + "'s " + n + " events"));
        // The restart: every step of a restarted task after the failure.
        assertEquals(List.of(), notAfterTheFailure);
        // The end: after every event of every task.
        last.forEach((t, n) -> assertTrue(end[processes.indexOf(t)] >= n,
                "the end " + Arrays.toString(end) + " is not after " + t + "'s " + n + " events"));
    }
}

package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wake-ups that a run cannot finish without (a run that would hang fails on the timeout), and the
 * coordinator thread's interrupt, which the runtime turns into an exception and hands back.
 */
@Timeout(30)
class ThreadedRuntimeWakeupTest {

    @Test
    void aTriggerWakesSourcesThatHaveNothingElseToDo() {
        // The first progress line (1 s) holds the coordinator until both sources have read all
        // their input; the first trigger (1.2 s) then finds them idle, waiting with nothing to
        // send: only the trigger's wake-up makes them inject the barrier. The failure due after
        // checkpoint 1 keeps the coordinator triggering once the input is exhausted.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        RunOptions options = RunOptions.builder()
                .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1200))
                .failAfterCheckpoint(1)
                .progress(line -> {
                    if (progress.isEmpty()) {
                        while (!runtime[0].sourceTask("s1#0").exhausted() || !runtime[0].sourceTask("s2#0").exhausted()) {
                            Thread.onSpinWait();
                        }
                    }
                    progress.add(line);
                })
                .build();
        runtime[0] = new ThreadedRuntime(ThreadedRuntimeTest.demo(20, 0, 64), BarrierHandlers.aligned(), options);
        RunResult r = runtime[0].run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(1L, r.checkpoints().get(0).id());
        assertTrue(progress.contains("failure 1: restored checkpoint 1"), progress.toString());
    }

    /** A sink that stops inside its first record until released (nothing else: 1 record). */
    private static final class HeldSink implements Operator {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Record process(int input, Record record) {
            reached.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return record;
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
    void anInterruptedCoordinatorThreadStopsTheRunAndKeepsItsInterrupt() throws Exception {
        HeldSink sink = new HeldSink();
        JobGraph job = JobGraph.builder().defaultCapacity(4)
                .source("s", InMemorySourceLog.randomKeys(10, 4, 1))
                .operator("sink", 1, () -> sink)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        ThreadedRuntime runtime = new ThreadedRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1)).build());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        Thread coordinator = new Thread(() -> {
            try {
                runtime.run();
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            }
        });
        coordinator.start();
        sink.reached.await(); // the run cannot end now: the coordinator is waiting for work
        coordinator.interrupt();
        // The run stops its task threads and joins them: the sink is let go once the coordinator
        // thread waits in that join (not before: a released sink could let the run end first).
        while (java.util.Arrays.stream(coordinator.getStackTrace()).noneMatch(f -> f.getMethodName().equals("join"))) {
            Thread.sleep(1);
        }
        sink.release.countDown();
        coordinator.join();
        assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
        assertEquals("coordinator thread interrupted", thrown.get().getMessage());
        assertEquals(Boolean.TRUE, interruptedAfter.get(), "the interrupt is handed back to the caller");
        assertEquals(List.of(), runtime.coordinator().completedIds());
    }
}

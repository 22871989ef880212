package dev.consistentcut.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waits that hold a threaded run at a known point, for the tests that drive a
 * {@link ThreadedRuntime} from outside. Any thread; each returns only once its condition holds
 * (the calling test's {@code @Timeout} ends a wait that never does).
 */
final class ThreadedHolds {
    private ThreadedHolds() {}

    /**
     * Until {@code t} waits inside {@code failAndRestore} for its failure to be done. Fails at once
     * if {@code t} ends instead (refused, for example because {@code run()} was not running yet):
     * it would never be seen waiting, and the test would hang until its timeout.
     */
    static void awaitWaitingForTheFailure(Thread t) {
        while (true) {
            if (t.getState() == Thread.State.TERMINATED) {
                throw new AssertionError(t.getName() + " ended without waiting for its failure: was run() running?");
            }
            for (StackTraceElement e : t.getStackTrace()) {
                if (e.getMethodName().equals("awaitUninterruptibly")) {
                    return;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** Until {@code latch} is open, on a task thread too (the runtime never interrupts one). */
    static void await(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // a task thread is never interrupted by the runtime; keep waiting
            }
        }
    }

    /**
     * Waits (polling) until {@code done}; fails the calling task, and so the run, after 100 s: far
     * beyond any wait here even on two cores shared by many builds (20 s once ran out at a load
     * average of 23), so the deadline only frees the task threads of a run that really hangs.
     * The test's own timeout names the hang.
     */
    static void await(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("gave up waiting until " + what);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
